package tablerules

import (
	"slices"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

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
	A, B    uint64 // the tables' serials, a < b
	Entries []uint32
	Keys    []uint32
}

// maglevDiffs keeps the last differences within maglevDiffBytes.
type maglevDiffs struct {
	list  []*maglevDiff
	Bytes int
}

// MaglevDiffBytes bounds the memory of cached differences (a variable so
// that tests can make it small).
var MaglevDiffBytes = 1 << 20

func (c *maglevDiffs) Get(a, b uint64) *maglevDiff {
	a, b = min(a, b), max(a, b)
	for _, d := range c.list {
		if d.A == a && d.B == b {
			return d
		}
	}
	return nil
}

// Put adds a difference, dropping its keys if they alone exceed half the
// budget, then the oldest differences while over it.
func (c *maglevDiffs) Put(d *maglevDiff) {
	if 4*len(d.Keys) > MaglevDiffBytes/2 {
		d.Keys = nil
	}
	c.list = append(c.list, d)
	c.Bytes += 4 * (len(d.Entries) + len(d.Keys))
	drop := 0
	for c.Bytes > MaglevDiffBytes {
		c.Bytes -= 4 * (len(c.list[drop].Entries) + len(c.list[drop].Keys))
		drop++
	}
	c.list = slices.Delete(c.list, 0, drop)
}

// delta1 is delta with one replica: the keys of the entries whose node
// changed since the last table, with their new nodes.
func (g *maglev) delta1(d *placer.Delta, gr entryGroups) {
	old, cur := g.lastTab, g.cur
	g.lastTab = cur
	if old == cur {
		return
	}
	df := g.diffs.Get(old.serial, cur.serial)
	if df == nil {
		df = &maglevDiff{A: min(old.serial, cur.serial), B: max(old.serial, cur.serial)}
		for e := range g.m {
			if old.table[e] != cur.table[e] {
				df.Entries = append(df.Entries, uint32(e))
			}
		}
		gr.touch(df.Entries)
		for _, e := range df.Entries {
			df.Keys = append(df.Keys, gr.keys[gr.start[e]:gr.start[e+1]]...)
		}
		g.diffs.Put(df)
	}
	if df.Keys == nil {
		for _, e := range df.Entries {
			addGroup(d, gr.keys[gr.start[e]:gr.start[e+1]], [][]timeline.NodeID{cur.table}, int(e))
		}
		return
	}
	d.Keys = append(d.Keys, df.Keys...)
	l := d.Lists[0]
	for _, e := range df.Entries {
		id := cur.table[e]
		for range gr.start[e+1] - gr.start[e] {
			l = append(l, id)
		}
	}
	d.Lists[0] = l
}
