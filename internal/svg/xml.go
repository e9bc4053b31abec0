package svg

import (
	"bytes"
	"encoding/xml"
	"math"
	"strconv"
	"strings"

	fsvg "github.com/ajstarks/svgo/float"

	"github.com/ringreport/ringreport/internal/text"
)

// canvas wraps svgo: every coordinate goes through num (fixed decimals),
// every attribute value through attr (escaped), and the document is
// rendered into a buffer so that no write can fail half way.
type canvas struct {
	buf   bytes.Buffer
	s     *fsvg.SVG
	id    string // the root element's id and prefix of every other id, unique per figure
	w, h  float64
	style [2]int // where the <style> element starts and ends in buf
}

const fontStack = `system-ui, -apple-system, "Segoe UI", Helvetica, Arial, "Liberation Sans", sans-serif`

// newCanvas starts a w×h document with its title, description and the
// page's style sheet (see Figure.File for the files' ones). The size is
// rounded up to whole units: an <img> of a figure a fraction of a pixel
// tall blends its every edge row with the page around it, and its size
// and viewBox would differ in the last decimal.
func newCanvas(w, h float64, idPrefix, title, desc string) *canvas {
	w, h = math.Ceil(w-1e-9), math.Ceil(h-1e-9)
	c := &canvas{id: idPrefix, w: w, h: h}
	c.s = fsvg.New(&c.buf)
	c.s.Decimals = 1
	c.s.Start(round1(w), round1(h),
		attr("viewBox", "0 0 "+num(w)+" "+num(h)),
		attr("id", idPrefix),
		attr("role", "img"),
		attr("font-family", fontStack),
		attr("font-size", "11"))
	c.s.Title(title)
	c.s.Desc(desc)
	c.style[0] = c.buf.Len()
	c.s.Style("text/css", styleSheet(idPrefix, Auto, false))
	c.style[1] = c.buf.Len()
	return c
}

// figure ends the document and returns f with it, without svgo's XML
// prolog.
func (c *canvas) figure(f Figure) Figure {
	c.s.End()
	b := c.buf.Bytes()
	i := max(bytes.Index(b, []byte("<svg")), 0)
	f.SVG = bytes.Clone(b[i:])
	f.id, f.w, f.h = c.id, c.w, c.h
	f.style = [2]int{c.style[0] - i, c.style[1] - i}
	return f
}

// attr returns name="value" with value escaped for an XML attribute.
func attr(name, value string) string {
	if plainAttr(value) {
		return name + `="` + value + `"`
	}
	var sb strings.Builder
	sb.WriteString(name)
	sb.WriteString(`="`)
	xml.EscapeText(&sb, []byte(value))
	sb.WriteByte('"')
	return sb.String()
}

// plainAttr reports whether xml.EscapeText would leave s as it is:
// printable ASCII without quotes, ampersands or angle brackets (numbers,
// dash arrays, colors, most names).
func plainAttr(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\'', c == '&', c == '<', c == '>':
			return false
		}
	}
	return true
}

// cls is the class attribute for one of the theme's classes.
func cls(names ...string) string {
	for i, n := range names {
		names[i] = "rr-" + n
	}
	return attr("class", strings.Join(names, " "))
}

func (c *canvas) text(x, y float64, s string, attrs ...string) {
	c.s.Text(round1(x), round1(y), s, attrs...)
}

func (c *canvas) rect(x, y, w, h float64, attrs ...string) {
	c.s.Rect(round1(x), round1(y), round1(w), round1(h), attrs...)
}

func (c *canvas) line(x1, y1, x2, y2 float64, attrs ...string) {
	c.s.Line(round1(x1), round1(y1), round1(x2), round1(y2), attrs...)
}

func (c *canvas) path(d string, attrs ...string) { c.s.Path(d, attrs...) }

func (c *canvas) group(attrs ...string) { c.s.Group(attrs...) }

func (c *canvas) end() { c.s.Gend() }

// translate opens a group moved by (x, y).
func (c *canvas) translate(x, y float64, attrs ...string) {
	c.group(append([]string{attr("transform", "translate("+num(x)+" "+num(y)+")")}, attrs...)...)
}

// ref is an id of this figure and url is a reference to it.
func (c *canvas) ref(name string) string { return c.id + "-" + name }
func (c *canvas) url(name string) string { return "url(#" + c.ref(name) + ")" }

// round1 rounds to one decimal, without negative zero.
func round1(x float64) float64 {
	r := math.Round(x*10) / 10
	if r == 0 {
		return 0
	}
	return r
}

// num formats x with at most two decimals, trailing zeros dropped.
func num(x float64) string {
	var buf [24]byte
	return string(appendNum(buf[:0], x))
}

// num1 formats x with at most one decimal.
func num1(x float64) string {
	var buf [24]byte
	return string(appendNum1(buf[:0], x))
}

// maxFixed bounds the magnitudes that appendNum formats as integers of
// hundredths; beyond it (and for NaN and infinities) it uses strconv.
const maxFixed = 1e12

