package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/ringreport/ringreport/internal/sim"
)

// This file writes the bounded transfers that data.json carries and the
// whole pair matrix to transfers.csv (SCHEMA.md, "transfers.csv"). A rule
// that reshuffles (modulo, jump's renumbering) moves keys between almost
// every pair of nodes, n² pairs per step: sim keeps the largest of them
// (sim.Transfers.Top) and sums the rest, so that data.json grows with the
// nodes and not with their square, and keeps every pair only while
// transfers.csv can still be written (sim.MaxKeptPairs).

// MaxJSONTransfers is the most from → to pairs data.json lists per step
// and rule: the pairs that moved the most keys, sim.Transfers.Top.
// transfers_rest counts and sums the others; transfers.csv has them all.
const MaxJSONTransfers = sim.TopTransfers

// TransfersCSVLimit is the largest transfers.csv a build writes, in
// bytes (5 MiB): beyond it the build leaves the file out, and `ringreport
// render transfers-csv` writes it on request.
const TransfersCSVLimit = 5 << 20

// TransfersCSVHeader is the header row of transfers.csv.
var TransfersCSVHeader = []string{"step", "rule", "from", "to", "keys", "requests"}

// minTransferRow is the fewest bytes a row of transfers.csv takes: a
// digit of step, a byte of rule label and of each node name, a digit of
// keys, five commas and the newline (escaping only adds bytes).
const minTransferRow = 11

// A replay that drops its whole pair lists (past sim.MaxKeptPairs) has
// a transfers.csv, header included, over TransfersCSVLimit, which a build
// leaves out anyway: the array's length is negative, and the build
// fails, if MaxKeptPairs + 1 rows could fit.
var _ [(sim.MaxKeptPairs+1)*minTransferRow + len("step,rule,from,to,keys,requests\n") - TransfersCSVLimit - 1]struct{}

// errTooLarge stops a transfers.csv that would pass its limit.
var errTooLarge = errors.New("transfers.csv passes its size limit")

// limitedBuffer is a buffer that refuses to grow past limit bytes.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		return 0, errTooLarge
	}
	return b.Buffer.Write(p)
}

// TransfersCSV renders transfers.csv for every step when it stays within
// TransfersCSVLimit bytes; otherwise it returns nil and false, having
// written at most that much (nothing when the replay kept too many pairs
// to keep their lists, which implies as much: sim.MaxKeptPairs).
func TransfersCSV(res *sim.Result) ([]byte, bool, error) {
	if !res.AllTransfers() {
		return nil, false, nil
	}
	return transfersCSV(res, TransfersCSVLimit)
}

// transfersCSV is TransfersCSV with a limit of limit bytes.
func transfersCSV(res *sim.Result, limit int) ([]byte, bool, error) {
	buf := limitedBuffer{limit: limit}
	err := WriteTransfersCSV(&buf, res, -1)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return buf.Bytes(), true, nil
}

// WriteTransfersCSV writes transfers.csv to w: the header, then one row
// per (step, rule, from, to) pair of nodes between which keys moved, steps
// in order, rules in scenario order, pairs sorted by from then to in the
// order of the node table (data.json's top-level nodes). step ≥ 0 writes
// that step's rows alone. Node names and rule labels go through CSVCell;
// requests is empty when the keys carry no request counts. res must hold
// every pair of the steps it writes (sim.Result.AllTransfersAt: a replay
// of a large run keeps them only with sim.Options.AllPairs).
func WriteTransfersCSV(w io.Writer, res *sim.Result, step int) error {
	if err := check(res); err != nil {
		return fmt.Errorf("cannot build transfers.csv: %w", err)
	}
	if step >= len(res.Timeline.States) {
		return fmt.Errorf("cannot build transfers.csv: no step %d", step)
	}
	first, last := 0, len(res.Timeline.States)-1
	if step >= 0 {
		first, last = step, step
	}
	for i := first; i <= last; i++ {
		if !res.AllTransfersAt(i) {
			return fmt.Errorf("cannot build transfers.csv: the replay kept the transfer pairs of step %d bounded (more than %d in all); replay with sim.Options.AllPairs", i, sim.MaxKeptPairs)
		}
	}
	names := make([][]byte, len(res.Timeline.Nodes))
	for id, n := range res.Timeline.Nodes {
		names[id] = appendCSVField(nil, CSVCell(n))
	}
	labels := make([][]byte, len(res.Rules))
	for r, rr := range res.Rules {
		labels[r] = appendCSVField(nil, CSVCell(rr.Spec.Label))
	}
	weighted := res.Keys.Weight != nil
	var buf []byte
	for i, h := range TransfersCSVHeader {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, h...)
	}
	buf = append(buf, '\n')
	for i := first; i <= last; i++ {
		for r, rr := range res.Rules {
			for _, t := range rr.Steps[i].Transfers.All {
				buf = strconv.AppendInt(buf, int64(i), 10)
				buf = append(buf, ',')
				buf = append(buf, labels[r]...)
				buf = append(buf, ',')
				buf = append(buf, names[t.From]...)
				buf = append(buf, ',')
				buf = append(buf, names[t.To]...)
				buf = append(buf, ',')
				buf = strconv.AppendInt(buf, int64(t.Keys), 10)
				buf = append(buf, ',')
				if weighted {
					buf = strconv.AppendInt(buf, t.Requests, 10)
				}
				buf = append(buf, '\n')
				if len(buf) >= writeChunk {
					if _, err := w.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
			}
		}
	}
	_, err := w.Write(buf)
	return err
}

// writeChunk is how many bytes the streaming writers gather before they
// hand them to their io.Writer.
const writeChunk = 32 << 10

// appendCSVField appends s as one CSV field, quoted exactly when
// encoding/csv's Writer would quote it (a quote, a comma, a line break, a
// leading space, or the field `\.`), so that a hand-written row reads
// back as that Writer's would.
func appendCSVField(dst []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes with a comma.
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '"', ',':
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
