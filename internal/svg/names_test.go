package svg

import (
	"slices"
	"testing"
)

func TestShortNames(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
		suffix   string
	}{
		{[]string{"10.0.0.1:11211", "10.0.0.16:11211"}, []string{"10.0.0.1", "10.0.0.16"}, ":11211"},
		{[]string{"a.example.com", "b.example.com"}, []string{"a", "b"}, ".example.com"},
		{[]string{"cache-1", "cache-2"}, []string{"cache-1", "cache-2"}, ""},
		{[]string{"a:1", "b:1"}, []string{"a:1", "b:1"}, ""},               // too short to be worth it
		{[]string{":11211", "x:11211"}, []string{":11211", "x:11211"}, ""}, // a name would vanish
		{[]string{"solo:11211"}, []string{"solo:11211"}, ""},
	} {
		got, suffix := shortNames(tc.in)
		if !slices.Equal(got, tc.want) || suffix != tc.suffix {
			t.Errorf("shortNames(%q) = %q, %q; want %q, %q", tc.in, got, suffix, tc.want, tc.suffix)
		}
	}
}
