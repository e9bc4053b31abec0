package svg

// This file holds every colour the figures use: the two themes (text,
// axes, backgrounds), the node, rule, reason and transfer colours, and
// the dashes, markers and hatches that tell rules apart without colour.
// palette_test.go checks the themes' text contrast (WCAG AA) and that the
// data colours stay apart under deuteranopia and protanopia.

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Theme is the colour scheme of a standalone figure file.
type Theme uint8

const (
	// Light is dark text on an opaque white background: the default for
	// files, legible in any page it is pasted into.
	Light Theme = iota
	// Dark is light text on an opaque near-black background.
	Dark
	// Auto follows the prefers-color-scheme of whatever shows the file,
	// on an opaque background of the chosen scheme. In an <img> that is
	// the reader's browser, not the host page.
	Auto
)

var themeNames = [...]string{Light: "light", Dark: "dark", Auto: "auto"}

func (t Theme) String() string {
	if int(t) < len(themeNames) {
		return themeNames[t]
	}
	return fmt.Sprintf("Theme(%d)", t)
}

// Set parses a theme name, so that *Theme is a flag.Value.
func (t *Theme) Set(s string) error {
	p, err := ParseTheme(s)
	if err == nil {
		*t = p
	}
	return err
}

// ParseTheme returns the theme called name: light, dark or auto.
func ParseTheme(name string) (Theme, error) {
	for t, n := range themeNames {
		if n == name {
			return Theme(t), nil
		}
	}
	return Light, fmt.Errorf("unknown theme %q; want light, dark or auto", name)
}

// ink is one theme's colours for everything that is not data: they
// differ between light and dark, data colours do not.
type ink struct {
	bg        string // the figure's background
	fg        string // text
	muted     string // secondary text
	axis      string // axis lines, the wheel's zero mark
	grid      string // grid lines
	off       string // unlit strip cells
	key       string // key dots
	hot       string // moved-key dots
	failed    string // a failed node's ticks
	hatch     string // hatch lines (failed nodes, the ideal)
	band      string // the noise band, drawn at bandAlpha
	ink       string // reference lines: fair share, theory
	noise     string // the noise floor's line
	bandAlpha string
}

var (
	lightInk = ink{bg: "#FFFFFF", fg: "#1A1A1A", muted: "#5C5C5C", axis: "#6B6B6B", grid: "#DCDCDC",
		off: "#E4E4E4", key: "#9A9A9A", hot: "#111111", failed: "#B0B0B0", hatch: "#7A7A7A",
		band: "#8C8C8C", ink: "#1A1A1A", noise: "#7E7E7E", bandAlpha: ".2"}
	darkInk = ink{bg: "#16181D", fg: "#ECECEC", muted: "#B4B4B4", axis: "#A0A0A0", grid: "#3D3D3D",
		off: "#353535", key: "#8A8A8A", hot: "#FFFFFF", failed: "#6E6E6E", hatch: "#9A9A9A",
		band: "#BDBDBD", ink: "#ECECEC", noise: "#9A9A9A", bandAlpha: ".22"}
)

// classes is the style sheet of one theme, every selector prefixed with
// scope. Stroke classes set no fill (CSS would override a
// fill="url(#hatch)" attribute). rr-cut is the background colour, for
// hatch lines and outlines cut into data marks.
func classes(scope string, k ink, bg bool) string {
	var b strings.Builder
	rule := func(class, decl string) { b.WriteString(scope + ".rr-" + class + "{" + decl + "}") }
	if bg {
		rule("bg", "fill:"+k.bg)
	}
	rule("fg", "fill:"+k.fg)
	rule("muted", "fill:"+k.muted)
	rule("axis", "stroke:"+k.axis)
	rule("grid", "stroke:"+k.grid)
	rule("off", "stroke:"+k.off+";fill:"+k.off)
	rule("unchanged", "stroke:"+k.off)
	rule("key", "stroke:"+k.key)
	rule("hot", "stroke:"+k.hot)
	rule("failed", "stroke:"+k.failed)
	rule("hatchline", "stroke:"+k.hatch)
	rule("band", "fill:"+k.band+";fill-opacity:"+k.bandAlpha)
	rule("ink", "stroke:"+k.ink)
	rule("noise", "stroke:"+k.noise)
	rule("cut", "stroke:"+k.bg)
	return b.String()
}

