package sim

import (
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestRingHashOption: a ring under another hash walks keys in that
// hash's order, and the assignment matches a direct lookup per key.
func TestRingHashOption(t *testing.T) {
	s := &Scenario{Name: "h", Title: "h", Seed: 1, Keys: keys.KeySpec{Count: 2000}, Nodes: names("a", "b", "c"),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "ring", Hash: "crc32", VNodes: 20}, {Kind: "modulo", Hash: "md5"}}}
	res := mustReplay(t, s)
	owners := ownersAt(res, 0, 0)
	r := ringrules.NewRing(placer.RuleSpec{Kind: "ring", Hash: "crc32", VNodes: 20}, res.env())
	r.Update(&res.Timeline.States[0])
	for i := range res.Keys.Len() {
		pos := keys.HashCRC32.Sum32(res.Keys.AppendName(nil, i))
		if got := r.Pts[r.First(pos)].Node; got != owners[i] {
			t.Fatalf("key %d: owner %d, lookup %d", i, owners[i], got)
		}
	}
	mod := ownersAt(res, 1, 0)
	for i := range res.Keys.Len() {
		if want := timeline.NodeID(keys.HashMD5.Sum32(res.Keys.AppendName(nil, i)) % 3); mod[i] != want {
			t.Fatalf("modulo md5 key %d: %d, want %d", i, mod[i], want)
		}
	}
	if slices.Equal(owners, ownersAt(mustReplay(t, &Scenario{Name: "h", Title: "h", Seed: 1, Keys: keys.KeySpec{Count: 2000},
		Nodes: names("a", "b", "c"), Replicas: 1, Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 20}}}), 0, 0)) {
		t.Error("the hash option changed nothing")
	}
}

// TestHash32Spreads checks the reason for the finalizer: keys that differ
// only in their last characters must not clump. With 5 nodes × 160
// points, the busiest node of 10,000 sequential keys stays within 15% of
// its share (plain FNV-1a gives about 80% here, as the Ring demo found).
func TestHash32Spreads(t *testing.T) {
	s := &Scenario{Name: "t", Title: "t", Seed: 1, Keys: keys.KeySpec{List: sequentialKeys(10000)},
		Nodes: names("a", "b", "c", "d", "e"), Rules: []placer.RuleSpec{{Kind: "ring"}}, Replicas: 1}
	res := mustReplay(t, s)
	if b := res.Balance(0, 0); b.WorstDeviation > 0.15 {
		t.Errorf("worst deviation %.3f on sequential keys; want ≤ 0.15", b.WorstDeviation)
	}
}
