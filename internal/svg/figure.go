// Package svg renders a finished replay as standalone SVG figures: rings
// per step, changed-key strips per step, and whole-run charts. It wraps
// github.com/ajstarks/svgo and never exposes it.
package svg

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/ringreport/ringreport/internal/workers"

	"github.com/ringreport/ringreport/internal/sim"
)

// Figure is one rendered SVG and what a report needs to place it.
type Figure struct {
	// Name is the file name, unique within a scenario, e.g.
	// "step-3-rings.svg" (StepFigureName).
	Name string
	// Kind is the figure's kind: "rings", "strips", "history", "balance",
	// "deviation", "transfers", "migrations", "availability", "replicas"
	// (with more than one replica), "requests", "busiest" or "served"
	// (with request counts; served with at most 24 live nodes).
	Kind string
	// Step is the step the figure shows, or -1 for whole-run figures.
	Step int
	// Title is a short title, usable as alt text.
	Title string
	// Caption is one or two plain-text sentences that let a newcomer read
	// the figure.
	Caption string
	// SVG is the document as a page inlines it, without an XML prolog:
	// its colours follow the page's prefers-color-scheme, its background
	// is the page's, and its style sheet is the same in every figure. A
	// file to save or paste is File's.
	SVG []byte

	id    string  // the root element's id
	w, h  float64 // its size
	style [2]int  // where SVG's <style> element starts and ends
}

// File returns the figure as a standalone file in theme t: an opaque
// background, and a style sheet scoped to the figure's id, so that
// figures of different themes can share an HTML page. A Figure this
// package did not draw is returned as it is.
func (f *Figure) File(t Theme) []byte {
	if f.style[1] <= f.style[0] || f.style[1] > len(f.SVG) {
		return f.SVG
	}
	var b bytes.Buffer
	b.Grow(len(f.SVG) + 2048)
	b.Write(f.SVG[:f.style[0]])
	b.WriteString("<style type=\"text/css\">\n<![CDATA[\n" + styleSheet(f.id, t, true) + "\n]]>\n</style>\n")
	b.WriteString(`<rect class="rr-bg" width="` + num(f.w) + `" height="` + num(f.h) + `"/>` + "\n")
	b.Write(f.SVG[f.style[1]:])
	return b.Bytes()
}

// Figures renders every figure of a replay, in report order: for each
// step its rings and (after step 0) its strips, then history, balance,
// deviation and transfers.
func Figures(res *sim.Result) ([]Figure, error) {
	if err := check(res); err != nil {
		return nil, err
	}
	all := make([]int, len(res.Timeline.States))
	for i := range all {
		all[i] = i
	}
	return FiguresOf(res, all)
}

// FiguresOf renders what Figures renders, but the step figures only of
// steps, which must be ascending and start at step 0: a report that shows
// only some steps in full (figdata.ShownSteps) draws no others.
func FiguresOf(res *sim.Result, steps []int) ([]Figure, error) {
	if err := check(res); err != nil {
		return nil, err
	}
	if !stepsFromStart(steps, len(res.Timeline.States)) {
		return nil, fmt.Errorf("svg: steps %v are not ascending steps of the replay from step 0", steps)
	}
	// Step steps[k]'s rings go to figs[2k−1] (figs[0] for step 0), its
	// strips right after; the whole-run figures come last.
	figs := make([]Figure, 2*len(steps)-1+4)
	each(len(steps), func(k int) {
		i, j := steps[k], max(2*k-1, 0)
		figs[j] = ringsFigure(res, i, StepFigureName(i, "rings"))
		if k > 0 {
			figs[j+1] = stripsFigure(res, i, StepFigureName(i, "strips"))
		}
	})
	n := 2*len(steps) - 1
	figs[n], figs[n+1], figs[n+2] = historyFigure(res), balanceFigure(res), deviationFigure(res)
	figs[n+3] = transfersFigure(res)
	if len(res.Migrations) > 0 {
		figs = append(figs, migrationFigure(res))
	}
	if availability(res) {
		figs = append(figs, availabilityFigure(res))
	}
	if replicated(res) {
		figs = append(figs, replicasFigure(res))
	}
	if res.Keys.Weight != nil {
		figs = append(figs, requestsFigure(res), busiestFigure(res))
	}
	if servedShown(res) {
		figs = append(figs, servedFigure(res))
	}
	return figs, nil
}

