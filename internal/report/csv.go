package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
)

// CSVHeader returns the header row of steps.csv: step, op and rule, then
// one column per metric of sim.Metrics, which mean what the data.json
// fields of the same names mean (SCHEMA.md).
func CSVHeader() []string {
	h := []string{"step", "op", "rule"}
	for _, m := range sim.Metrics {
		h = append(h, m.Name)
	}
	return h
}

// CSV renders steps.csv: the header, then one row per (step, rule), steps
// outermost and rules in scenario order. Floats have FloatDecimals
// decimals; recurs is empty when the placement is new. Rule labels go
// through CSVCell, so that a spreadsheet shows them rather than running
// them; data.json keeps them exactly. The header is the
// same for every scenario: the request columns are empty when the keys
// carry no request counts.
func CSV(res *sim.Result) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, res); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteCSV writes CSV's steps.csv to w row by row. It checks res before
// it writes anything.
func WriteCSV(w io.Writer, res *sim.Result) error {
	if err := check(res); err != nil {
		return fmt.Errorf("cannot build steps.csv: %w", err)
	}
	cw := csv.NewWriter(w)
	header := CSVHeader()
	cw.Write(header)
	row := make([]string, len(header))
	for i := range res.Timeline.States {
		for r := range res.Rules {
			cw.Write(csvRow(row, res, r, i))
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("cannot write steps.csv: %w", err)
	}
	return nil
}

// csvRow fills row with rule r's row of step i and returns it.
func csvRow(row []string, res *sim.Result, r, i int) []string {
	row = append(row[:0], strconv.Itoa(i), res.Timeline.States[i].Op.String(), CSVCell(res.Rules[r].Spec.Label))
	a := res.At(r, i)
	for _, m := range sim.Metrics {
		row = append(row, metricText(m, m.Value(a)))
	}
	return row
}

// metricText writes a metric's value as steps.csv does: empty where it
// does not apply.
func metricText(m sim.Metric, v sim.Value) string {
	switch {
	case !v.OK:
		return ""
	case m.Kind == sim.Fraction:
		return csvFloat(v.F)
	case m.Kind == sim.Hex:
		return fingerprint(uint64(v.N))
	}
	return strconv.FormatInt(v.N, 10)
}

// csvFloat formats x with FloatDecimals decimals; empty when not finite.
func csvFloat(x float64) string {
	s := fixed(FloatDecimals, x)
	if s == "—" {
		return ""
	}
	return s
}
