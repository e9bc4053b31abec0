package nginx

import "hash/crc32"

// CRC-32 arithmetic that lets plain `hash` derive CRC-32(digits ‖ key) from
// CRC-32(key) and len(key) alone. CRC-32 is linear over GF(2): the CRC of
// A ‖ B is the CRC of A carried through |B| zero bytes (a multiplication by
// x^(8|B|) modulo the polynomial) xor the CRC of B. Polynomials are kept
// bit-reflected, as the IEEE CRC keeps them: x^0 is the top bit.

// reflectedPoly is the IEEE CRC-32 polynomial, bit-reflected.
const reflectedPoly = 0xedb88320

// xPow2 holds x^(2^k) modulo the polynomial for k = 0 … 63.
var xPow2 = func() (t [64]uint32) {
	t[0] = 1 << 30 // x^1
	for k := 1; k < len(t); k++ {
		t[k] = mulMod(t[k-1], t[k-1])
	}
	return t
}()

// mulMod returns a·b modulo the CRC polynomial (both bit-reflected).
func mulMod(a, b uint32) uint32 {
	var p uint32
	for bit := uint32(1) << 31; bit != 0; bit >>= 1 {
		if a&bit != 0 {
			p ^= b
		}
		// b ← b·x
		if b&1 != 0 {
			b = b>>1 ^ reflectedPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8n returns x^(8n) modulo the polynomial: the operator that carries a
// CRC through n zero bytes.
func xPow8n(n int) uint32 {
	p := uint32(1) << 31 // x^0
	for k := 3; n != 0; k, n = k+1, n>>1 {
		if n&1 != 0 {
			p = mulMod(xPow2[k], p)
		}
	}
	return p
}

// combine returns CRC-32(A ‖ B) from crcA = CRC-32(A), crcB = CRC-32(B) and
// op = xPow8n(|B|).
func combine(crcA, crcB, op uint32) uint32 { return mulMod(op, crcA) ^ crcB }

// digitsCRC returns CRC-32 of n ≥ 0 written in decimal, without allocating.
func digitsCRC(n int) uint32 {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	c := ^uint32(0)
	for _, b := range buf[i:] {
		c = crc32.IEEETable[byte(c)^b] ^ c>>8
	}
	return ^c
}

// prefixDigits returns CRC-32(decimal(n) ‖ key) from crcKey = CRC-32(key)
// and keyLen = len(key).
func prefixDigits(crcKey uint32, keyLen, n int) uint32 {
	return combine(digitsCRC(n), crcKey, xPow8n(keyLen))
}
