package svg

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReplicaAndRequestFigures: replication.yaml (three replicas) has a
// replicas figure whose caption gives each rule's largest copy count and
// the primaries moved at that step, from the replay; hot-keys.yaml (request
// counts) has the requests and busiest figures, with the busiest node's
// load at the end from request_peak_to_mean; ring.yaml has none of them.
func TestReplicaAndRequestFigures(t *testing.T) {
	rep := exampleResult(t, "replication.yaml")
	f, ok, err := FigureOf(rep, "replicas", -1)
	if err != nil || !ok {
		t.Fatalf("replication.yaml: no replicas figure (%v)", err)
	}
	checkFigure(t, f)
	for _, rr := range rep.Rules {
		at := 0
		for i, sr := range rr.Steps {
			if sr.Copies > rr.Steps[at].Copies {
				at = i
			}
		}
		sr := rr.Steps[at]
		if sr.Copies <= sr.Moved {
			t.Errorf("%s: step %d copies %d, moves %d; the figure's point is that copies are more", rr.Spec.Label, at, sr.Copies, sr.Moved)
		}
		want := fmt.Sprintf("%s copies %s replicas at step %d, where %s primaries move", rr.Spec.Label, commas(sr.Copies), at, commas(sr.Moved))
		if !strings.Contains(f.Caption, want) {
			t.Errorf("replicas caption lacks %q: %s", want, f.Caption)
		}
	}
	hot := exampleResult(t, "hot-keys.yaml")
	for _, kind := range []string{"requests", "busiest"} {
		f, ok, err := FigureOf(hot, kind, -1)
		if err != nil || !ok {
			t.Fatalf("hot-keys.yaml: no %s figure (%v)", kind, err)
		}
		checkFigure(t, f)
		if kind != "busiest" {
			continue
		}
		last := len(hot.Timeline.States) - 1
		for r, rr := range hot.Rules {
			v, _ := hot.Metric("request_peak_to_mean", r, last)
			if want := rr.Spec.Label + " " + times(v); !strings.Contains(f.Caption, want) || !strings.Contains(string(f.SVG), rr.Spec.Label+": "+times(v)) {
				t.Errorf("busiest figure lacks %q", want)
			}
		}
	}
	ring := exampleResult(t, "ring.yaml")
	for _, kind := range []string{"replicas", "requests", "busiest"} {
		if _, ok, _ := FigureOf(ring, kind, -1); ok {
			t.Errorf("ring.yaml (one replica, no request counts) has a %s figure", kind)
		}
	}
}

// TestServedFigure: hot-keys.yaml's served.svg has one group per live
// node at the last step whose bars, one per rule in order, stand in the
// ratios of the requests the replay gives that node under each rule, and
// whose fair-share line is at the same height for every node (equal
// weights); ring.yaml (no request counts) has no such figure.
func TestServedFigure(t *testing.T) {
	hot := exampleResult(t, "hot-keys.yaml")
	f, ok, err := FigureOf(hot, "served", -1)
	if err != nil || !ok {
		t.Fatalf("hot-keys.yaml: no served figure (%v)", err)
	}
	checkFigure(t, f)
	doc := string(f.SVG)
	last := len(hot.Timeline.States) - 1
	bar := regexp.MustCompile(`<rect x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)" fill="#`)
	fair := regexp.MustCompile(`<line x1="[0-9.]+" y1="([0-9.]+)" x2="[0-9.]+" y2="[0-9.]+" class="rr-ink"`)
	fairY := ""
	for _, m := range liveAt(hot, last) {
		at := strings.Index(doc, fmt.Sprintf(`-served-node-%d-%s"`, m.ID, idPart(hot.Timeline.Nodes[m.ID])))
		if at < 0 {
			t.Fatalf("no group for node %s", hot.Timeline.Nodes[m.ID])
		}
		g := doc[at : at+strings.Index(doc[at:], "</g>")]
		hs := bar.FindAllStringSubmatch(g, -1)
		if len(hs) != len(hot.Rules)+1 { // the rules' bars and the node's swatch
			t.Fatalf("node %s: %d filled rects, want %d", hot.Timeline.Nodes[m.ID], len(hs), len(hot.Rules)+1)
		}
		h0, _ := strconv.ParseFloat(hs[0][1], 64)
		req0 := float64(hot.Rules[0].Steps[last].Requests[m.ID])
		for r := 1; r < len(hot.Rules); r++ {
			h, _ := strconv.ParseFloat(hs[r][1], 64)
			want := h0 * float64(hot.Rules[r].Steps[last].Requests[m.ID]) / req0
			if math.Abs(h-want) > 0.2 {
				t.Errorf("node %s, rule %s: bar %.1f tall, want %.1f (requests in the ratio of %s's)", hot.Timeline.Nodes[m.ID], hot.Rules[r].Spec.Label, h, want, hot.Rules[0].Spec.Label)
			}
		}
		y := fair.FindStringSubmatch(g)
		if y == nil || (fairY != "" && y[1] != fairY) {
			t.Errorf("node %s: fair share line %v, want one at the same height as the others' (%s)", hot.Timeline.Nodes[m.ID], y, fairY)
		} else {
			fairY = y[1]
		}
	}
	if _, ok, _ := FigureOf(exampleResult(t, "ring.yaml"), "served", -1); ok {
		t.Error("ring.yaml (no request counts) has a served figure")
	}
}
