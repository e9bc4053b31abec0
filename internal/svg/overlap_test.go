package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// textBox is where one <text> element of a figure is drawn, as the
// layout estimates it: charW × size a character (generous: the fonts the
// figures name are narrower), from 0.8 size above the baseline to 0.2
// below.
type textBox struct {
	s              string
	x0, y0, x1, y1 float64 // in the text's own frame, rotated by angle about the origin
	angle          float64 // degrees, as rotate() gives it
	title          bool
}

// aabb is the axis-aligned box round b in the figure's frame.
func (b textBox) aabb() (x0, y0, x1, y1 float64) {
	if b.angle == 0 {
		return b.x0, b.y0, b.x1, b.y1
	}
	a := b.angle * math.Pi / 180
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		x, y := p[0]*math.Cos(a)-p[1]*math.Sin(a), p[0]*math.Sin(a)+p[1]*math.Cos(a)
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	return x0, y0, x1, y1
}

var (
	translateRE = regexp.MustCompile(`^translate\(([-0-9.]+) ([-0-9.]+)\)`)
	rotateRE    = regexp.MustCompile(`rotate\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\)`)
)

// textBoxes lays out the text of an SVG document: every <text>, with the
// translations of its groups, its anchor and its spans' sizes.
func textBoxes(doc []byte) ([]textBox, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	type frame struct{ dx, dy, size float64 }
	stack := []frame{{size: 11}}
	var out []textBox
	var cur *textBox
	var x, y, width, maxSize float64
	var anchor string
	sizes := []float64{}
	inTitle := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			top := stack[len(stack)-1]
			f := frame{top.dx, top.dy, top.size}
			a := map[string]string{}
			for _, at := range t.Attr {
				a[at.Name.Local] = at.Value
			}
			if v, ok := a["font-size"]; ok {
				f.size, _ = strconv.ParseFloat(v, 64)
			}
			if m := translateRE.FindStringSubmatch(a["transform"]); m != nil {
				tx, _ := strconv.ParseFloat(m[1], 64)
				ty, _ := strconv.ParseFloat(m[2], 64)
				f.dx, f.dy = f.dx+tx, f.dy+ty
			}
			stack = append(stack, f)
			switch t.Name.Local {
			case "text":
				x, _ = strconv.ParseFloat(a["x"], 64)
				y, _ = strconv.ParseFloat(a["y"], 64)
				x, y = x+f.dx, y+f.dy
				anchor, width, maxSize = a["text-anchor"], 0, f.size
				cur = &textBox{title: strings.Contains(a["class"], "rr-title") || strings.Contains(a["class"], "rr-sub")}
				if m := rotateRE.FindStringSubmatch(a["transform"]); m != nil {
					// rotate(a cx cy) with (cx, cy) the anchor: the text's
					// frame is the figure's turned by a about the origin.
					cur.angle, _ = strconv.ParseFloat(m[1], 64)
					r := -cur.angle * math.Pi / 180
					x, y = x*math.Cos(r)-y*math.Sin(r), x*math.Sin(r)+y*math.Cos(r)
				}
			case "tspan":
				maxSize = max(maxSize, f.size)
			case "title":
				inTitle++
			}
			sizes = append(sizes, f.size)
		case xml.CharData:
			if cur != nil && inTitle == 0 {
				s := string(t)
				cur.s += s
				width += textW(s, stack[len(stack)-1].size)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			switch t.Name.Local {
			case "title":
				inTitle--
			case "text":
				if cur == nil {
					break
				}
				x0 := x
				switch anchor {
				case "middle":
					x0 = x - width/2
				case "end":
					x0 = x - width
				}
				cur.x0, cur.x1 = x0, x0+width
				cur.y0, cur.y1 = y-0.8*maxSize, y+0.2*maxSize
				if strings.TrimSpace(cur.s) != "" {
					out = append(out, *cur)
				}
				cur = nil
			}
		}
	}
}

