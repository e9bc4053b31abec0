package sim

import "github.com/ringreport/ringreport/internal/timeline"
import "slices"

// With one replica a maglev step's keys are those of the table entries
// whose node changed between the last table and the new one. Tables are
// cached by live set (see populate), and so are their differences: a
// scenario that goes back and forth between two memberships (a failure
// and its recovery, a node added and removed) finds the changed entries
// and their keys ready instead of comparing M entries and gathering the
// keys of each changed one from the groups (about 1,000 scattered groups
// of 15 keys for M = 65537 and 10⁶ keys, each a cache miss).

// maglevDiff is the difference between two cached tables, the same both
// ways: the entries whose node differs, ascending, and their keys in that
// order (each entry's in canonical order), or nil when they did not fit.
type maglevDiff struct {
	a, b    uint64 // the tables' serials, a < b
	entries []uint32
	keys    []uint32
}

// maglevDiffs keeps the last differences within maglevDiffBytes.
type maglevDiffs struct {
	list  []*maglevDiff
	bytes int
}

// maglevDiffBytes bounds the memory of cached differences (a variable so
// that tests can make it small).
var maglevDiffBytes = 1 << 20

func (c *maglevDiffs) get(a, b uint64) *maglevDiff {
	a, b = min(a, b), max(a, b)
	for _, d := range c.list {
		if d.a == a && d.b == b {
			return d
		}
	}
	return nil
}

// put adds a difference, dropping its keys if they alone exceed half the
// budget, then the oldest differences while over it.
func (c *maglevDiffs) put(d *maglevDiff) {
	if 4*len(d.keys) > maglevDiffBytes/2 {
		d.keys = nil
	}
	c.list = append(c.list, d)
	c.bytes += 4 * (len(d.entries) + len(d.keys))
	drop := 0
	for c.bytes > maglevDiffBytes {
		c.bytes -= 4 * (len(c.list[drop].entries) + len(c.list[drop].keys))
		drop++
	}
	c.list = slices.Delete(c.list, 0, drop)
}

// delta1 is delta with one replica: the keys of the entries whose node
// changed since the last table, with their new nodes.
func (g *maglev) delta1(d *delta, gr entryGroups) {
	old, cur := g.lastTab, g.cur
	g.lastTab = cur
	if old == cur {
		return
	}
	df := g.diffs.get(old.serial, cur.serial)
	if df == nil {
		df = &maglevDiff{a: min(old.serial, cur.serial), b: max(old.serial, cur.serial)}
		for e := range g.m {
			if old.table[e] != cur.table[e] {
				df.entries = append(df.entries, uint32(e))
			}
		}
		gr.touch(df.entries)
		for _, e := range df.entries {
			df.keys = append(df.keys, gr.keys[gr.start[e]:gr.start[e+1]]...)
		}
		g.diffs.put(df)
	}
	if df.keys == nil {
		for _, e := range df.entries {
			addGroup(d, gr.keys[gr.start[e]:gr.start[e+1]], [][]timeline.NodeID{cur.table}, int(e))
		}
		return
	}
	d.keys = append(d.keys, df.keys...)
	l := d.lists[0]
	for _, e := range df.entries {
		id := cur.table[e]
		for range gr.start[e+1] - gr.start[e] {
			l = append(l, id)
		}
	}
	d.lists[0] = l
}
