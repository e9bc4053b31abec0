package report

import (
	"os"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
)

// TestSchemaDocMetrics checks SCHEMA.md against the metric table: every
// metric of sim.Metrics has a row, and steps.csv's documented header is
// the one CSV writes.
func TestSchemaDocMetrics(t *testing.T) {
	b, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, m := range sim.Metrics {
		if !strings.Contains(doc, "| `"+m.Name+"` |") {
			t.Errorf("SCHEMA.md has no row for the metric %s (%s)", m.Name, m.Doc)
		}
	}
	if header := strings.Join(CSVHeader(), ","); !strings.Contains(doc, "\n"+header+"\n") {
		t.Errorf("SCHEMA.md does not show steps.csv's header:\n%s", header)
	}
}
