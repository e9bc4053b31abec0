// Package strips is the data of the changed-key strips: which cell of a
// strip a key falls in, the moved keys a cell counts by why they moved,
// and the one-byte Shade a figure paints a cell with.
//
// The measurement engine (internal/sim) counts into Counts while it
// replays, since only then does it see every moved key, and keeps each
// step's shaded Strip; the figures (internal/svg) read only the shades.
// Nothing here knows how a strip is drawn.
package strips
