package keys

// The incremental rules pick out, at every step, the few keys a change
// touches by a bound on a per-key value (jump: the keys whose next jump a
// rising count passes, or whose bucket a falling one drops). These
// selections run beside the hashing loops, on the same 512-bit vectors.

// SelectSlack is the room past len(v) that at needs for SelectBelow and
// SelectAtLeast: the vector loop stores whole registers.
const SelectSlack = 16

// SelectBelow writes into at, in order, the indices lo+i of the values
// v[i] < x, and returns them. at must hold len(v) + SelectSlack entries.
func SelectBelow(at, v []uint32, lo int, x uint32) []uint32 {
	return selectBy(at, v, lo, x, false)
}

// SelectAtLeast is SelectBelow for the values v[i] ≥ x.
func SelectAtLeast(at, v []uint32, lo int, x uint32) []uint32 {
	return selectBy(at, v, lo, x, true)
}

func selectBy(at, v []uint32, lo int, x uint32, atLeast bool) []uint32 {
	at = at[:len(v)+SelectSlack]
	n, w := 0, 0
	if hasVector512 {
		w = len(v) &^ 15
		if w > 0 {
			var idx [16]uint32
			for j := range idx {
				idx[j] = uint32(lo + j)
			}
			if atLeast {
				n = selectAtLeastVector(&at[0], &v[0], w, &idx, x)
			} else {
				n = selectBelowVector(&at[0], &v[0], w, &idx, x)
			}
		}
	}
	for i := w; i < len(v); i++ {
		if (v[i] >= x) == atLeast {
			at[n] = uint32(lo + i)
			n++
		}
	}
	return at[:n]
}
