package sim

// What the cost model (internal/cost) reads of the replay's memory: the
// estimate itself lives there, beside every other term of the build.

// HistoryBytesPerKey is the bytes per key of one undo log of the
// recurrence checks (see history.go).
const HistoryBytesPerKey = historyBytesPerKey

// StripCells is the number of cells of a step's changed-key strip over k
// keys.
func StripCells(k int) int { return stripCells(k) }
