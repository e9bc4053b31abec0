package report

import (
	"testing"

	"github.com/ringreport/ringreport/internal/cost"
)

// TestCostMirrors: the cost model, which cannot import this package (its
// tests parse scenarios, and the parser reads the cost model), counts
// data.json's transfer pairs and transfers.csv with this package's own
// bounds.
func TestCostMirrors(t *testing.T) {
	if cost.JSONPairs != MaxJSONTransfers || cost.TransfersCSVBytes != TransfersCSVLimit {
		t.Errorf("cost counts %d pairs and %d bytes of transfers.csv; report writes %d and %d",
			cost.JSONPairs, cost.TransfersCSVBytes, MaxJSONTransfers, TransfersCSVLimit)
	}
}
