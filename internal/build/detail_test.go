package build

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/figdata"
)

// longScenario is steps steps of ring and modulo over ten nodes that fail
// and recover in turn, with one probe and an expectation naming step 7.
func longScenario(steps int) []byte {
	var b strings.Builder
	b.WriteString("title: Long\nkeys: 500\nnodes: 10\nprobes: [p1]\nexpect: [{step: 7, rule: ring, moved: \">= 0\"}]\nsteps:\n")
	for i := range steps {
		n := i/2%10 + 1
		if i%2 == 0 {
			fmt.Fprintf(&b, "  - fail: node-%d\n", n)
		} else {
			fmt.Fprintf(&b, "  - recover: node-%d\n", n)
		}
	}
	return []byte(b.String())
}

// TestSummarisedSteps: past figdata.DetailedSteps steps, a build draws
// step figures for the steps shown in full only, gives only them a
// section in report.md and on the page (and a place in its contents),
// lists every step in the table of keys moved with the shown ones in
// bold, and says why they are shown; data.json and steps.csv keep every
// step. At figdata.DetailedSteps steps, every step is shown.
func TestSummarisedSteps(t *testing.T) {
	for _, steps := range []int{figdata.DetailedSteps, figdata.DetailedSteps + 50} {
		files, err := Build([]Input{{Path: "long.yaml", Src: longScenario(steps)}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := fileMap(t, files)
		shown := min(steps, figdata.DetailedSteps) + 1
		rings := 0
		for path := range m {
			if strings.HasPrefix(path, "long/step-") && strings.HasSuffix(path, "-rings.svg") {
				rings++
			}
		}
		md, page := string(m["long/report.md"]), string(m["long/index.html"])
		_, moved, _ := strings.Cut(md, "### Keys moved at each step")
		moved, _, _ = strings.Cut(moved, "\n## ")
		count := func(s, re string) int { return len(regexp.MustCompile(re).FindAllString(s, -1)) }
		checks := []struct {
			what      string
			got, want int
		}{
			{"rings figures", rings, shown},
			{"step sections in report.md", count(md, `(?m)^## Step \d+:`), shown},
			{"step sections on the page", count(page, `<details class="step">`), shown},
			{"steps in the page's contents", count(page, `<span class="short-n">`), shown},
			{"rows of the table of keys moved", count(moved, `(?m)^\| (\*\*)?\d+(\*\*)? \| (fail|recover|start)`), steps + 1},
			{"steps in data.json", count(string(m["long/data.json"]), `"step": \d+,\n *"op": `), steps + 1},
			{"rows of steps.csv", strings.Count(string(m["long/steps.csv"]), "\n"), 2*(steps+1) + 1},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%d steps: %s: %d, want %d", steps, c.what, c.got, c.want)
			}
		}
		summarised := steps > figdata.DetailedSteps
		intro := fmt.Sprintf("more than the %d a report shows in full. The starting cluster and the %d steps in **bold**", figdata.DetailedSteps, figdata.DetailedSteps)
		for _, want := range []string{intro, "- named by an expectation: step 7", fmt.Sprintf("- the last step: step %d", figdata.DetailedSteps+50), "| **7** |"} {
			if strings.Contains(md, want) != summarised {
				t.Errorf("%d steps: report.md has %q: %v, want %v", steps, want, !summarised, summarised)
			}
		}
		if summarised && (!strings.Contains(page, "<h2>Steps in full</h2>") || !strings.Contains(page, "named by an expectation: step 7")) {
			t.Errorf("%d steps: the page does not say which steps it shows in full and why", steps)
		}
	}
}
