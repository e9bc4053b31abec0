package svg

import (
	"fmt"

	"github.com/ringreport/ringreport/internal/sim"
)

// themeCSS holds the colours that depend on the page: text, axes, grid
// and the background of unlit strip cells. Stroke classes set no fill
// (CSS would override a fill="url(#hatch)" attribute). Data colours (nodes, rules,
// reasons) are the same on light and dark pages; every class is prefixed
// "rr-" so that an SVG inlined into a page cannot clash with its styles.
const themeCSS = `.rr-fg{fill:#1a1a1a}.rr-muted{fill:#5c5c5c}
.rr-axis{stroke:#6b6b6b}.rr-grid{stroke:#dcdcdc}
.rr-off{stroke:#e4e4e4;fill:#e4e4e4}.rr-key{stroke:#9a9a9a}.rr-hot{stroke:#111111}
.rr-failed{stroke:#b0b0b0}.rr-hatchline{stroke:#7a7a7a}
.rr-band{fill:#8c8c8c;fill-opacity:.2}.rr-ink{stroke:#1a1a1a}.rr-b{font-weight:600}
@media (prefers-color-scheme: dark){.rr-fg{fill:#ececec}.rr-muted{fill:#b4b4b4}
.rr-axis{stroke:#a0a0a0}.rr-grid{stroke:#3d3d3d}.rr-off{stroke:#353535;fill:#353535}
.rr-key{stroke:#8a8a8a}.rr-hot{stroke:#ffffff}.rr-failed{stroke:#6e6e6e}
.rr-hatchline{stroke:#9a9a9a}.rr-band{fill:#bdbdbd;fill-opacity:.22}.rr-ink{stroke:#ececec}}`

// okabeIto is the Okabe–Ito palette without black (it vanishes on dark
// pages), in an order that keeps neighbours apart.
var okabeIto = [...][3]uint8{
	{0xE6, 0x9F, 0x00}, // orange
	{0x56, 0xB4, 0xE9}, // sky blue
	{0x00, 0x9E, 0x73}, // bluish green
	{0xCC, 0x79, 0xA7}, // reddish purple
	{0x00, 0x72, 0xB2}, // blue
	{0xD5, 0x5E, 0x00}, // vermillion
	{0xF0, 0xE4, 0x42}, // yellow
}

// nodeColor is the colour of node id in every figure of a scenario: the
// Okabe–Ito hues by NodeID, then the same hues darker, then lighter.
func nodeColor(id sim.NodeID) string {
	c := okabeIto[int(id)%len(okabeIto)]
	switch (int(id) / len(okabeIto)) % 3 {
	case 1:
		return hex(mix(c, [3]uint8{0, 0, 0}, 0.45))
	case 2:
		return hex(mix(c, [3]uint8{255, 255, 255}, 0.5))
	}
	return hex(c)
}

// ruleColors colour the rules in the charts (Paul Tol's "bright").
var ruleColors = [...]string{"#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377"}

func ruleColor(r int) string {
	c := ruleColors[r%len(ruleColors)]
	if r >= len(ruleColors) {
		return "#BBBBBB"
	}
	return c
}

// reasonColors colour moved keys by why they moved, indexed by sim.Reason*.
var reasonColors = [sim.NumReasons]string{
	sim.ReasonGained:     "#0072B2", // blue
	sim.ReasonForced:     "#E69F00", // orange
	sim.ReasonCollateral: "#CC3311", // red
}

var reasonHelp = [sim.NumReasons]string{
	"gained: to a node that joined or recovered",
	"forced: its old node left or failed",
	"collateral: both nodes stayed (avoidable)",
}

func mix(a, b [3]uint8, t float64) [3]uint8 {
	var out [3]uint8
	for i := range a {
		out[i] = uint8(float64(a[i])*(1-t) + float64(b[i])*t + 0.5)
	}
	return out
}

func hex(c [3]uint8) string { return fmt.Sprintf("#%02X%02X%02X", c[0], c[1], c[2]) }

// hatch defines a diagonal hatch pattern named name in the theme's
// hatch colour.
func (c *canvas) hatch(name string, spacing float64) {
	c.s.Def()
	c.s.Pattern(c.ref(name), 0, 0, round1(spacing), round1(spacing), "user", attr("patternTransform", "rotate(45)"))
	c.line(0, 0, 0, spacing, cls("hatchline"), attr("stroke-width", "1.2"))
	c.s.PatternEnd()
	c.s.DefEnd()
}