// styleSheet is a figure's CSS. A file's is scoped to its root element's
// id, so that figures of different themes pasted into one HTML page keep
// their own colours, and paints the background; the page's (file false)
// is neither: every figure a page inlines shares it, and the page's
// background shows through. Auto and the page's form switch to the dark
// colours on dark screens only, so that print is always light.
func styleSheet(id string, t Theme, file bool) string {
	scope := ""
	if file {
		scope = "#" + id + " "
	}
	weight := scope + ".rr-b{font-weight:600}"
	switch {
	case file && t == Light:
		return classes(scope, lightInk, true) + weight
	case file && t == Dark:
		return classes(scope, darkInk, true) + weight
	}
	return classes(scope, lightInk, file) + weight +
		"\n@media screen and (prefers-color-scheme: dark){" + classes(scope, darkInk, file) + "}"
}

// nodePalette colours the nodes: twelve hues that stay apart under
// deuteranopia and protanopia (colorDistance) and stay clear of the
// received and sent colours (inColor, outColor), picked greedily
// (farthest first) in OKLab from the colours with at least 1.6:1
// contrast on the light and 3:1 on the dark background, where wheels
// must show them as well. palette_test.go checks all three.
var nodePalette = [...][3]uint8{
	{0xFF, 0xC3, 0x00}, // amber
	{0xD7, 0x7D, 0xFF}, // orchid
	{0xFF, 0x64, 0x7D}, // coral
	{0x50, 0xA5, 0x7D}, // green
	{0x91, 0xD7, 0xEB}, // pale sky
	{0x91, 0x55, 0x3C}, // brown
	{0x6E, 0x64, 0xEB}, // indigo
	{0x28, 0xE6, 0x9B}, // mint
	{0x91, 0x8C, 0xBE}, // lavender grey
	{0xB9, 0xA5, 0x2D}, // olive gold
	{0xB9, 0x28, 0x82}, // magenta
	{0xDC, 0x9B, 0xB9}, // pink
}

// nodeColor is the colour of node id in every figure of a scenario: the
// palette's hues by NodeID, then the same hues darker, then lighter
// (nodeShade), so that 36 nodes have colours of their own; past that
// they repeat, and the legends' names tell nodes apart.
func nodeColor(id timeline.NodeID) string { return nodeColors[int(id)%len(nodeColors)] }

// nodeColors are the distinct node colours, by NodeID modulo their
// number, worked out once: a wheel of a thousand nodes asks for each of
// them several times.
var nodeColors = func() (out [3 * len(nodePalette)]string) {
	for j := range out {
		c := nodePalette[j%len(nodePalette)]
		switch j / len(nodePalette) {
		case 0:
			out[j] = hex(c)
		case 1:
			out[j] = nodeShade(c, [3]uint8{0, 0, 0})
		case 2:
			out[j] = nodeShade(c, [3]uint8{255, 255, 255})
		}
	}
	return out
}()

// nodeShade mixes c towards to by the most of 45%, 40%, … 10% that keeps
// the node colours' contrast (1.6:1 on the light background, 2:1 on the
// dark one); a hue too pale to be lighter (amber, pale sky) is mixed 20%
// towards black instead, which its darker shade (45%) is not.
func nodeShade(c, to [3]uint8) string {
	for t := 0.45; t > 0.05; t -= 0.05 {
		if v := hex(mix(c, to, t)); contrast(v, lightInk.bg) >= 1.6 && contrast(v, darkInk.bg) >= 2 {
			return v
		}
	}
	return hex(mix(c, [3]uint8{0, 0, 0}, 0.2))
}

