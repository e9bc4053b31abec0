package golden

import (
	"regexp"
	"testing"
)

var (
	tableRE = regexp.MustCompile(`(?s)<table>.*?</table>`)
	rowRE   = regexp.MustCompile(`(?s)<tr>.*?</tr>`)
	cellRE  = regexp.MustCompile(`<t[hd][ >]`)
)

// Tables fails t when html has no table, or when a row of one of its
// tables has a different number of cells from that table's first row —
// the sign of a user string that broke a Markdown table.
func Tables(t testing.TB, html string) {
	t.Helper()
	tables := tableRE.FindAllString(html, -1)
	if len(tables) == 0 {
		t.Fatal("no tables in the HTML")
	}
	for i, tab := range tables {
		rows := rowRE.FindAllString(tab, -1)
		want := len(cellRE.FindAllString(rows[0], -1))
		for _, row := range rows[1:] {
			if got := len(cellRE.FindAllString(row, -1)); got != want {
				t.Errorf("table %d: row has %d cells, header %d: %.200s", i, got, want, row)
			}
		}
	}
}
