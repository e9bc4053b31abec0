package svg

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/sweep"
)

// sweepMetric is one chart of a sweep: a metric at one step.
type sweepMetric struct {
	name, file, what string
	step             int
	percent          bool
}

// SweepMetrics lists the metrics a sweep plots, at the step it plots
// them: the balance figures at step 0, and moved_fraction at step 1
// when the scenario has a first step.
func sweepMetrics(st *sweep.Result) []sweepMetric {
	ms := []sweepMetric{
		{"cv", "sweep-cv.svg", "spread of the keys per node (cv) at the start (step 0)", 0, false},
		{"worst_deviation", "sweep-worst-deviation.svg", "worst node's distance from its fair share at the start (step 0)", 0, true},
	}
	if st.Steps() > 1 {
		ms = append(ms, sweepMetric{"moved_fraction", "sweep-moved.svg", "share of the keys moved by step 1", 1, true})
	}
	return ms
}

// SweepFigures renders one chart per swept metric (see sweepMetrics):
// the metric against the swept parameter, per rule the mean over the
// seeds with its min–max band, and the theory curves of st.Curves on
// top. It returns nil when st has no sweep.
func SweepFigures(st *sweep.Result) []Figure {
	if st == nil || st.Plan.Param == "" || len(st.Rules) == 0 {
		return nil
	}
	var figs []Figure
	for _, m := range sweepMetrics(st) {
		figs = append(figs, sweepFigure(st, m))
	}
	return figs
}

// SweepFigureStep returns the step a sweep figure's metric is taken at,
// by file name, and false for other names.
func SweepFigureStep(name string) (metric string, step int, ok bool) {
	switch name {
	case "sweep-cv.svg":
		return "cv", 0, true
	case "sweep-worst-deviation.svg":
		return "worst_deviation", 0, true
	case "sweep-moved.svg":
		return "moved_fraction", 1, true
	}
	return "", 0, false
}

// xAxis maps sweep values to pixels, logarithmically or linearly.
type xAxis struct {
	lo, hi  float64
	left, w float64
	log     bool
	values  []float64
}

func (a xAxis) x(v float64) float64 {
	f := func(t float64) float64 { return t }
	if a.log {
		f = math.Log
	}
	if a.hi == a.lo {
		return a.left + a.w/2
	}
	return a.left + (f(v)-f(a.lo))/(f(a.hi)-f(a.lo))*a.w
}

// yLog maps values onto pixels on a log scale when the data span more
// than a decade, else on niceScale's linear one.
type yMap struct {
	lin      scale
	log      bool
	lo, hi   float64 // log: powers of ten around the data
	top, bot float64
}

func (m yMap) y(v float64) float64 {
	if !m.log {
		return m.lin.y(v)
	}
	v = max(v, m.lo)
	return m.bot - (m.bot-m.top)*(math.Log10(v)-math.Log10(m.lo))/(math.Log10(m.hi)-math.Log10(m.lo))
}

func newYMap(lo, hi, top, bot float64) yMap {
	if lo > 0 && hi/lo > 12 {
		l := math.Pow(10, math.Floor(math.Log10(lo)))
		for _, f := range []float64{5, 2} {
			if l*f <= lo {
				l *= f
				break
			}
		}
		h := math.Pow(10, math.Ceil(math.Log10(hi)))
		for _, f := range []float64{0.2, 0.5} {
			if h*f >= hi {
				h *= f
				break
			}
		}
		return yMap{log: true, lo: l, hi: h, top: top, bot: bot}
	}
	return yMap{lin: niceScale(hi, 5, false, bot, top), top: top, bot: bot}
}

// ticks returns the y ticks: 1, 2, 5 × 10^k on a log scale.
func (m yMap) ticks() []float64 {
	if !m.log {
		return m.lin.ticks()
	}
	var t []float64
	for p := math.Floor(math.Log10(m.lo)); p <= math.Ceil(math.Log10(m.hi)); p++ {
		for _, f := range []float64{1, 2, 5} {
			v := f * math.Pow(10, p)
			if v >= m.lo*(1-1e-9) && v <= m.hi*(1+1e-9) {
				t = append(t, v)
			}
		}
	}
	return t
}

