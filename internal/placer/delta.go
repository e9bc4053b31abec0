package placer

import "github.com/ringreport/ringreport/internal/timeline"

// Delta lists the keys whose preference lists may have changed in a step
// (each at most once; unchanged ones are skipped) and their new lists:
// lists[r][j] is the r-th choice of keys[j].
type Delta struct {
	Keys  []uint32
	Lists [][]timeline.NodeID
}

// Reset empties d for lists of length r, keeping its memory.
func (d *Delta) Reset(r int) {
	d.Keys = d.Keys[:0]
	for len(d.Lists) < r {
		d.Lists = append(d.Lists, nil)
	}
	d.Lists = d.Lists[:r]
	for i := range d.Lists {
		d.Lists[i] = d.Lists[i][:0]
	}
}

// Add appends key k with its new preference list, list[r] for each rank r.
func (d *Delta) Add(k int, list []timeline.NodeID) {
	d.Keys = append(d.Keys, uint32(k))
	for r := range d.Lists {
		d.Lists[r] = append(d.Lists[r], list[r])
	}
}

// AddFrom appends key k with its lists taken from pref at index j.
func (d *Delta) AddFrom(k int, pref [][]timeline.NodeID, j int) {
	d.Keys = append(d.Keys, uint32(k))
	for r := range d.Lists {
		d.Lists[r] = append(d.Lists[r], pref[r][j])
	}
}

// SameLists reports whether point i of a and point j of b have the same
// preference lists.
func SameLists(a [][]timeline.NodeID, i int, b [][]timeline.NodeID, j int) bool {
	for r := range a {
		if a[r][i] != b[r][j] {
			return false
		}
	}
	return true
}
