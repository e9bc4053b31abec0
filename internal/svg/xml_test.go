package svg

import (
	"bytes"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// numRef is num as it was written first, through strconv: the reference
// appendNum must match byte for byte.
func numRef(x float64) string { return string(appendNumRef(nil, x)) }

// appendNumRef appends numRef(x): x rounded to hundredths, formatted by
// strconv with two decimals, trailing zeros and point dropped.
func appendNumRef(b []byte, x float64) []byte {
	r := math.Round(x*100) / 100
	if r == 0 {
		return append(b, '0')
	}
	b = strconv.AppendFloat(b, r, 'f', 2, 64)
	b = bytes.TrimRight(b, "0")
	return bytes.TrimSuffix(b, []byte("."))
}

func num1Ref(x float64) string { return numRef(round1(x)) }

// TestNumMatchesStrconv compares appendNum and appendNum1 with the
// strconv reference on 2.2 million numbers: every thousandth in ±200 and
// the values half a thousandth either side, every hundredth in ±2,000,
// every tenth in ±20,000, and 200,000 random numbers of up to 14
// digits. The four formatters append to buffers the test reuses, so that
// the comparisons, not the allocation of their strings, take its time;
// num and num1, which return appendNum's and appendNum1's bytes as a
// string, are compared on the special values.
func TestNumMatchesStrconv(t *testing.T) {
	t.Parallel()
	var got, want []byte
	check := func(x float64) {
		t.Helper()
		if got, want = appendNum(got[:0], x), appendNumRef(want[:0], x); !bytes.Equal(got, want) {
			t.Fatalf("num(%v) = %q, want %q", x, got, want)
		}
		if got, want = appendNum1(got[:0], x), appendNumRef(want[:0], round1(x)); !bytes.Equal(got, want) {
			t.Fatalf("num1(%v) = %q, want %q", x, got, want)
		}
	}
	for c := -200000; c <= 200000; c++ {
		x := float64(c) / 1000
		check(x)
		check(x + 0.0005)
		check(x - 0.0005)
		check(float64(c) / 100)
		check(float64(c) / 10)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check((rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(14))))
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e12, -1e12, 5e15, math.Inf(1), math.Inf(-1), math.NaN(), 0.005, 0.015, 0.045, -0.005, 1.005} {
		check(x)
		if got, want := num(x), numRef(x); got != want {
			t.Fatalf("num(%v) = %q, want %q", x, got, want)
		}
		if got, want := num1(x), num1Ref(x); got != want {
			t.Fatalf("num1(%v) = %q, want %q", x, got, want)
		}
	}
}

func TestAttrMatchesEscape(t *testing.T) {
	for _, v := range []string{"", "0 12.5 3", "a\"b", "a'b", "a&b", "<x>", "tab\there", "nl\n", "cr\r", "ü", "\xff", "#4e79a7", "url(#rr-x)", "a\\b", "\x7f"} {
		var sb strings.Builder
		sb.WriteString(`n="`)
		xml.EscapeText(&sb, []byte(v))
		sb.WriteByte('"')
		if got := attr("n", v); got != sb.String() {
			t.Errorf("attr(%q) = %q, want %q", v, got, sb.String())
		}
	}
}
