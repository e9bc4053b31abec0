package report

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// jsonWriter streams one indented JSON document to an io.Writer in the
// exact format of encoding/json's Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false): a member or element per line, two spaces per
// level, `"key": value`, empty containers as [] and {}, a newline after
// the document. It gathers writeChunk bytes at a time; the first write
// error sticks and is returned by end.
//
// A value at the top or after key is written directly; an element of an
// array is preceded by elem.
type jsonWriter struct {
	w     io.Writer
	buf   []byte
	err   error
	empty []bool // per open container: no member yet
}

func newJSONWriter(w io.Writer) *jsonWriter {
	return &jsonWriter{w: w, buf: make([]byte, 0, writeChunk+4096)}
}

// flush hands the gathered bytes to w once there are enough of them, or
// all of them when all is set.
func (e *jsonWriter) flush(all bool) {
	if len(e.buf) < writeChunk && !all {
		return
	}
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// end finishes the document with its newline and writes what is left.
func (e *jsonWriter) end() error {
	e.buf = append(e.buf, '\n')
	e.flush(true)
	return e.err
}

// elem starts an array element or an object member: a comma after the
// previous one, then a new line at the current depth.
func (e *jsonWriter) elem() {
	n := len(e.empty)
	if n == 0 {
		return
	}
	if !e.empty[n-1] {
		e.buf = append(e.buf, ',')
	}
	e.empty[n-1] = false
	e.newline()
}

func (e *jsonWriter) newline() {
	e.buf = append(e.buf, '\n')
	for range e.empty {
		e.buf = append(e.buf, ' ', ' ')
	}
}

// key starts an object member; its value follows.
func (e *jsonWriter) key(k string) {
	e.elem()
	e.buf = appendJSONString(e.buf, k)
	e.buf = append(e.buf, ':', ' ')
}

// keyQuoted is key with k already a JSON string, quotes included.
func (e *jsonWriter) keyQuoted(k []byte) {
	e.elem()
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, ':', ' ')
}

func (e *jsonWriter) openObject()  { e.open('{') }
func (e *jsonWriter) closeObject() { e.close('}') }
func (e *jsonWriter) openArray()   { e.open('[') }
func (e *jsonWriter) closeArray()  { e.close(']') }

func (e *jsonWriter) open(c byte) {
	e.buf = append(e.buf, c)
	e.empty = append(e.empty, true)
}

func (e *jsonWriter) close(c byte) {
	n := len(e.empty)
	wasEmpty := e.empty[n-1]
	e.empty = e.empty[:n-1]
	if !wasEmpty {
		e.newline()
	}
	e.buf = append(e.buf, c)
	e.flush(false)
}

func (e *jsonWriter) str(s string)     { e.buf = appendJSONString(e.buf, s) }
func (e *jsonWriter) quoted(s []byte)  { e.buf = append(e.buf, s...) }
func (e *jsonWriter) int(n int64)      { e.buf = strconv.AppendInt(e.buf, n, 10) }
func (e *jsonWriter) uint(n uint64)    { e.buf = strconv.AppendUint(e.buf, n, 10) }
func (e *jsonWriter) null()            { e.buf = append(e.buf, "null"...) }
func (e *jsonWriter) bool(b bool)      { e.buf = strconv.AppendBool(e.buf, b) }
func (e *jsonWriter) fixed6(x float64) { e.buf = appendFixed(e.buf, x) }
func (e *jsonWriter) kstr(k, s string) { e.key(k); e.str(s) }
func (e *jsonWriter) kint(k string, n int) {
	e.key(k)
	e.int(int64(n))
}
func (e *jsonWriter) kfixed6(k string, x float64) { e.key(k); e.fixed6(x) }

// strings writes a list of strings.
func (e *jsonWriter) strings(ss []string) {
	e.openArray()
	for _, s := range ss {
		e.elem()
		e.str(s)
	}
	e.closeArray()
}

// appendFixed appends x with FloatDecimals decimals as text.Fixed
// formats it (no minus sign on a value that rounds to zero), or null
// when x is not finite.
func appendFixed(dst []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(dst, "null"...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', FloatDecimals, 64)
	if dst[start] == '-' {
		for _, c := range dst[start+1:] {
			if c != '0' && c != '.' {
				return dst
			}
		}
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst
}

// appendJSONString appends s as a JSON string the way encoding/json
// writes it without HTML escaping: \" \\ \b \f \n \r \t, other control
// bytes as \u00XX, invalid UTF-8 as \ufffd, and U+2028 and U+2029
// escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
