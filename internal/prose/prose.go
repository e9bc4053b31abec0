// Package prose checks and cleans the Markdown that a scenario's about:
// holds, so that no scenario within the limits can make a build slow or
// put markup of its own into an output.
//
// Check runs at parse time: it refuses Markdown nested deeper than a
// limit, or with more emphasis markers in a paragraph than a limit, which
// is what makes CommonMark parsers slow (goldmark needs quadratic time on
// long runs of unclosed "[a](", deeply nested block quotes, or emphasis
// closers that cannot pair up), with the position of the first offence. Safe runs when the
// report is written: it parses the Markdown and writes it out again from
// its syntax tree, every piece of text escaped, so that report.md carries
// the same document with nothing a Markdown pipeline could take for raw
// HTML or a dangerous link, and so that the page, which renders report.md,
// gets the same.
package prose

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/text"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	gmtext "github.com/yuin/goldmark/text"
)

// md parses Markdown as the site renders it: CommonMark with GFM tables
// and strikethrough.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// Problem is why Check refuses a text, at a 1-based line and column
// (counted in characters) of the text.
type Problem struct {
	Line, Col int
	Msg       string
}

// Limits bound what Check accepts.
type Limits struct {
	// Depth is the most levels of nesting: a level is a block quote or
	// list item that contains the text (counted on each line from its
	// markers, then in the parsed document), an emphasis, strong
	// emphasis, strikethrough, link or image around it, or an open "["
	// or link destination "](" still unclosed in its paragraph.
	Depth int
	// Runs is the most runs of "*", "_" or "~" that could open or close
	// emphasis or strikethrough in one paragraph (a run between spaces
	// cannot): goldmark matches them in time quadratic in their number
	// when they cannot pair up.
	Runs int
}

// Check returns the first place where src goes past lim, or nil. It takes
// time linear in len(src) for fixed limits: a scan of the lines comes
// first and refuses what would make the parser slow before the parser
// runs; the parsed document then gives the nesting that only it shows
// (lists nested by indentation, emphasis).
func Check(src string, lim Limits) *Problem {
	maxDepth := lim.Depth
	if p := scan(src, lim); p != nil {
		return p
	}
	source := []byte(src)
	doc := md.Parser().Parse(gmtext.NewReader(source))
	var found *Problem
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		for c := n.FirstChild(); c != nil && found == nil; c = c.NextSibling() {
			d := depth
			if nests(c) {
				d++
			}
			if d > maxDepth {
				line, col := position(source, offset(c))
				found = &Problem{line, col, fmt.Sprintf("%s nested %d deep; at most %d levels are allowed, so write it flatter", describe(c), d, maxDepth)}
				return
			}
			walk(c, d)
		}
	}
	walk(doc, 0)
	return found
}

// nests reports a node that counts as a level of nesting.
func nests(n ast.Node) bool {
	switch n.(type) {
	case *ast.Blockquote, *ast.ListItem, *ast.Emphasis, *ast.Link, *ast.Image, *extast.Strikethrough:
		return true
	}
	return false
}

// describe names a nesting node for messages.
func describe(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Blockquote:
		return "a block quote"
	case *ast.ListItem:
		return "a list item"
	case *ast.Emphasis:
		if n.Level == 2 {
			return "strong emphasis"
		}
		return "emphasis"
	case *ast.Link:
		return "a link"
	case *ast.Image:
		return "an image"
	}
	return "strikethrough"
}

// offset is the byte offset in the source where n, or failing that its
// first descendant or its parent, starts; -1 when none says.
func offset(n ast.Node) int {
	for m := n; m != nil; m = m.Parent() {
		if o := firstOffset(m); o >= 0 {
			return o
		}
	}
	return -1
}

func firstOffset(n ast.Node) int {
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Start
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if o := firstOffset(c); o >= 0 {
			return o
		}
	}
	return -1
}

