package svg

import (
	"fmt"
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
