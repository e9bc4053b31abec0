package svg

import (
	"encoding/xml"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// numRef is num as it was written first, through strconv: the reference
// appendNum must match byte for byte.
func numRef(x float64) string {
	r := math.Round(x*100) / 100
	if r == 0 {
		return "0"
	}
	s := strconv.FormatFloat(r, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

func num1Ref(x float64) string { return numRef(round1(x)) }

func TestNumMatchesStrconv(t *testing.T) {
	t.Parallel()
	check := func(x float64) {
		t.Helper()
		if got, want := num(x), numRef(x); got != want {
			t.Fatalf("num(%v) = %q, want %q", x, got, want)
		}
		if got, want := num1(x), num1Ref(x); got != want {
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