// position turns a byte offset into a 1-based line and column.
func position(src []byte, off int) (int, int) {
	if off < 0 || off > len(src) {
		return 1, 1
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, 1 + len([]rune(string(src[start:off])))
}

// scan is Check's first pass over the lines of src: the container
// markers (">", "-", "1.") that open each line, and the "[" and "](" left
// open in each paragraph. Fenced code is skipped.
func scan(src string, lim Limits) *Problem {
	maxDepth := lim.Depth
	var fence string // the open code fence, or ""
	open := 0        // unclosed "[" and "](" in the current paragraph
	runs := 0        // runs of "*", "_" and "~" in it
	for lineNo, line := range strings.Split(src, "\n") {
		line = strings.TrimSuffix(line, "\r")
		rest, markers, at := containers(line, maxDepth)
		if markers > maxDepth {
			return &Problem{lineNo + 1, col(line, at), fmt.Sprintf("a block quote or list item nested %d deep; at most %d levels are allowed, so write it flatter", markers, maxDepth)}
		}
		content := strings.TrimLeft(rest, " \t")
		if fence != "" {
			if run := fenceRun(content); run != "" && run[0] == fence[0] && len(run) >= len(fence) && strings.TrimSpace(content[len(run):]) == "" {
				fence = ""
			}
			continue
		}
		if run := fenceRun(content); run != "" && !(run[0] == '`' && strings.Contains(content[len(run):], "`")) {
			fence, open, runs = run, 0, 0
			continue
		}
		if strings.TrimSpace(content) == "" || markers > 0 || strings.HasPrefix(content, "#") {
			open, runs = 0, 0 // a new block
		}
		base := len(line) - len(content)
		for i := 0; i < len(content); i++ {
			switch c := content[i]; c {
			case '\\':
				i++
			case '*', '_', '~':
				j := i
				for j+1 < len(content) && content[j+1] == c {
					j++
				}
				if !(space(content, i-1) && space(content, j+1)) {
					runs++
				}
				if runs > lim.Runs {
					return &Problem{lineNo + 1, col(line, base+i), fmt.Sprintf("%s runs of \"*\", \"_\" or \"~\" in one paragraph; at most %s are allowed, so split the paragraph", text.Count(runs), text.Count(lim.Runs))}
				}
				i = j
			case '[':
				open++
			case ']':
				if open > 0 && i+1 < len(content) && content[i+1] == '(' {
					i++ // "[" closed, "](" opened: the level stays
				} else if open > 0 {
					open--
				}
			case ')':
				if open > 0 {
					open--
				}
			}
			if open > maxDepth {
				return &Problem{lineNo + 1, col(line, base+i), fmt.Sprintf("brackets nested %d deep (\"[\" or \"](\" still open); at most %d levels are allowed, so write it flatter", open, maxDepth)}
			}
		}
	}
	return nil
}

// space reports whether s[i] is white space or outside s.
func space(s string, i int) bool {
	return i < 0 || i >= len(s) || s[i] == ' ' || s[i] == '\t'
}

// containers strips the block quote and list markers that open line and
// returns what follows, how many there were, and the byte offset of the
// last one; it stops at the first marker past limit.
func containers(line string, limit int) (rest string, n, at int) {
	rest = line
	for {
		t := strings.TrimLeft(rest, " \t")
		if t == "" {
			return rest, n, at
		}
		off := len(line) - len(t)
		w := 0
		switch c := t[0]; {
		case c == '>':
			w = 1
		case c == '-' || c == '+' || c == '*':
			if len(t) == 1 || t[1] == ' ' || t[1] == '\t' {
				if thematicBreak(t) {
					return rest, n, at
				}
				w = 1
			}
		case c >= '0' && c <= '9':
			d := 0
			for d < len(t) && d < 10 && t[d] >= '0' && t[d] <= '9' {
				d++
			}
			if d <= 9 && d < len(t) && (t[d] == '.' || t[d] == ')') && (d+1 == len(t) || t[d+1] == ' ' || t[d+1] == '\t') {
				w = d + 1
			}
		}
		if w == 0 {
			return rest, n, at
		}
		n++
		at = off
		if n > limit {
			return t[w:], n, at // enough to refuse the line
		}
		rest = t[w:]
	}
}

// thematicBreak reports a line of three or more "-", "*" or "_" (one
// kind) and spaces, which is a rule, not list items.
func thematicBreak(t string) bool {
	c, count := t[0], 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			count++
		case ' ', '\t':
		default:
			return false
		}
	}
	return count >= 3
}

// fenceRun returns the run of three or more backticks or tildes that
// opens s, or "".
func fenceRun(s string) string {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	i := 0
	for i < len(s) && s[i] == s[0] {
		i++
	}
	if i < 3 {
		return ""
	}
	return s[:i]
}

// col is the 1-based column, in characters, of byte offset off of line.
func col(line string, off int) int {
	return 1 + len([]rune(line[:min(off, len(line))]))
}