func (m yMap) label(v float64, percent bool) string {
	if !m.log {
		return tickLabel(v, m.lin.step, percent)
	}
	if percent {
		v *= 100
	}
	dec := max(0, -int(math.Floor(math.Log10(v)+1e-9)))
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if percent {
		s += "%"
	}
	return s
}

func sweepFigure(st *sweep.Result, m sweepMetric) Figure {
	pl := st.Plan
	param := sweep.ParamText(pl.Param)
	title := fmt.Sprintf("%s against %s", capitalize(m.what), param)
	curves := st.Curves(m.name)
	caption := sweepCaption(st, m, curves)
	sts := ruleStyles(st.Rules)
	items := sweepLegend(st, sts, curves)
	hd := headingOf(st.Base.Title, capitalize(m.what)+" against "+param, figW)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 24
	const plotH = 230.0
	h := top + plotH + 48
	c := newCanvas(figW, h, "rr-"+idPart(st.Base.Name)+"-"+idPart(trimExt(m.file)), title, caption)
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
	lo, hi := sweepRange(st, m, curves)
	ym := newYMap(lo*0.85, hi, top, top+plotH)
	var ends [][2]string
	for r := range st.Rules {
		ends = append(ends, [2]string{st.Rules[r].Label, valueText(st.Band(m.name, len(pl.Values)-1, m.step, r).Mean, m.percent)})
	}
	for _, cv := range curves {
		last := math.NaN()
		for _, v := range cv.Y {
			if !math.IsNaN(v) {
				last = v
			}
		}
		name, value := curveLabel(cv, last, m.percent)
		ends = append(ends, [2]string{name, value})
	}
	right := plotRight(ends...)
	sweepYAxis(c, ym, m, right)
	ax := xAxis{lo: pl.Values[0], hi: pl.Values[len(pl.Values)-1], left: plotL + 14, w: right - plotL - 28, log: pl.LogScale(), values: pl.Values}
	sweepXAxis(c, ax, ym.bot, param, right)
	var labels []endLabel
	for r := range st.Rules {
		labels = append(labels, sweepRule(c, st, sts[r], m, r, ax, ym))
	}
	for _, cv := range curves {
		if l, ok := theoryLine(c, cv, ax, ym, m.percent); ok {
			labels = append(labels, l)
		}
	}
	c.endLabels(labels, right+8, ym.top, ym.bot, figW-right-12)
	return c.figure(Figure{Name: m.file, Kind: "sweep", Step: -1, Title: title, Caption: caption})
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sweepRange returns the smallest positive and the largest value to plot.
func sweepRange(st *sweep.Result, m sweepMetric, curves []sweep.Curve) (lo, hi float64) {
	lo = math.Inf(1)
	note := func(v float64) {
		if math.IsNaN(v) {
			return
		}
		hi = max(hi, v)
		if v > 0 {
			lo = min(lo, v)
		}
	}
	for i := range st.Plan.Values {
		for r := range st.Rules {
			b := st.Band(m.name, i, m.step, r)
			note(b.Min)
			note(b.Max)
		}
	}
	for _, cv := range curves {
		for _, v := range cv.Y {
			note(v)
		}
	}
	if math.IsInf(lo, 1) {
		lo = 0
	}
	return lo, hi
}

func sweepYAxis(c *canvas, ym yMap, m sweepMetric, right float64) {
	for _, v := range ym.ticks() {
		y := ym.y(v)
		c.line(plotL, y, right, y, cls("grid"), attr("stroke-width", "1"))
		c.text(plotL-5, y+3.5, ym.label(v, m.percent), cls("muted"), attr("text-anchor", "end"), attr("font-size", "10"))
	}
	c.line(plotL, ym.bot, right, ym.bot, cls("axis"), attr("stroke-width", "1"))
	unit := m.name
	if ym.log {
		unit += " (log scale)"
	}
	c.text(plotL-5, ym.top-10, unit, cls("muted"), attr("font-size", "10"), attr("text-anchor", "start"))
}

func sweepXAxis(c *canvas, ax xAxis, y float64, param string, right float64) {
	lastX := math.Inf(-1)
	for k, v := range ax.values {
		x := ax.x(v)
		t := sweep.ValueText(v)
		w := textW(t, 10)
		c.line(x, y, x, y+4, cls("axis"), attr("stroke-width", "1"))
		if x-w/2 < lastX+6 && k != len(ax.values)-1 {
			continue
		}
		c.text(x, y+15, t, cls("fg"), attr("text-anchor", "middle"), attr("font-size", "10"))
		lastX = x + w/2
	}
	scaleText := "linear scale"
	if ax.log {
		scaleText = "log scale"
	}
	c.text((plotL+right)/2, y+33, param+" ("+scaleText+")", cls("muted"), attr("text-anchor", "middle"), attr("font-size", "10.5"))
}

// sweepRule draws rule r's band and mean line and returns its end label.
func sweepRule(c *canvas, st *sweep.Result, rs ruleStyle, m sweepMetric, r int, ax xAxis, ym yMap) endLabel {
	col := rs.color
	n := len(ax.values)
	means, mins, maxs := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		b := st.Band(m.name, i, m.step, r)
		means[i], mins[i], maxs[i] = b.Mean, b.Min, b.Max
	}
	c.group(attr("id", c.ref("rule-"+strconv.Itoa(r)+"-"+idPart(st.Rules[r].Label))))
	if st.Plan.SeedCount() > 1 {
		var b strings.Builder
		for i := range n {
			b.WriteString(pathCmd(i == 0, ax.x(ax.values[i]), ym.y(maxs[i])))
		}
		for i := n - 1; i >= 0; i-- {
			b.WriteString(pathCmd(false, ax.x(ax.values[i]), ym.y(mins[i])))
		}
		b.WriteString("Z")
		c.path(b.String(), attr("fill", col), attr("fill-opacity", ".22"), attr("stroke", "none"))
	}
	var line strings.Builder
	var pts [][2]float64
	for i := range n {
		x, y := ax.x(ax.values[i]), ym.y(means[i])
		line.WriteString(pathCmd(i == 0, x, y))
		pts = append(pts, [2]float64{x, y})
	}
	c.ruleLine(rs, line.String(), 2.2)
	c.marks(rs, pts, 3)
	c.end()
	return endLabel{y: ym.y(means[n-1]), name: st.Rules[r].Label, value: valueText(means[n-1], m.percent), swatch: markSwatch(rs)}
}

