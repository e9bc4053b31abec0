package prose_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/prose"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// parseLimits are the limits the parser checks about: with.
var parseLimits = prose.Limits{Depth: scenario.MaxMarkdownDepth, Runs: scenario.MaxMarkdownRuns}

// repeat fills n bytes with unit repeated, after head and before tail.
func repeat(head, unit, tail string, n int) string {
	k := max(0, (n-len(head)-len(tail))/len(unit))
	return head + strings.Repeat(unit, k) + tail
}

// pathological are the inputs that make CommonMark parsers slow (the
// cmark and commonmark.js pathological suites, and the shapes of issue 18),
// each filled to n bytes.
func pathological(n int) map[string]string {
	half := n / 2
	cases := map[string]string{
		"nested strong emphasis":                 repeat("", "*a **a ", "", half) + "b" + repeat("", " a** a*", "", half),
		"emphasis closers without openers":       repeat("", "a_ ", "", n),
		"emphasis openers without closers":       repeat("", "_a ", "", n),
		"link closers without openers":           repeat("", "a]", "", n),
		"link openers without closers":           repeat("", "[a", "", n),
		"mismatched openers and closers":         repeat("", "*a_ ", "", n),
		"closers a multiple of 3":                repeat("a**b", "c* ", "", n),
		"link openers and emph closers":          repeat("", "[ a_", "", n),
		"[ (](":                                  repeat("", "[ (](", "", n),
		"![[]()":                                 repeat("", "![[]()", "", n),
		"hard link/emphasis":                     repeat("", "**x [a*b**c*](d)", "", n),
		"nested brackets":                        repeat("", "[", "", half-1) + "a" + repeat("", "]", "", half),
		"nested block quotes":                    repeat("", "> ", "a", n),
		"nested quotes without spaces":           repeat("", ">", "a", n),
		"unclosed links <":                       repeat("", "[a](<b", "", n),
		"unclosed links":                         repeat("", "[a](b", "", n),
		"unclosed links [a](":                    repeat("", "[a](", "", n),
		"unclosed titles":                        repeat("", "[a](b \"", "", n),
		"unclosed comments":                      repeat("</", "<!--", "", n),
		"unclosed tags":                          repeat("", "<a ", "", n),
		"deeply nested list markers":             repeat("", "- ", "x", half) + strings.Repeat("\n", half),
		"nested lists in a quote":                repeat("> ", "- ", "x\n", half) + strings.Repeat(">\n", half/2),
		"many references":                        repeat("", "[a]: b\n", "", half) + repeat("", "[a]", "", half),
		"many labels":                            repeat("", "[x] ", "", n),
		"NUL bytes":                              repeat("", "abc\x00de\x00", "", n),
		"stars":                                  repeat("", "*", "", n),
		"underscores":                            repeat("", "_", "", n),
		"tildes":                                 repeat("", "~", "", n),
		"angle brackets":                         repeat("", "<", "", n),
		"entities":                               repeat("", "&#", "", n),
		"backslashes":                            repeat("", "\\", "", n),
		"pipes":                                  repeat("", "|", "", n),
		"hard breaks":                            repeat("", "a  \n", "", n),
		"table rows":                             repeat("| a | b |\n|---|---|\n", "| x | y |\n", "", n),
		"table columns":                          repeat("|", "a|", "\n", half) + repeat("|", "-|", "\n", half),
		"lazy lines at the limit":                repeat(strings.Repeat("> ", scenario.MaxMarkdownDepth)+"a\n", "b\n", "", n),
		"list markers at the limit":              repeat("", strings.Repeat("- ", scenario.MaxMarkdownDepth)+"a\n", "", n),
		"emphasis at the limit":                  repeat("", strings.Repeat("*a ", scenario.MaxMarkdownDepth/2)+strings.Repeat("**b ", scenario.MaxMarkdownDepth/2)+"c"+strings.Repeat("** ", scenario.MaxMarkdownDepth/2)+strings.Repeat("* ", scenario.MaxMarkdownDepth/2)+"\n", "", n),
		"links at the limit":                     repeat("", strings.Repeat("[a](", scenario.MaxMarkdownDepth)+strings.Repeat(")", scenario.MaxMarkdownDepth)+" ", "", n),
		"brackets at the limit":                  repeat("", strings.Repeat("[", scenario.MaxMarkdownDepth)+strings.Repeat("]", scenario.MaxMarkdownDepth)+" ", "", n),
		"closers a multiple of 3, per paragraph": repeat("", "a**b"+strings.Repeat("c* ", scenario.MaxMarkdownRuns-1)+"\n\n", "", n),
		"emphasis runs at the limit":             repeat("", strings.Repeat("a*b ", scenario.MaxMarkdownRuns)+"\n\n", "", n),
		"figures":                                repeat("", "![x](step-0-rings.svg)\n\n", "", n),
	}
	backticks := strings.Builder{}
	for i := 1; backticks.Len()+i+1 <= n; i++ {
		backticks.WriteString("e" + strings.Repeat("`", i))
	}
	cases["backticks"] = backticks.String()
	nested := strings.Builder{}
	for i := 0; ; i++ {
		line := strings.Repeat("  ", i) + "* a\n"
		if nested.Len()+len(line) > n {
			break
		}
		nested.WriteString(line)
	}
	cases["deeply nested lists"] = nested.String()
	return cases
}

