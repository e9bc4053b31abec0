package keys

import (
	"math/rand/v2"
)

// Random streams: each use of the scenario seed gets its own PCG stream so
// that adding a use never shifts the values another use sees.
const (
	streamKeys   = 0x6b657973 // "keys"
	StreamChoice = 0x63686f69 // "choi"
	streamZipf   = 0x7a697066 // "zipf"
)

// NewRand returns the generator for one stream of a scenario's seed.
func NewRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}
