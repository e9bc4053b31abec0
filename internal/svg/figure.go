package svg

import "github.com/ringreport/ringreport/internal/sim"

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

// Figures renders every figure of a replay, in report order.
func Figures(res *sim.Result) ([]Figure, error) {
	return nil, nil
}
