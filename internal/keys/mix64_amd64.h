// MIX64X4 is Mix64 (x ^= x>>30; x *= m1; x ^= x>>27; x *= m2; x ^= x>>31)
// on every 64-bit lane of the four registers a, b, c and d, in place,
// each with its own scratch register (ta, tb, tc, td); m1 and m2 hold the
// two multipliers broadcast to every lane. The four chains are
// interleaved, so that each instruction's result is not needed by the
// next one.
#define MIX64X4(a, ta, b, tb, c, tc, d, td, m1, m2) \
	VPSRLQ $30, a, ta; VPSRLQ $30, b, tb; VPSRLQ $30, c, tc; VPSRLQ $30, d, td; \
	VPXORQ ta, a, a; VPXORQ tb, b, b; VPXORQ tc, c, c; VPXORQ td, d, d; \
	VPMULLQ m1, a, a; VPMULLQ m1, b, b; VPMULLQ m1, c, c; VPMULLQ m1, d, d; \
	VPSRLQ $27, a, ta; VPSRLQ $27, b, tb; VPSRLQ $27, c, tc; VPSRLQ $27, d, td; \
	VPXORQ ta, a, a; VPXORQ tb, b, b; VPXORQ tc, c, c; VPXORQ td, d, d; \
	VPMULLQ m2, a, a; VPMULLQ m2, b, b; VPMULLQ m2, c, c; VPMULLQ m2, d, d; \
	VPSRLQ $31, a, ta; VPSRLQ $31, b, tb; VPSRLQ $31, c, tc; VPSRLQ $31, d, td; \
	VPXORQ ta, a, a; VPXORQ tb, b, b; VPXORQ tc, c, c; VPXORQ td, d, d
