package scenario

import (
	"slices"
	"testing"
)

// TestWeightedKeys: a .csv keys file (or weights: true) gives key,weight
// lines, the header skipped, keys taken up to the last comma; weights:
// false reads a .csv as plain keys; zipf and requests reach the KeySpec.
func TestWeightedKeys(t *testing.T) {
	files := map[string]string{
		"k.csv": "Key, Weight\r\nuser:1,5\n\nhost,a,b, 7 \nz,0\n",
		"k.txt": "user:1,5\nx,3\n",
	}
	read := func(rel string) ([]byte, error) { return []byte(files[rel]), nil }
	check := func(t *testing.T, keys string, list []string, weights []uint32) {
		t.Helper()
		s, err := Parse("w.yaml", []byte("title: T\nkeys: "+keys+"\nnodes: [a]\n"), Options{ReadFile: read})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.Keys.List, list) || !slices.Equal(s.Keys.Weights, weights) {
			t.Fatalf("keys %s: list %q weights %v; want %q %v", keys, s.Keys.List, s.Keys.Weights, list, weights)
		}
	}
	check(t, "{file: k.csv}", []string{"user:1", "host,a,b", "z"}, []uint32{5, 7, 0})
	check(t, "{file: k.txt, weights: true}", []string{"user:1", "x"}, []uint32{5, 3})
	check(t, "{file: k.txt}", []string{"user:1,5", "x,3"}, nil)
	check(t, "{file: k.csv, weights: false}", []string{"Key, Weight", "user:1,5", "host,a,b, 7 ", "z,0"}, nil)
	s, err := Parse("z.yaml", []byte("title: T\nkeys: {count: 10, zipf: 1.1, requests: 5000}\nnodes: [a]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Keys.Zipf != 1.1 || s.Keys.Requests != 5000 || !s.Keys.Weighted() {
		t.Fatalf("zipf keys: %+v", s.Keys)
	}
}
