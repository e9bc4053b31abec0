package text

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Path returns a file name as a message prints it: as it is when it
// holds only printable characters, and otherwise quoted in Go syntax,
// with control characters, invisible format characters (bidirectional
// marks and overrides), line separators and invalid UTF-8 escaped. A
// name can then neither start a line of its own (forging a CI
// annotation such as "::error ...::") nor send a terminal escape
// sequence. A name with a quote, a backslash, or a space at either end
// is quoted too, so that it reads as one name; the empty name is "".
//
// Every message that names a file goes through Path (or PathError).
func Path(p string) string {
	if p == "" || p != strings.TrimSpace(p) || !utf8.ValidString(p) {
		return QuoteVisible(p)
	}
	for _, r := range p {
		if r == '"' || r == '\\' || !strconv.IsPrint(r) || Invisible(r) {
			return QuoteVisible(p)
		}
	}
	return p
}

// PathError returns an error of the operating system that names files
// (*fs.PathError, *os.LinkError) with its names printed by Path, keeping
// it in the chain for errors.Is and errors.As. Any other error is
// returned as it is.
func PathError(err error) error {
	switch e := err.(type) {
	case *fs.PathError:
		return quotedError{err, e.Op + " " + Path(e.Path) + ": " + e.Err.Error()}
	case *os.LinkError:
		return quotedError{err, e.Op + " " + Path(e.Old) + " " + Path(e.New) + ": " + e.Err.Error()}
	}
	return err
}

// quotedError is an error with its message rewritten by PathError.
type quotedError struct {
	err error
	msg string
}

func (e quotedError) Error() string { return e.msg }
func (e quotedError) Unwrap() error { return e.err }
