// Package svg renders a finished replay as standalone SVG figures: rings
// per step, changed-key strips per step, and whole-run charts. It wraps
// github.com/ajstarks/svgo and never exposes it.
package svg

import (
	"fmt"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
)

// Figure is one rendered SVG and what a report needs to place it.
type Figure struct {
	// Name is the file name, unique within a scenario, e.g.
	// "step-03-rings.svg".
	Name string
	// Kind is the figure's kind: "rings", "strips", "history", "balance"
	// or "deviation".
	Kind string
	// Step is the step the figure shows, or -1 for whole-run figures.
	Step int
	// Title is a short title, usable as alt text.
	Title string
	// Caption is one or two plain-text sentences that let a newcomer read
	// the figure.
	Caption string
	// SVG is the standalone document, without an XML prolog.
	SVG []byte
}

// Figures renders every figure of a replay, in report order: for each
// step its rings and (after step 0) its strips, then history, balance
// and deviation.
func Figures(res *sim.Result) ([]Figure, error) {
	if err := check(res); err != nil {
		return nil, err
	}
	var figs []Figure
	last := len(res.Timeline.States) - 1
	width := len(strconv.Itoa(last))
	for i := range res.Timeline.States {
		nn := fmt.Sprintf("%0*d", width, i)
		figs = append(figs, ringsFigure(res, i, "step-"+nn+"-rings.svg"))
		if i > 0 {
			figs = append(figs, stripsFigure(res, i, "step-"+nn+"-strips.svg"))
		}
	}
	figs = append(figs, historyFigure(res), balanceFigure(res), deviationFigure(res))
	return figs, nil
}

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
