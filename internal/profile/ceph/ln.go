package ceph

import (
	"math/big"
	"math/bits"
	"sync"
)

// crush_ln (src/crush/mapper.c) is CRUSH's fixed-point logarithm: for u in
// [0, 0xffff] it returns about 2^44·log2(u+1), so that a straw2 draw
// (Ln(u) − 2^48) / weight is a scaled sample of ln(U)/weight. It
// normalises x = u+1 into [2^15, 2^16] with an exponent e, then splits the
// mantissa twice: its top 8 bits pick k and a reciprocal RH ≈ 2^48/(1+k/128)
// that scales the mantissa into [2^15, 2^15+256), whose low 8 bits j pick a
// second, small correction. The result is
//
//	e·2^44 + (LH[k] + LL[j]) >> 4
//
// with LH[k] = 2^48·log2(1+k/128) and LL[j] = 2^48·log2(1+j/2^15).
//
// The tables are generated here from those definitions, with exact
// arithmetic; lnTables gives the rounding of each.

// LnTable holds the tables crush_ln reads and crush_ln's value for every
// 16-bit input. The zero value is not usable; use GeneratedLn or
// NewLnTable.
type LnTable struct {
	t     lnTables
	draws [1 << 16]int64 // Ln(u) − 2^48, the numerator of a straw2 draw
}

// lnTables are the three tables, indexed as crush_ln indexes them.
type lnTables struct {
	rh [129]uint64 // RH[k] = ⌈2^48/(1+k/128)⌉
	lh [129]uint64 // LH[k] = ⌊2^48·log2(1+k/128)⌋
	ll [256]uint64 // LL[j] = ⌊2^48·log2(1+j/2^15)⌋
}

// GeneratedLn returns the tables computed from their definitions (above),
// with exact integer and 320-bit arithmetic, once per process. Ceph
// 16.2.15's own RH table equals them, and its LH table too but for its
// last entry; its LL table does not follow its definition (the package
// doc says by how much, and what that does to placement).
func GeneratedLn() *LnTable { return generatedLn() }

// generatedLn computes GeneratedLn's table on first use.
var generatedLn = sync.OnceValue(func() *LnTable {
	return newLnTable(genTables())
})

// NewLnTable returns crush_ln over given tables, laid out as Ceph's
// __RH_LH_tbl (RH[k], LH[k] pairs) and __LL_tbl; for comparing the
// generated tables with another copy, such as the product's own.
func NewLnTable(rhlh [258]uint64, ll [256]uint64) *LnTable {
	var t lnTables
	for k := range 129 {
		t.rh[k], t.lh[k] = rhlh[2*k], rhlh[2*k+1]
	}
	t.ll = ll
	return newLnTable(&t)
}

// newLnTable evaluates crush_ln over all 16-bit inputs.
func newLnTable(t *lnTables) *LnTable {
	l := &LnTable{t: *t}
	for u := range uint32(1 << 16) {
		l.draws[u] = int64(t.ln(u)) - 1<<48
	}
	return l
}

// Tables returns the tables in Ceph's layout (see NewLnTable).
func (l *LnTable) Tables() (rhlh [258]uint64, ll [256]uint64) {
	for k := range 129 {
		rhlh[2*k], rhlh[2*k+1] = l.t.rh[k], l.t.lh[k]
	}
	return rhlh, l.t.ll
}

// Ln is crush_ln(u & 0xffff): about 2^44·log2(u+1), in [0, 2^48].
func (l *LnTable) Ln(u uint32) uint64 {
	return uint64(l.draws[u&0xffff] + 1<<48)
}

// lnPrec is the precision, in bits, of the big-float evaluation of the
// logarithms: far beyond the 49 bits a table entry needs, so that each
// floor is exact (genTables checks that no value lies near an integer).
const lnPrec = 320

// genTables computes the tables from their definitions.
func genTables() *lnTables {
	t := &lnTables{}
	ln2 := lnRatio(2, 1)
	for k := range uint64(129) {
		// ⌈2^55/(128+k)⌉ = ⌈2^48/(1+k/128)⌉, in integers.
		d := 128 + k
		t.rh[k] = (1<<55 + d - 1) / d
		t.lh[k] = floorLog2Scaled(128+k, 128, ln2)
	}
	for j := range uint64(256) {
		t.ll[j] = floorLog2Scaled(1<<15+j, 1<<15, ln2)
	}
	return t
}

// floorLog2Scaled returns ⌊2^48·log2(p/q)⌋ for 1 ≤ p/q ≤ 2, given ln 2.
func floorLog2Scaled(p, q uint64, ln2 *big.Float) uint64 {
	switch {
	case p == q:
		return 0
	case p == 2*q:
		return 1 << 48
	}
	v := lnRatio(p, q)
	v.Quo(v, ln2)
	v.SetMantExp(v, 48)
	i, _ := v.Int(nil)
	// The exact value is irrational here (p/q is not a power of two), so
	// it is never an integer; insist that it is not within 2^-64 of one,
	// which at lnPrec bits cannot be an artefact of rounding.
	frac := new(big.Float).SetPrec(lnPrec).Sub(v, new(big.Float).SetInt(i))
	lo := new(big.Float).SetMantExp(big.NewFloat(1), -64)
	hi := new(big.Float).Sub(big.NewFloat(1), lo)
	if frac.Cmp(lo) < 0 || frac.Cmp(hi) > 0 {
		panic("ceph: ln table entry too close to an integer to floor safely")
	}
	return i.Uint64()
}

// lnRatio returns ln(p/q) for p ≥ q > 0 by the series
// ln y = 2·atanh z = 2·Σ z^(2n+1)/(2n+1), z = (y−1)/(y+1) ≤ 1/3 here.
func lnRatio(p, q uint64) *big.Float {
	f := func() *big.Float { return new(big.Float).SetPrec(lnPrec) }
	z := f().Quo(f().SetUint64(p-q), f().SetUint64(p+q))
	z2 := f().Mul(z, z)
	sum, term := f(), f().Set(z)
	eps := f().SetMantExp(big.NewFloat(1), -lnPrec-8)
	for n := uint64(0); ; n++ {
		t := f().Quo(term, f().SetUint64(2*n+1))
		sum.Add(sum, t)
		if t.Cmp(eps) < 0 {
			break
		}
		term.Mul(term, z2)
	}
	return sum.Mul(sum, f().SetUint64(2))
}

// ln computes crush_ln(u) from the tables, for u in [0, 0xffff].
func (t *lnTables) ln(u uint32) uint64 {
	x := u + 1
	e := uint64(15)
	if x&0x18000 == 0 {
		s := bits.LeadingZeros32(x&0x1ffff) - 16
		x <<= s
		e = 15 - uint64(s)
	}
	k := x>>8 - 128
	scaled := uint64(x) * t.rh[k] >> 48
	j := scaled & 0xff
	return e<<44 + (t.lh[k]+t.ll[j])>>4
}

// Ln is crush_ln(u & 0xffff) over Ceph's own tables (CephLn).
func Ln(u uint32) uint64 { return CephLn().Ln(u) }