// TestPathologicalAtTheLimit: every pathological input, filled to the
// default about: limit, is refused or accepted by the parser's check and,
// when accepted, made safe and rendered as the site renders it, each in
// well under a second (the bound here, 1 s, leaves room for a slow CI
// runner; this machine takes at most 0.1 s).
func TestPathologicalAtTheLimit(t *testing.T) {
	n := int(scenario.DefaultLimits.AboutBytes)
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	for name, src := range pathological(n) {
		if len(src) > n {
			t.Fatalf("%s: %d bytes, over the limit of %d", name, len(src), n)
		}
		// The fastest of up to three runs: a shared machine's load slows a
		// run (1.26 s was seen at load 9), while a slow input is slow each
		// time. A run within the bound ends the loop.
		var p *prose.Problem
		checked, total := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		for run := 0; run < 3 && total > time.Second; run++ {
			start := time.Now()
			p = prose.Check(src, parseLimits)
			checked = min(checked, time.Since(start))
			if p == nil {
				doc := "# Title\n\n" + prose.Safe(src) + "\n\n## Setup\n"
				var buf bytes.Buffer
				if err := gm.Convert([]byte(doc), &buf); err != nil {
					t.Fatal(err)
				}
			}
			total = min(total, time.Since(start))
		}
		verdict := "refused"
		if p == nil {
			verdict = "accepted"
		}
		if total > time.Second {
			t.Errorf("%s (%d bytes): %s, %v to check and %v in all; want under 1 s", name, len(src), verdict, checked, total)
		}
		if testing.Verbose() {
			fmt.Printf("%-36s %6d bytes %-8s check %8v total %8v\n", name, len(src), verdict, checked.Round(time.Microsecond), total.Round(time.Microsecond))
		}
	}
}

// TestPathologicalRefused: the shapes that goldmark takes quadratic time
// on are refused by the check, not merely survived.
func TestPathologicalRefused(t *testing.T) {
	cases := pathological(int(scenario.DefaultLimits.AboutBytes))
	for _, name := range []string{"nested block quotes", "nested quotes without spaces", "unclosed links [a](", "unclosed links", "unclosed links <",
		"nested brackets", "[ (](", "![[]()", "nested strong emphasis", "deeply nested lists", "closers a multiple of 3", "deeply nested list markers", "nested lists in a quote"} {
		if p := prose.Check(cases[name], parseLimits); p == nil {
			t.Errorf("%s: accepted; want it refused", name)
		}
	}
}
