package text

import (
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

// Expectation says what an expectation asks, e.g. "moved_fraction <= 0.2
// at step 1 for ring" or "peak_to_mean < 1.05 at every step for every
// rule".
func Expectation(e sim.Expectation) string {
	step, rule := "every step", "every rule"
	if e.Step >= 0 {
		step = "step " + strconv.Itoa(e.Step)
	}
	if e.Rule != "" {
		rule = e.Rule
	}
	return e.Metric + " " + e.Op + " " + value(e.Metric, e.Value) + " at " + step + " for " + rule
}

// Verdict says how an expectation fared: "passed (closest: 0.185556 at
// step 1 for ring)" or "failed at 3 of 4 checks; first: 0.856667 at step 1
// for modulo".
func Verdict(o sim.Outcome) string {
	at := value(o.Expectation.Metric, o.Value) + " at step " + strconv.Itoa(o.Step) + " for " + o.Rule
	switch {
	case o.Checked == 0:
		return "checked nothing: " + o.Expectation.Metric + " is not defined at the steps it covers"
	case o.Passed() && o.Checked == 1:
		return "passed (measured " + at + ")"
	case o.Passed():
		return "passed all " + Count(o.Checked) + " checks (closest: " + at + ")"
	}
	return "failed " + Count(o.Failed) + " of " + Count(o.Checked) + " checks; first: " + at
}

// value prints a metric's value: "none" for a recurs of -1, whole numbers
// without decimals, others with up to six.
func value(metric string, v float64) string {
	if metric == "recurs" && v == -1 {
		return "none"
	}
	s := Fixed(6, v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