// Transfer colours: blue for keys received, Okabe–Ito vermillion for
// keys sent; the direction is also the bar's side of the zero line. No
// node colour is near either. The blue is gainBlue.
const (
	inColor  = gainBlue
	outColor = "#D55E00"
)

// gainBlue is the blue of keys received and gained: Okabe–Ito's blue
// (#0072B2) made lighter until it has 4:1 contrast on the dark background
// as well as on the light one (4.4:1), and no nearer the indigo and
// lavender nodes than the node colours are to each other. The original,
// 3.4:1 on near-black, read dim beside the red and orange of the other
// reasons in dark strips and wheels.
const gainBlue = "#347CC0"

// reasonColors colour moved keys by why they moved, indexed by sim.Reason*.
var reasonColors = [strips.NumReasons]string{
	strips.ReasonGained:     gainBlue,
	strips.ReasonForced:     "#E69F00", // orange
	strips.ReasonCollateral: "#CC3311", // red
}

var reasonHelp = [strips.NumReasons]string{
	"gained: to a node that joined or recovered",
	"forced: its old node left or failed",
	"collateral: both nodes stayed (avoidable)",
}

// rulePalette colours the rules: a rule kind takes the slot of its place
// in the registry, registry.Kinds, so that it has the same colour in every
// scenario and figure; a kind added at the registry's end takes the next
// free slot, and no other kind's colour changes (reordering registry.Kinds
// would change them). The first nine slots, the algorithms (ring to slots)
// that scenarios compare with each other, were picked first and
// farthest apart, the products' slots after them, apart from each other
// and not too near the algorithms; every colour has at least 3:1
// contrast on the light background and 2.5:1 on the dark one. Picked
// greedily in OKLab, with distances taken as the smaller of normal
// vision and 1.5 × deuteranopia or protanopia (Machado et al. 2009);
// palette_test.go checks the result. Among the products, slots were then
// swapped so that kinds the examples show together differ most (ceph
// beside cassandra). Past the last slot, colours repeat (dashes and
// markers still differ).
var rulePalette = [...]string{
	"#4477AA", // ring
	"#F06E23", // modulo
	"#A02D46", // jump
	"#AA7DF5", // rendezvous
	"#00A582", // maglev
	"#6941B9", // multiprobe
	"#A05F00", // bounded
	"#006469", // libketama
	"#7896C3", // slots
	"#005F8C", // libmemcached
	"#827DB9", // twemproxy
	"#9669E1", // nginx
	"#50A0A0", // nginx-hash
	"#6E5519", // haproxy
	"#9B646E", // envoy-ring
	"#F06973", // envoy-maglev
	"#A52369", // redis
	"#5A5FBE", // cassandra
	"#3C9B50", // kafka
	"#008291", // elasticsearch
	"#CD6900", // ceph
	"#5F7341", // free
	"#913CA0", // free
	"#B45A91", // free
}

// algorithms is how many slots of rulePalette the algorithms take.
const algorithms = 9

// lineDashes are the line styles of rules, as stroke-dasharray ("" solid).
var lineDashes = [...]string{"", "9 4", "2 3", "9 3 2 3", "4 3", "9 3 2 3 2 3", "14 3 5 3"}

// Marker shapes of rules' data points.
const (
	markCircle = iota
	markSquare
	markTriangle
	markDiamond
	markTriangleDown
	markPlus
	markCross
	numMarks
)

// Hatches cut into rules' bars, in the order kinds take them: the
// first ones look least like the ideal's diagonal hatch.
const (
	hatchNone = iota
	hatchDots
	hatchHorizontal
	hatchBackslash
	hatchVertical
	hatchGrid
	hatchChecks
	hatchCross
	hatchWideHorizontal
	hatchWideSlash
	hatchSlash
	numHatches
)

// ruleStyle is how one rule of a scenario is drawn in every chart: its
// colour, the dashes of its lines, the marker on its data points and the
// hatch cut into its bars. Dashes, markers and hatches tell at least ten
// rules apart without colour.
type ruleStyle struct {
	color  string
	dash   string
	marker int
	hatch  int
}

