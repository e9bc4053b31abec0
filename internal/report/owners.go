package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

// OwnersCSV renders owners.csv for one step: one row per key in canonical
// order, with the key, then per rule its position (the number the rule
// looks up, or the product's own words for it: "token -367…", "PG 1.2a")
// and its preference list, primary first,
// separated by spaces. It is the bulk form of the probe table, so that a
// team can diff ringreport's prediction with what production does for
// its own keys.
func OwnersCSV(res *sim.Result, step int) ([]byte, error) {
	header := []string{"key"}
	for _, rr := range res.Rules {
		header = append(header, CSVCell(rr.Spec.Label+" position"), CSVCell(rr.Spec.Label+" owners"))
	}
	rows := make([][]string, res.Keys.Len())
	for r := range res.Rules {
		i := 0
		err := res.EachOwner(r, step, func(key string, pr sim.Probe) {
			if r == 0 {
				rows[i] = append(rows[i], CSVCell(key))
			}
			names := make([]string, len(pr.Owners))
			for j, o := range pr.Owners {
				names[j] = res.Timeline.Nodes[o]
			}
			pos := pr.Text
			if pos == "" {
				pos = strconv.FormatUint(pr.Position, 10)
			}
			rows[i] = append(rows[i], CSVCell(pos), CSVCell(strings.Join(names, " ")))
			i++
		})
		if err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(header)
	w.WriteAll(rows)
	return buf.Bytes(), w.Error()
}

// CSVCell neutralises a text cell that a spreadsheet would run as a
// formula (OWASP's CSV injection guidance): one that starts with =, +, -,
// @, a tab or a carriage return gets a leading apostrophe. data.json keeps
// the exact text.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
