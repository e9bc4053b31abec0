package build

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFigureNamesStable builds a nine-step scenario and the same one with
// a tenth step, and checks that every figure file, every link to a step
// figure (report.md, the page, the gallery) and every figure anchor of
// the first build is in the second unchanged: adding a step must not
// rename step-1-rings.svg to step-01-rings.svg.
func TestFigureNamesStable(t *testing.T) {
	const nine = "title: Names\nkeys: 200\nnodes: [a, b, c]\nsteps:\n" +
		"  - add: d\n  - add: e\n  - add: f\n  - add: g\n  - remove: d\n  - remove: e\n  - fail: a\n  - recover: a\n  - add: h\n"
	before, after := stepRefs(t, nine), stepRefs(t, nine+"  - add: i\n")
	if len(before) < 9*4 {
		t.Fatalf("only %d step figure names and links in the nine-step build: %v", len(before), before)
	}
	for _, ref := range before {
		if !slices.Contains(after, ref) {
			t.Errorf("%s is gone once a tenth step is added", ref)
		}
	}
	if !slices.Contains(after, "file s/step-10-rings.svg") || !slices.Contains(after, "file s/step-1-rings.svg") {
		t.Errorf("the ten-step build does not name its figures step-1-… to step-10-…: %v", after)
	}
}

var stepRef = regexp.MustCompile(`(?:id="fig-|\]\(|src="|href=")(?:page/)?(step-\d+-[a-z]+)`)

// stepRefs builds one scenario, s.yaml, and returns its step figures'
// file names and every reference to one: "file s/step-1-rings.svg",
// "s/report.md step-1-rings", "s/index.html step-1-rings", ...
func stepRefs(t *testing.T, src string) []string {
	t.Helper()
	files, err := Build([]Input{{Path: "s.yaml", Src: []byte(src)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "s/step-") && strings.HasSuffix(f.Path, ".svg") {
			refs = append(refs, "file "+f.Path)
		}
		if !strings.HasSuffix(f.Path, ".md") && !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		for _, m := range stepRef.FindAllStringSubmatch(string(f.Data), -1) {
			refs = append(refs, f.Path+" "+m[1])
		}
	}
	slices.Sort(refs)
	return slices.Compact(refs)
}