// kindSlot is a kind's place in the registry; a name the registry does
// not know gets a number past its end, from a hash of the name.
func kindSlot(kind string) int {
	if k := registry.KindOf(kind); k != nil {
		for i := range registry.Kinds {
			if &registry.Kinds[i] == k {
				return i
			}
		}
	}
	h := fnv.New32a()
	h.Write([]byte(kind))
	return len(registry.Kinds) + int(h.Sum32()%64)
}

// kindStyle is the style of the first rule of a kind in a scenario. The
// kind's slot n (kindSlot) picks colour rulePalette[n], dashes
// lineDashes[n mod 7] and marker (n + n/7) mod 7, so that dashes and
// marker together differ for the first 49 slots, and hatch n mod 11.
func kindStyle(kind string) ruleStyle {
	n := kindSlot(kind)
	return ruleStyle{color: rulePalette[n%len(rulePalette)], dash: lineDashes[n%len(lineDashes)],
		marker: (n + n/len(lineDashes)) % numMarks, hatch: n % numHatches}
}

// ruleStyles returns the style of each rule of a scenario, in order. The
// first rule of a kind gets kindStyle; the j-th further rule of the same
// kind (j = 1, 2, …) keeps its dashes, takes the j-th next marker and
// hatch, and the colour variantColor gives it.
func ruleStyles(specs []placer.RuleSpec) []ruleStyle {
	out := make([]ruleStyle, len(specs))
	seen := map[int]int{}
	for i, sp := range specs {
		n := kindSlot(sp.Kind)
		j := seen[n]
		seen[n]++
		st := kindStyle(sp.Kind)
		if j > 0 {
			st.marker = (st.marker + j) % numMarks
			st.hatch = (st.hatch + j) % numHatches
			st.color = variantColor(st.color, j)
		}
		out[i] = st
	}
	return out
}

// variantColor is the colour of the j-th further rule (j ≥ 1) of the
// kind coloured c: a shade of c, mixed 25% to 65% (in steps of 5%) with
// white or with black, that keeps 2:1 contrast on both backgrounds.
// Variant 1 is the shade farthest from every colour of rulePalette (by
// colorDistance), variant 2 the shade farthest from those and variant 1,
// and so on: the same in every scenario.
func variantColor(c string, j int) string {
	base := parseHex(c)
	var cands []string
	for k := 5; k <= 13; k++ {
		t := float64(k) / 20
		for _, to := range [][3]uint8{{255, 255, 255}, {0, 0, 0}} {
			v := hex(mix(base, to, t))
			if contrast(v, lightInk.bg) >= 2 && contrast(v, darkInk.bg) >= 2 {
				cands = append(cands, v)
			}
		}
	}
	if len(cands) == 0 {
		return hex(mix(base, [3]uint8{0, 0, 0}, 0.3))
	}
	taken := append([]string(nil), rulePalette[:]...)
	pick := ""
	for range j {
		best := -1.0
		for _, v := range cands {
			if slices.Contains(taken, v) {
				continue
			}
			d := math.Inf(1)
			for _, o := range taken {
				d = min(d, colorDistance(v, o))
			}
			if d > best {
				best, pick = d, v
			}
		}
		if best < 0 { // every shade taken: start again
			taken = append([]string(nil), rulePalette[:]...)
			pick = cands[0]
		}
		taken = append(taken, pick)
	}
	return pick
}

// styles returns the rules' styles of a result.
func styles(res *sim.Result) []ruleStyle {
	specs := make([]placer.RuleSpec, len(res.Rules))
	for r := range res.Rules {
		specs[r] = res.Rules[r].Spec
	}
	return ruleStyles(specs)
}

func mix(a, b [3]uint8, t float64) [3]uint8 {
	var out [3]uint8
	for i := range a {
		out[i] = uint8(float64(a[i])*(1-t) + float64(b[i])*t + 0.5)
	}
	return out
}

