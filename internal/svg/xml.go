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
	buf bytes.Buffer
	s   *fsvg.SVG
	id  string // prefix of every id, unique per figure
}

const fontStack = `system-ui, -apple-system, "Segoe UI", Helvetica, Arial, "Liberation Sans", sans-serif`

// newCanvas starts a w×h document with its title, description and theme.
func newCanvas(w, h float64, idPrefix, title, desc string) *canvas {
	c := &canvas{id: idPrefix}
	c.s = fsvg.New(&c.buf)
	c.s.Decimals = 1
	c.s.Start(round1(w), round1(h),
		attr("viewBox", "0 0 "+num(w)+" "+num(h)),
		attr("role", "img"),
		attr("font-family", fontStack),
		attr("font-size", "11"))
	c.s.Title(title)
	c.s.Desc(desc)
	c.s.Style("text/css", themeCSS)
	return c
}

// bytes ends the document and returns it without svgo's XML prolog.
func (c *canvas) bytes() []byte {
	c.s.End()
	b := c.buf.Bytes()
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	return bytes.Clone(b)
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
// generous so that truncated labels never collide.
const charW = 0.6

// fit truncates s with "…" so that it is at most width wide at size px.
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

// Numbers read the same in figures and in the report (internal/text).
var (
	commas = text.Count
	pct    = text.Pct
)
