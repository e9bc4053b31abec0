package sim

// What the cost model (internal/cost) reads of the replay's memory: the
// estimate itself lives there, beside every other term of the build.

import "github.com/ringreport/ringreport/internal/undolog"

// HistoryBytesPerKey is the bytes per key of one undo log of the
// recurrence checks (see internal/undolog).
const HistoryBytesPerKey = undolog.BytesPerKey
