//go:build amd64 && !purego

#include "textflag.h"

// func pickModVector(dst *uint16, pos *uint32, n int, table *uint32, m, d uint64)
//
// Thirty-two keys a round, eight a register: lo = m·p mod 2⁶⁴ (VPMULLQ),
// then the high 64 bits of lo·d as (hi32(lo)·d + (lo32(lo)·d >> 32)) >> 32
// with 32-bit products (VPMULUDQ; d < 2³² keeps the sum below 2⁶⁴), and
// the entries at those indices gathered and narrowed to 16 bits.
TEXT ·pickModVector(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ pos+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ table+24(FP), DX
	VPBROADCASTQ m+32(FP), Z9
	VPBROADCASTQ d+40(FP), Z10

pickblock:
	CMPQ CX, $32
	JB pickdone
	VPMOVZXDQ 0(SI), Z14
	VPMOVZXDQ 32(SI), Z17
	VPMOVZXDQ 64(SI), Z20
	VPMOVZXDQ 96(SI), Z23
	VPMULLQ Z9, Z14, Z14
	VPMULLQ Z9, Z17, Z17
	VPMULLQ Z9, Z20, Z20
	VPMULLQ Z9, Z23, Z23
	VPMULUDQ Z10, Z14, Z15
	VPMULUDQ Z10, Z17, Z18
	VPMULUDQ Z10, Z20, Z21
	VPMULUDQ Z10, Z23, Z24
	VPSRLQ $32, Z15, Z15
	VPSRLQ $32, Z18, Z18
	VPSRLQ $32, Z21, Z21
	VPSRLQ $32, Z24, Z24
	VPSRLQ $32, Z14, Z14
	VPSRLQ $32, Z17, Z17
	VPSRLQ $32, Z20, Z20
	VPSRLQ $32, Z23, Z23
	VPMULUDQ Z10, Z14, Z14
	VPMULUDQ Z10, Z17, Z17
	VPMULUDQ Z10, Z20, Z20
	VPMULUDQ Z10, Z23, Z23
	VPADDQ Z15, Z14, Z14
	VPADDQ Z18, Z17, Z17
	VPADDQ Z21, Z20, Z20
	VPADDQ Z24, Z23, Z23
	VPSRLQ $32, Z14, Z14
	VPSRLQ $32, Z17, Z17
	VPSRLQ $32, Z20, Z20
	VPSRLQ $32, Z23, Z23
	KXNORB K1, K1, K1
	VPGATHERQD (DX)(Z14*4), K1, Y16
	KXNORB K2, K2, K2
	VPGATHERQD (DX)(Z17*4), K2, Y19
	KXNORB K3, K3, K3
	VPGATHERQD (DX)(Z20*4), K3, Y22
	KXNORB K4, K4, K4
	VPGATHERQD (DX)(Z23*4), K4, Y25
	VPMOVDW Y16, 0(DI)
	VPMOVDW Y19, 16(DI)
	VPMOVDW Y22, 32(DI)
	VPMOVDW Y25, 48(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JMP pickblock

pickdone:
	VZEROUPPER
	RET