// appendNum appends num(x): x rounded to hundredths, printed as an
// integer and at most two decimals with trailing zeros dropped, and "0"
// for zero, without negative zero. It formats the integer of hundredths
// directly, which gives the digits FormatFloat(r, 'f', 2) would give for
// r = Round(x·100)/100 (exact while |x| < maxFixed), at a fraction of
// the cost: dense figures format tens of thousands of numbers.
func appendNum(b []byte, x float64) []byte {
	if !(math.Abs(x) < maxFixed) {
		return appendNumSlow(b, x)
	}
	return appendHundredths(b, int64(math.Round(x*100)))
}

// appendNum1 appends num1(x), x rounded to one decimal first.
func appendNum1(b []byte, x float64) []byte {
	if !(math.Abs(x) < maxFixed) {
		return appendNumSlow(b, round1(x))
	}
	return appendHundredths(b, 10*int64(math.Round(x*10)))
}

// appendHundredths appends c/100 with at most two decimals.
func appendHundredths(b []byte, c int64) []byte {
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	b = strconv.AppendInt(b, c/100, 10)
	d1, d2 := byte(c/10%10), byte(c%10)
	switch {
	case d2 != 0:
		b = append(b, '.', '0'+d1, '0'+d2)
	case d1 != 0:
		b = append(b, '.', '0'+d1)
	}
	return b
}

// appendNumSlow is appendNum through strconv, for huge or non-finite x.
func appendNumSlow(b []byte, x float64) []byte {
	r := math.Round(x*100) / 100
	if r == 0 {
		return append(b, '0')
	}
	s := strconv.FormatFloat(r, 'f', 2, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return append(b, s...)
}

// idPart turns a user string into something usable inside an id.
func idPart(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// charW is the assumed average advance of a character at font size 1;
// generous so that labels never collide.
const charW = 0.6

// fit truncates s with "…" so that it is at most width wide at size px.
// Of what a scenario names, only node names are shortened, and shortText
// gives them their full name as a tooltip; titles, rule labels and
// legends wrap instead (wrap). The figure's own fixed texts fit anyway.
func fit(s string, width, size float64) string {
	max := int(width / (charW * size))
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	if max < 1 {
		return ""
	}
	return string(r[:max-1]) + "…"
}

// textW estimates the width of s at size px.
func textW(s string, size float64) float64 { return float64(len([]rune(s))) * charW * size }

// wrap breaks s into lines at most width wide at size px: at spaces, and
// inside a word only where the word alone is wider than the line. It
// drops nothing but runs of white space, which become line breaks or
// single spaces.
func wrap(s string, width, size float64) []string {
	max := max(int(width/(charW*size)), 1)
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= max:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
		for r := []rune(line); len(r) > max; r = []rune(line) {
			lines = append(lines, string(r[:max]))
			line = string(r[max:])
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// fitLines returns the largest size from size down to least, in half
// pixels, at which s wraps into at most n lines, and its lines; at least
// it takes as many lines as it needs.
func fitLines(s string, width, size, least float64, n int) (float64, []string) {
	for ; size > least; size -= 0.5 {
		if lines := wrap(s, width, size); len(lines) <= n {
			return size, lines
		}
	}
	return least, wrap(s, width, least)
}

// heading is a figure's title block: the scenario's title in bold, then
// the subtitle, what the figure shows and at which step, each wrapped to
// the figure's width and shrunk a little to keep to two lines; nothing is
// ever cut. h is its height: the figure's content starts there.
type heading struct {
	title, sub   []string
	tSize, sSize float64
	h            float64
}

const (
	titleSize = 13.0
	subSize   = 11.5
)

func headingOf(title, sub string, width float64) heading {
	var hd heading
	hd.tSize, hd.title = fitLines(title, width-16, titleSize, 11, 2)
	hd.sSize, hd.sub = fitLines(sub, width-16, subSize, 10, 2)
	y := hd.baselines()
	hd.h = math.Ceil(y[len(y)-1] + 10)
	return hd
}

// baselines returns the y of every line, titles first.
func (hd heading) baselines() []float64 {
	var ys []float64
	y := 4 + hd.tSize
	for range hd.title {
		ys = append(ys, y)
		y += hd.tSize * 1.25
	}
	y += hd.sSize*1.35 - hd.tSize*1.25
	for range hd.sub {
		ys = append(ys, y)
		y += hd.sSize * 1.25
	}
	return ys
}

// heading draws hd at the top left.
func (c *canvas) heading(hd heading) {
	ys := hd.baselines()
	for j, l := range hd.title {
		c.text(8, ys[j], l, cls("fg", "b", "title"), attr("font-size", num(hd.tSize)))
	}
	for j, l := range hd.sub {
		c.text(8, ys[len(hd.title)+j], l, cls("fg", "sub"), attr("font-size", num(hd.sSize)))
	}
}

// shortText writes a label that may be shortened (a node name, or an
// operation on one), with the full text as its tooltip when it is.
func (c *canvas) shortText(x, y float64, short, full string, attrs ...string) {
	if short == full {
		c.text(x, y, short, attrs...)
		return
	}
	c.s.Textspan(round1(x), round1(y), short, attrs...)
	c.buf.WriteString("<title>")
	xml.EscapeText(&c.buf, []byte(full))
	c.buf.WriteString("</title>")
	c.s.TextEnd()
}

// Numbers read the same in figures and in the report (internal/text).
var (
	commas = text.Count
	pct    = text.Pct
)
