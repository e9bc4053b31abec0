//go:build amd64 && !purego

#include "textflag.h"

// func selectBelowVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int
//
// Sixteen values a round; a round with any value below x (VPCMPUD less-than)
// compresses their indices (idx, advanced by 16 a round) into a register
// and stores all sixteen lanes at the count, which grows by the mask's
// population: the lanes past it are the caller's slack.
TEXT ·selectBelowVector(SB), NOSPLIT, $0-48
	MOVQ at+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ idx+24(FP), R8
	VMOVDQU32 (R8), Z2
	MOVL x+32(FP), AX
	VPBROADCASTD AX, Z1
	MOVL $16, AX
	VPBROADCASTD AX, Z4
	XORQ AX, AX

belowloop:
	CMPQ CX, $16
	JB belowdone
	VMOVDQU32 (SI), Z0
	VPCMPUD $1, Z1, Z0, K1
	KORTESTW K1, K1
	JZ belownext
	VPCOMPRESSD Z2, K1, Z3
	VMOVDQU32 Z3, (DI)(AX*4)
	KMOVW K1, BX
	POPCNTL BX, BX
	ADDQ BX, AX

belownext:
	VPADDD Z4, Z2, Z2
	ADDQ $64, SI
	SUBQ $16, CX
	JMP belowloop

belowdone:
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET

// func selectAtLeastVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int
//
// Sixteen values a round; a round with any value at least x (VPCMPUD not-less-than)
// compresses their indices (idx, advanced by 16 a round) into a register
// and stores all sixteen lanes at the count, which grows by the mask's
// population: the lanes past it are the caller's slack.
TEXT ·selectAtLeastVector(SB), NOSPLIT, $0-48
	MOVQ at+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ idx+24(FP), R8
	VMOVDQU32 (R8), Z2
	MOVL x+32(FP), AX
	VPBROADCASTD AX, Z1
	MOVL $16, AX
	VPBROADCASTD AX, Z4
	XORQ AX, AX

atlealoop:
	CMPQ CX, $16
	JB atleadone
	VMOVDQU32 (SI), Z0
	VPCMPUD $5, Z1, Z0, K1
	KORTESTW K1, K1
	JZ atleanext
	VPCOMPRESSD Z2, K1, Z3
	VMOVDQU32 Z3, (DI)(AX*4)
	KMOVW K1, BX
	POPCNTL BX, BX
	ADDQ BX, AX

atleanext:
	VPADDD Z4, Z2, Z2
	ADDQ $64, SI
	SUBQ $16, CX
	JMP atlealoop

atleadone:
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET
