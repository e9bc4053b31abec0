package prose

import (
	"bufio"
	"bytes"
	stdhtml "html"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MinHeading is the highest level a heading of Safe's output has: a
// report's title is its only level-1 heading and its sections are level 2,
// so a heading in the text starts at level 3 and cannot pose as a section
// (or take a section's anchor, such as "step-1", or its place in the
// page's table of contents).
const MinHeading = 3

// Safe returns src, Markdown, written out again from its syntax tree so
// that it renders as src does (in CommonMark with GFM tables and
// strikethrough) except that:
//
//   - raw HTML shows as text: inline HTML escaped, an HTML block as a
//     code block;
//   - a link or image whose destination has a scheme other than http,
//     https or mailto (javascript:, data:, vbscript:, file:, ...) becomes
//     its text;
//   - link reference definitions are resolved into the links that use
//     them and dropped;
//   - headings start at MinHeading.
//
// Every text is backslash-escaped and every construct closed, so the
// result holds nothing that any Markdown renderer, raw HTML allowed or
// not, could take for markup that src did not spell as Markdown, and
// nothing that reaches past its end into a document it is pasted in.
// Text that Check refuses with limits four times the parser's is returned
// as escaped plain paragraphs, so that Safe too takes linear time on any
// input.
func Safe(src string) string {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	if Check(src, fallback) != nil {
		return plain(src)
	}
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	w := &writer{src: source, alt: map[ast.Node]bool{}}
	return strings.TrimSpace(w.blocks(doc, false))
}

// fallback are the limits past which Safe writes plain text: four times
// the parser's (scenario.MaxMarkdownDepth and MaxMarkdownRuns), for
// callers of the Go API that never parsed the text.
var fallback = Limits{Depth: 64, Runs: 4000}

// plain is src as escaped text, one paragraph per run of non-blank lines.
func plain(src string) string {
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, escText(l, true, false))
			}
		}
		if len(lines) > 0 {
			paras = append(paras, strings.Join(lines, "\n"))
		}
	}
	return strings.Join(paras, "\n\n")
}

// writer writes a syntax tree back out as Markdown.
type writer struct {
	src []byte
	alt map[ast.Node]bool // lists written with the alternative markers
}

// blocks writes n's child blocks, separated by a blank line, or by a line
// break in a tight list item.
func (w *writer) blocks(n ast.Node, tight bool) string {
	sep := "\n\n"
	if tight {
		sep = "\n"
	}
	var out []string
	var prev ast.Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if s := w.block(c, prev); s != "" {
			out = append(out, s)
			prev = c
		}
	}
	return strings.Join(out, sep)
}

// block writes one block; prev is the block written before it in the
// same container, or nil.
func (w *writer) block(n, prev ast.Node) string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return w.inlines(n, ctxBlock)
	case *ast.Heading:
		level := min(max(n.Level, MinHeading), 6)
		return strings.Repeat("#", level) + " " + w.inlines(n, ctxLine)
	case *ast.ThematicBreak:
		return "***"
	case *ast.CodeBlock:
		return fenced(w.lines(n), "")
	case *ast.FencedCodeBlock:
		return fenced(w.lines(n), language(n.Language(w.src)))
	case *ast.HTMLBlock:
		body := w.lines(n)
		if n.HasClosure() {
			body += string(n.ClosureLine.Value(w.src))
		}
		return fenced(body, "html")
	case *ast.Blockquote:
		return prefixLines(w.blocks(n, false), "> ", "> ")
	case *ast.List:
		return w.list(n, prev)
	case *extast.Table:
		return w.table(n)
	case *ast.LinkReferenceDefinition:
		return "" // resolved into its links
	}
	// Anything else (no extension here makes one) is kept as its text.
	return escText(string(plainText(n, w.src)), true, false)
}

// list writes a list with "-" or "1." markers, or "*" and "1)" when the
// list before it in the same container is of the same kind, so that the
// two stay two lists.
func (w *writer) list(n *ast.List, prev ast.Node) string {
	ordered := n.IsOrdered()
	alt := false
	if p, ok := prev.(*ast.List); ok && p.IsOrdered() == ordered {
		alt = !w.alt[p]
	}
	if alt {
		w.alt[n] = true
	}
	var items []string
	num := n.Start
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "- "
		switch {
		case ordered && alt:
			marker = strconv.Itoa(num) + ") "
		case ordered:
			marker = strconv.Itoa(num) + ". "
		case alt:
			marker = "* "
		}
		num++
		body := w.blocks(c, n.IsTight)
		items = append(items, prefixLines(body, marker, strings.Repeat(" ", len(marker))))
	}
	if n.IsTight {
		return strings.Join(items, "\n")
	}
	return strings.Join(items, "\n\n")
}

// table writes a GFM table; line breaks in cells become spaces.
func (w *writer) table(t *extast.Table) string {
	var rows []string
	cols := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.inlines(c, ctxCell))
		}
		// goldmark pads a short row with empty cells of no alignment,
		// which written out would take their column's alignment.
		for i := len(cells) - 1; i >= 0 && i < len(t.Alignments) && cells[i] == ""; i-- {
			if c, ok := r.LastChild().(*extast.TableCell); ok && c.Alignment != t.Alignments[i] {
				r.RemoveChild(r, c)
				cells = cells[:i]
				continue
			}
			break
		}
		if _, head := r.(*extast.TableHeader); head {
			cols = len(cells)
		}
		rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
		if _, head := r.(*extast.TableHeader); head {
			delim := make([]string, cols)
			for i := range delim {
				delim[i] = "---"
				if i < len(t.Alignments) {
					switch t.Alignments[i] {
					case extast.AlignLeft:
						delim[i] = ":--"
					case extast.AlignRight:
						delim[i] = "--:"
					case extast.AlignCenter:
						delim[i] = ":-:"
					}
				}
			}
			rows = append(rows, "| "+strings.Join(delim, " | ")+" |")
		}
	}
	return strings.Join(rows, "\n")
}

// lines is the raw text of a code or HTML block, without its final line
// break.
func (w *writer) lines(n ast.Node) string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(w.src))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fenced writes code as a fenced block whose fence is longer than any
// run of backticks in it.
func fenced(code, lang string) string {
	fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	return fence + lang + "\n" + code + "\n" + fence
}

// language keeps a fenced block's language only when it is one plain
// word.
func language(l []byte) string {
	for _, c := range l {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("+-_.#", c) >= 0) {
			return ""
		}
	}
	return string(l)
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// prefixLines starts the first line of s with first and every other
// non-empty line with rest (an empty line gets rest without its trailing
// spaces, so that a block quote stays one quote).
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			p = strings.TrimRight(p, " ")
		}
		lines[i] = p + l
	}
	return strings.Join(lines, "\n")
}

// inline contexts: a paragraph (lines may break), a heading (one line),
// a table cell (one line, "|" escaped in code too).
const (
	ctxBlock = iota
	ctxLine
	ctxCell
)

// inlineWriter writes the inlines of one block.
type inlineWriter struct {
	w         *writer
	ctx       int
	b         strings.Builder
	pending   strings.Builder // text not yet escaped, so that escaping sees whole runs
	lineStart bool            // the pending text starts a line
	afterOpen bool            // the pending text follows an opening delimiter
}

// inlines writes n's inline children.
func (w *writer) inlines(n ast.Node, ctx int) string {
	iw := &inlineWriter{w: w, ctx: ctx, lineStart: ctx == ctxBlock}
	iw.children(n)
	iw.flush()
	return strings.TrimRight(iw.b.String(), " ")
}

func (iw *inlineWriter) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		iw.inline(c)
	}
}

// text queues plain text.
func (iw *inlineWriter) text(s string) { iw.pending.WriteString(s) }

// flush escapes and writes the queued text.
func (iw *inlineWriter) flush() {
	if iw.pending.Len() == 0 {
		return
	}
	s := iw.pending.String()
	iw.pending.Reset()
	if iw.lineStart {
		s = strings.TrimLeft(s, " \t")
	}
	lead := ""
	if iw.afterOpen && strings.HasPrefix(s, " ") {
		s, lead = s[1:], "&#32;"
	}
	iw.b.WriteString(lead + escText(s, iw.lineStart, iw.ctx == ctxLine))
	iw.lineStart, iw.afterOpen = false, false
}

// markup writes markup of Safe's own.
func (iw *inlineWriter) markup(s string) {
	iw.flush()
	iw.b.WriteString(s)
	iw.lineStart, iw.afterOpen = false, false
}

// open writes an opening delimiter; close a closing one. Text next to
// them must not start or end with a space, which would keep the
// delimiter from opening or closing (and could make "* a" a list item),
// so such a space is written as a character reference.
func (iw *inlineWriter) open(d string) {
	iw.markup(d)
	iw.afterOpen = true
}

func (iw *inlineWriter) close(d string) {
	if p := iw.pending.String(); strings.HasSuffix(p, " ") {
		iw.pending.Reset()
		iw.pending.WriteString(strings.TrimSuffix(p, " "))
		iw.flush()
		iw.b.WriteString("&#32;")
	}
	iw.markup(d)
}

// lineBreak ends a line: a soft break, or a hard one (a backslash at the
// end of the line); in a heading or a cell, a space.
func (iw *inlineWriter) lineBreak(hard bool) {
	if iw.ctx != ctxBlock {
		iw.text(" ")
		return
	}
	iw.flush()
	s := strings.TrimRight(iw.b.String(), " \t")
	iw.b.Reset()
	iw.b.WriteString(s)
	if hard {
		iw.b.WriteByte('\\')
	}
	iw.b.WriteByte('\n')
	iw.lineStart = true
}

func (iw *inlineWriter) inline(n ast.Node) {
	src := iw.w.src
	switch n := n.(type) {
	case *ast.Text:
		if n.IsRaw() {
			iw.text(string(n.Segment.Value(src)))
		} else {
			iw.text(unescape(n.Segment.Value(src)))
		}
		if n.HardLineBreak() || n.SoftLineBreak() {
			iw.lineBreak(n.HardLineBreak())
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			iw.text(string(n.Value))
		} else {
			iw.text(unescape(n.Value))
		}
	case *ast.CodeSpan:
		iw.markup(codeSpan(codeText(n, src), iw.ctx == ctxCell))
	case *ast.Emphasis:
		d := strings.Repeat("*", n.Level)
		iw.open(d)
		iw.children(n)
		iw.close(d)
	case *extast.Strikethrough:
		if _, nested := n.Parent().(*extast.Strikethrough); nested {
			iw.children(n) // struck twice shows as struck once; "~~~~" could open a fence
			return
		}
		iw.open("~~")
		iw.children(n)
		iw.close("~~")
	case *ast.Link:
		dest, ok := destination(n.Destination)
		if !ok {
			iw.children(n) // a dangerous link keeps its text
			return
		}
		iw.markup("[")
		iw.children(n)
		iw.markup("](" + dest + title(n.Title) + ")")
	case *ast.Image:
		dest, ok := destination(n.Destination)
		alt := string(plainText(n, src))
		if !ok {
			iw.text(alt)
			return
		}
		iw.markup("![")
		iw.text(alt)
		iw.markup("](" + dest + title(n.Title) + ")")
	case *ast.AutoLink:
		url, label := string(n.URL(src)), string(n.Label(src))
		if u, ok := autolink(url, n.AutoLinkType == ast.AutoLinkEmail); ok {
			iw.markup("<" + u + ">")
			return
		}
		iw.text("<" + label + ">")
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(src))
		}
		iw.text(strings.Join(strings.Fields(strings.ReplaceAll(b.String(), "\n", " ")), " "))
	default:
		iw.text(string(plainText(n, src)))
	}
}

// unescape is a text as it reads: backslash escapes, entities and
// character references resolved, as goldmark's HTML writer resolves them.
func unescape(raw []byte) string {
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	html.DefaultWriter.Write(bw, raw)
	_ = bw.Flush()
	return stdhtml.UnescapeString(buf.String())
}

// plainText is the text of n's descendants, as it reads.
func plainText(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			if c.IsRaw() {
				b.Write(c.Segment.Value(src))
			} else {
				b.WriteString(unescape(c.Segment.Value(src)))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			b.WriteString(codeText(c, src))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				b.Write(seg.Value(src))
			}
		case *ast.AutoLink:
			b.Write(c.Label(src))
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// codeText is a code span's text, line breaks as spaces.
func codeText(n *ast.CodeSpan, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		} else if s, ok := c.(*ast.String); ok {
			b.Write(s.Value)
		}
	}
	return strings.ReplaceAll(strings.ReplaceAll(b.String(), "\r", ""), "\n", " ")
}

// codeSpan writes s as a code span, fenced by more backticks than any run
// in it; in a table cell "|" is escaped, which GFM undoes inside code.
func codeSpan(s string, cell bool) string {
	if s == "" {
		return ""
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.Trim(s, " ") != "" && (s[0] == '`' || s[0] == ' ' || s[len(s)-1] == '`' || s[len(s)-1] == ' ') {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escText backslash-escapes every character of s, a run of text, that
// could start or end markup: "\\" "`" "*" "[" "]" "<" "|" "~" "$" (GitHub's
// math) everywhere; "_" unless it stands between two letters or digits,
// where it never marks emphasis; "&" before what could be an entity; and
// at the start of a line (lineStart), "#" and ">", and "-", "+" and "="
// and a number's "." or ")" unless a letter or digit follows, which could
// start a heading, a quote, a list item, a rule or a setext underline. In
// a heading (heading), "#" is escaped everywhere. Tabs and line breaks
// become spaces.
func escText(s string, lineStart, heading bool) string {
	var b strings.Builder
	word := func(i int) bool { return i >= 0 && i < len(s) && (isAlnum(s[i]) || s[i] >= 0x80) }
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t' || c == '\n' || c == '\r':
			b.WriteByte(' ')
			continue
		case strings.IndexByte("\\`*[]<|~$", c) >= 0:
			b.WriteByte('\\')
		case c == '_' && !(i > 0 && isAlnum(s[i-1]) && i+1 < len(s) && isAlnum(s[i+1])):
			b.WriteByte('\\')
		case c == '&' && i+1 < len(s) && (isAlnum(s[i+1]) || s[i+1] == '#'):
			b.WriteByte('\\')
		case c == '#' && (heading || lineStart && i == 0):
			b.WriteByte('\\')
		case lineStart && i == 0 && c == '>':
			b.WriteByte('\\')
		case lineStart && i == 0 && (c == '-' || c == '+' || c == '=') && !word(i+1):
			b.WriteByte('\\')
		case lineStart && (c == '.' || c == ')') && i > 0 && i <= 9 && isDigits(s[:i]) && !word(i+1):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// safeSchemes are the URL schemes a link or image may use; a relative
// URL (no scheme) is safe too.
var safeSchemes = []string{"http", "https", "mailto"}

// destination returns a link's destination as Safe writes it — resolved
// as goldmark resolves it, percent-encoded outside a plain set of
// characters, "&" escaped — and whether it is safe to link to.
func destination(raw []byte) (string, bool) {
	resolved := util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(raw)))
	u := string(util.URLEscape(raw, true))
	if !safeURL(string(resolved)) || !safeURL(u) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case isAlnum(c) || strings.IndexByte("-._~:/?#@!$'*+,;=%", c) >= 0:
			b.WriteByte(c)
		case c == '&':
			b.WriteString(`\&`)
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
		}
	}
	return b.String(), true
}

// safeURL reports whether u has no scheme or a safe one: whatever comes
// before a colon that precedes every "/", "?" and "#" counts as a scheme,
// valid or not. Like a browser, it ignores leading spaces and control
// characters, and tabs and line breaks anywhere, before deciding.
func safeURL(u string) bool {
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, u)
	u = strings.TrimLeft(u, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	colon := strings.IndexByte(u, ':')
	if colon < 0 || colon > strings.IndexAny(u+"/", "/?#") {
		return true // no scheme: a colon, if any, is in a path, query or fragment
	}
	scheme := u[:colon] // not necessarily valid as one: then refused too
	for _, s := range safeSchemes {
		if strings.EqualFold(scheme, s) {
			return true
		}
	}
	return false
}

// title is a link title as Safe writes it: ` "..."` with every ASCII
// punctuation character escaped, or "".
func title(t []byte) string {
	if len(t) == 0 {
		return ""
	}
	s := strings.Join(strings.Fields(unescape(t)), " ")
	var b strings.Builder
	b.WriteString(` "`)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x80 && (c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~') {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// autolink returns an autolink's URL as Safe writes it between < and >,
// and whether it may be one: a safe scheme (or an e-mail address) and
// only characters that keep it one autolink.
func autolink(u string, email bool) (string, bool) {
	if u == "" || (!email && (!safeURL(u) || !strings.Contains(u, ":"))) {
		return "", false
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c == '<' || c == '>' || c == '\\' || c == '`' || c >= 0x7f {
			return "", false
		}
	}
	return u, true
}