// stepsFromStart reports whether steps ascend strictly from 0 and stay
// below states.
func stepsFromStart(steps []int, states int) bool {
	if len(steps) == 0 || steps[0] != 0 || steps[len(steps)-1] >= states {
		return false
	}
	for k := 1; k < len(steps); k++ {
		if steps[k] <= steps[k-1] {
			return false
		}
	}
	return true
}

// StepFigureName is the file name of step's figure of a kind ("rings",
// "strips"): "step-3-rings.svg". The number is never padded, so that a
// figure keeps its name, its page anchor (#fig-step-3-rings) and every
// link to it when steps are added to the scenario. Every name of a
// step's figure comes from here.
func StepFigureName(step int, kind string) string {
	return "step-" + strconv.Itoa(step) + "-" + kind + ".svg"
}

// FigureOf renders the one figure of a kind (Figure.Kind) at a step
// (-1 for whole-run figures), as Figures names and draws it, without
// drawing the others; false when the replay has no such figure.
func FigureOf(res *sim.Result, kind string, step int) (Figure, bool, error) {
	if err := check(res); err != nil {
		return Figure{}, false, err
	}
	perStep := step >= 0 && step < len(res.Timeline.States)
	switch {
	case kind == "rings" && perStep:
		return ringsFigure(res, step, StepFigureName(step, "rings")), true, nil
	case kind == "strips" && perStep && step > 0:
		return stripsFigure(res, step, StepFigureName(step, "strips")), true, nil
	case step >= 0:
		return Figure{}, false, nil
	case kind == "history":
		return historyFigure(res), true, nil
	case kind == "balance":
		return balanceFigure(res), true, nil
	case kind == "deviation":
		return deviationFigure(res), true, nil
	case kind == "transfers":
		return transfersFigure(res), true, nil
	case kind == "migrations" && len(res.Migrations) > 0:
		return migrationFigure(res), true, nil
	case kind == "availability" && availability(res):
		return availabilityFigure(res), true, nil
	case kind == "replicas" && replicated(res):
		return replicasFigure(res), true, nil
	case kind == "requests" && res.Keys.Weight != nil:
		return requestsFigure(res), true, nil
	case kind == "busiest" && res.Keys.Weight != nil:
		return busiestFigure(res), true, nil
	case kind == "served" && servedShown(res):
		return servedFigure(res), true, nil
	}
	return Figure{}, false, nil
}

// each calls f(0) … f(n−1) on the process-wide worker pool: the steps'
// figures are independent, and a long scenario has hundreds of them. A
// panic in f is raised again in the caller's goroutine, where a caller
// may recover it.
func each(n int, f func(i int)) { workers.Each(n, f) }

// check rejects results the figures cannot be drawn from.
func check(res *sim.Result) error {
	switch {
	case res == nil || res.Scenario == nil || res.Keys == nil || res.Timeline == nil:
		return fmt.Errorf("svg: incomplete result")
	case len(res.Timeline.States) == 0 || res.Keys.Len() == 0:
		return fmt.Errorf("svg: result has no steps or no keys")
	case len(res.Rules) == 0:
		return fmt.Errorf("svg: result has no rules")
	}
	for _, r := range res.Rules {
		if len(r.Steps) != len(res.Timeline.States) {
			return fmt.Errorf("svg: rule %q has %d steps, the timeline %d", r.Spec.Label, len(r.Steps), len(res.Timeline.States))
		}
	}
	return nil
}
