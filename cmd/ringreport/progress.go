package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressFunc returns a build.Options.Progress that redraws one status
// line on stderr, or nil when stderr is not a terminal, CI is set or
// TERM is dumb: logs and pipes stay quiet. NO_COLOR turns colour off.
// finish clears the line.
func progressFunc(stderr io.Writer) (progress func(done, total int, name string), finish func()) {
	if !showsProgress(stderr) {
		return nil, func() {}
	}
	bold, reset := "\x1b[1m", "\x1b[0m"
	if os.Getenv("NO_COLOR") != "" {
		bold, reset = "", ""
	}
	progress = func(done, total int, name string) {
		fmt.Fprintf(stderr, "\r\x1b[K%s%s %d/%d%s %s", bold, bar(done, total, 20), done, total, reset, name)
	}
	return progress, func() { fmt.Fprint(stderr, "\r\x1b[K") }
}

// showsProgress reports whether progressFunc draws on stderr.
func showsProgress(stderr io.Writer) bool {
	return isTerminal(stderr) && os.Getenv("CI") == "" && os.Getenv("TERM") != "dumb"
}

// bar draws done of total as a bar of width cells: [=====     ].
func bar(done, total, width int) string {
	n := width
	if total > 0 {
		n = min(width, width*done/total)
	}
	return "[" + strings.Repeat("=", n) + strings.Repeat(" ", width-n) + "]"
}