// overlaps returns the pairs of texts whose boxes overlap by more than
// a pixel both ways.
func overlaps(boxes []textBox) []string {
	var out []string
	for i := range boxes {
		for j := range i {
			a, b := boxes[i], boxes[j]
			ax0, ay0, ax1, ay1 := a.x0, a.y0, a.x1, a.y1
			bx0, by0, bx1, by1 := b.x0, b.y0, b.x1, b.y1
			if a.angle != b.angle { // compare the boxes round them
				ax0, ay0, ax1, ay1 = a.aabb()
				bx0, by0, bx1, by1 = b.aabb()
			}
			w := min(ax1, bx1) - max(ax0, bx0)
			h := min(ay1, by1) - max(ay0, by0)
			if w > 1 && h > 1 {
				out = append(out, fmt.Sprintf("%q (%.0f,%.0f–%.0f,%.0f) and %q (%.0f,%.0f–%.0f,%.0f)",
					a.s, a.x0, a.y0, a.x1, a.y1, b.s, b.x0, b.y0, b.x1, b.y1))
			}
		}
	}
	return out
}

// TestOutFiguresTextApart: in every SVG of the committed example site,
// no text overlaps another (by the layout's own, generous, estimate of
// text width), no text runs off the figure, and no title or subtitle is
// cut with "…".
func TestOutFiguresTextApart(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "out", "*", "*.svg"))
	if len(files) < 50 {
		t.Fatalf("found %d figures in out/; build it first (go run ./cmd/ringreport)", len(files))
	}
	vb := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(filepath.Base(filepath.Dir(f)), filepath.Base(f))
		boxes, err := textBoxes(doc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(boxes) == 0 {
			t.Errorf("%s: no text", name)
		}
		m := vb.FindSubmatch(doc)
		if m == nil {
			t.Errorf("%s: no viewBox", name)
			continue
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		for _, b := range boxes {
			if b.title && strings.Contains(b.s, "…") {
				t.Errorf("%s: heading %q is cut", name, b.s)
			}
			if x0, y0, x1, y1 := b.aabb(); x0 < -1 || x1 > w+1 || y0 < -1 || y1 > h+1 {
				t.Errorf("%s: %q (%.0f,%.0f–%.0f,%.0f) runs off the %.0f×%.0f figure", name, b.s, x0, y0, x1, y1, w, h)
			}
		}
		for _, o := range overlaps(boxes) {
			t.Errorf("%s: %s overlap", name, o)
		}
	}
}

// TestOverlapChecker: the checker finds two texts on one another, also
// inside translated groups, and leaves apart parallel rotated labels
// whose boxes round them would touch.
func TestOverlapChecker(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"apart", `<text x="10" y="20">abc</text><text x="10" y="40">abc</text>`, 0},
		{"on top", `<text x="10" y="20">abcdef</text><text x="30" y="22">xyz</text>`, 1},
		{"end anchor", `<text x="60" y="20" text-anchor="end">abcdef</text><text x="50" y="20">x</text>`, 1},
		{"groups", `<g transform="translate(100 0)"><text x="0" y="20">abc</text></g><text x="105" y="20">x</text>`, 1},
		{"rotated labels", `<text x="40" y="50" text-anchor="end" transform="rotate(-40 40 50)">node-1</text>` +
			`<text x="60" y="50" text-anchor="end" transform="rotate(-40 60 50)">node-2</text>`, 0},
		{"rotated on top", `<text x="40" y="50" text-anchor="end" transform="rotate(-40 40 50)">node-1</text>` +
			`<text x="43" y="50" text-anchor="end" transform="rotate(-40 43 50)">node-2</text>`, 1},
		{"tooltip not counted", `<text x="10" y="20">ab<title>a very long tooltip text</title></text><text x="40" y="20">x</text>`, 0},
	} {
		boxes, err := textBoxes([]byte(`<svg xmlns="http://www.w3.org/2000/svg" font-size="10">` + tc.body + `</svg>`))
		if err != nil {
			t.Fatal(err)
		}
		if got := overlaps(boxes); len(got) != tc.want {
			t.Errorf("%s: %d overlaps %v, want %d", tc.name, len(got), got, tc.want)
		}
	}
}