func hex(c [3]uint8) string { return fmt.Sprintf("#%02X%02X%02X", c[0], c[1], c[2]) }

// parseHex parses "#RRGGBB"; anything else is black.
func parseHex(s string) [3]uint8 {
	var c [3]uint8
	if len(s) != 7 || s[0] != '#' {
		return c
	}
	for i := range c {
		var v uint8
		for _, d := range s[1+2*i : 3+2*i] {
			v <<= 4
			switch {
			case d >= '0' && d <= '9':
				v |= uint8(d - '0')
			case d >= 'a' && d <= 'f':
				v |= uint8(d - 'a' + 10)
			case d >= 'A' && d <= 'F':
				v |= uint8(d - 'A' + 10)
			}
		}
		c[i] = v
	}
	return c
}

// linear is an sRGB channel in linear light.
func linear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// luminance is WCAG's relative luminance of c.
func luminance(c [3]uint8) float64 {
	return 0.2126*linear(c[0]) + 0.7152*linear(c[1]) + 0.0722*linear(c[2])
}

// contrast is WCAG's contrast ratio of two colours, 1 to 21.
func contrast(a, b string) float64 {
	la, lb := luminance(parseHex(a)), luminance(parseHex(b))
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Colour vision deficiency, simulated as Machado, Oliveira and Fernandes
// (2009) do at severity 1, on linear RGB.
var (
	deuteranopia = [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}
	protanopia   = [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}
)

// oklab returns the OKLab coordinates of c as seen through the matrix m
// (nil: normal vision).
func oklab(c string, m *[3][3]float64) [3]float64 {
	h := parseHex(c)
	rgb := [3]float64{linear(h[0]), linear(h[1]), linear(h[2])}
	if m != nil {
		var o [3]float64
		for i := range o {
			o[i] = min(1, max(0, m[i][0]*rgb[0]+m[i][1]*rgb[1]+m[i][2]*rgb[2]))
		}
		rgb = o
	}
	l := math.Cbrt(0.4122214708*rgb[0] + 0.5363325363*rgb[1] + 0.0514459929*rgb[2])
	mm := math.Cbrt(0.2119034982*rgb[0] + 0.6806995451*rgb[1] + 0.1073969566*rgb[2])
	s := math.Cbrt(0.0883024619*rgb[0] + 0.2817188376*rgb[1] + 0.6299787005*rgb[2])
	return [3]float64{0.2104542553*l + 0.7936177850*mm - 0.0040720468*s,
		1.9779984951*l - 2.4285922050*mm + 0.4505937099*s,
		0.0259040371*l + 0.7827717662*mm - 0.8086757660*s}
}

// distances returns the OKLab distance (×100) of two colours in normal
// vision, and the smaller of it under deuteranopia and protanopia.
func distances(a, b string) (normal, cvd float64) {
	d := func(m *[3][3]float64) float64 {
		x, y := oklab(a, m), oklab(b, m)
		return 100 * math.Sqrt((x[0]-y[0])*(x[0]-y[0])+(x[1]-y[1])*(x[1]-y[1])+(x[2]-y[2])*(x[2]-y[2]))
	}
	return d(nil), min(d(&deuteranopia), d(&protanopia))
}

// colorDistance is how far apart the palettes keep two colours: the
// smaller of their distance in normal vision and 1.5 × that under
// deuteranopia or protanopia, which squeeze every distance.
func colorDistance(a, b string) float64 {
	n, c := distances(a, b)
	return min(n, 1.5*c)
}

// hatch defines a diagonal hatch pattern named name in the theme's
// hatch colour.
func (c *canvas) hatch(name string, spacing float64) {
	c.s.Def()
	c.s.Pattern(c.ref(name), 0, 0, round1(spacing), round1(spacing), "user", attr("patternTransform", "rotate(45)"))
	c.line(0, 0, 0, spacing, cls("hatchline"), attr("stroke-width", "1.2"))
	c.s.PatternEnd()
	c.s.DefEnd()
}