func pathCmd(first bool, x, y float64) string {
	if first {
		return "M" + num1(x) + " " + num1(y)
	}
	return "L" + num1(x) + " " + num1(y)
}

func valueText(v float64, percent bool) string {
	if percent {
		return pct(v)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// theoryLine draws a theory curve, broken where it does not apply.
func theoryLine(c *canvas, cv sweep.Curve, ax xAxis, ym yMap, percent bool) (endLabel, bool) {
	var b strings.Builder
	first, last := true, math.NaN()
	for i, v := range cv.Y {
		if math.IsNaN(v) {
			first = true
			continue
		}
		b.WriteString(pathCmd(first, ax.x(ax.values[i]), ym.y(v)))
		first, last = false, v
	}
	if b.Len() == 0 {
		return endLabel{}, false
	}
	style := theoryStyle
	if cv.Noise {
		style = noiseStyle
	}
	name, value := curveLabel(cv, last, percent)
	c.path(b.String(), style...)
	return endLabel{y: ym.y(last), name: name, value: value, swatch: strokeSwatch(style...)}, true
}

// curveLabel is a theory curve's end label, for its last value.
func curveLabel(cv sweep.Curve, last float64, percent bool) (name, value string) {
	switch {
	case cv.Noise:
		return "noise floor", valueText(last, percent)
	case len(cv.Rules) > 0:
		return theoryShort(cv), ""
	}
	return "theory", ""
}

// theoryShort names a theory curve in an end label.
func theoryShort(cv sweep.Curve) string {
	switch cv.Name {
	case sweep.OptimumCurve:
		return "optimum"
	case sweep.ModuloCurve:
		return "n/(n+1)"
	}
	return strings.Join(cv.Rules, ", ") + " theory"
}

// The theory and noise floor lines of sweeps.
var (
	theoryStyle = []string{cls("ink"), attr("fill", "none"), attr("stroke-width", "1.6"), attr("stroke-dasharray", "6 3")}
	noiseStyle  = []string{cls("noise"), attr("fill", "none"), attr("stroke-width", "1.8"), attr("stroke-dasharray", "2 3")}
)

func sweepLegend(st *sweep.Result, sts []ruleStyle, curves []sweep.Curve) []legendItem {
	var items []legendItem
	banded := st.Plan.SeedCount() > 1
	for r := range st.Rules {
		rs := sts[r]
		items = append(items, legendItem{text: st.Rules[r].Label, w: lineSwatchW, draw: func(c *canvas, x, y float64) {
			if banded {
				c.rect(x, y-9, lineSwatchW, 10, attr("fill", rs.color), attr("fill-opacity", ".22"))
			}
			c.lineSwatch(rs, x, y-4, lineSwatchW)
		}})
	}
	for _, cv := range curves {
		text := "theory: " + cv.Name + " " + cv.Formula
		switch cv.Name {
		case sweep.OptimumCurve:
			text = cv.Name + " " + cv.Formula
		case sweep.ModuloCurve:
			text = "theory for modulo: n/(n+1)"
		}
		style := theoryStyle
		if cv.Noise {
			text = "noise floor " + cv.Formula + ": random placement's cv"
			style = noiseStyle
		}
		items = append(items, legendItem{text: text, w: lineSwatchW, draw: func(c *canvas, x, y float64) {
			c.line(x, y-4, x+lineSwatchW, y-4, style...)
		}})
	}
	return items
}

func sweepCaption(st *sweep.Result, m sweepMetric, curves []sweep.Curve) string {
	var b strings.Builder
	pl := st.Plan
	fmt.Fprintf(&b, "The scenario was replayed at each of %d values of %s (x axis", len(pl.Values), sweep.ParamText(pl.Param))
	if pl.LogScale() {
		b.WriteString(", logarithmic: each step right multiplies it")
	}
	b.WriteString("). ")
	if n := pl.SeedCount(); n > 1 {
		first := st.Base.Seed
		fmt.Fprintf(&b, "Each rule's line is the mean over %d seeds (%d to %d, each with its own keys and, past the first, renamed nodes, so a new ring layout); the shaded band runs from the lowest to the highest seed, so a band that is wide means luck matters. ",
			n, first, sweep.Seed(first, n-1))
	} else {
		b.WriteString("Each rule's line is the measured value (one seed). ")
	}
	var ringLike []string
	for _, cv := range curves {
		if strings.HasSuffix(cv.Name, "with key noise") {
			ringLike = append(ringLike, cv.Rules...)
		}
	}
	if len(ringLike) > 0 {
		ketama := fixedPoints(st.Rules)
		fmt.Fprintf(&b, "The dashed lines are the theory for %s: √((n−1)/(n·v+1)) for n nodes with v points each%s, combined with the key noise as √(theory² + noise²); where a band covers its line the rule behaves as its theory says, and where the line flattens onto the dotted one more points per node buy nothing measurable. ", strings.Join(ringLike, " and "), ketama)
	}
	for _, cv := range curves {
		switch {
		case cv.Noise:
			b.WriteString("The dotted grey line is the noise floor √((n−1)/K): the cv that even a perfectly random, even placement shows with K keys, the lowest a rule can measure. ")
		case cv.Name == sweep.OptimumCurve:
			b.WriteString("The dashed line marked optimum is 1/(n+1), the classic optimum of adding a node: the new node's fair share when it joins n equal nodes, what a rule that stays perfectly even and moves no key it need not would move. It is not a floor: a rule that gives the new node less than its share moves less. ")
		case cv.Name == sweep.ModuloCurve:
			b.WriteString("The dashed line marked modulo theory is n/(n+1), what hash mod n moves when n grows by one. ")
		}
	}
	if m.name == "worst_deviation" {
		b.WriteString("The worst deviation is the most over- or under-loaded node's distance from its fair share: what capacity planning has to allow for.")
	}
	return strings.TrimSpace(b.String())
}

// fixedPoints says which of the rules fix their own points per node, for
// the theory's caption: " (ketama has v = 160)", or "".
func fixedPoints(rules []placer.RuleSpec) string {
	var parts []string
	for _, r := range rules {
		if k := registry.KindOf(r.Kind); k.FixedPoints != 0 && k.Theory == rulekind.RingTheory {
			p := fmt.Sprintf("%s has v = %d", r.Label, k.FixedPoints)
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}
