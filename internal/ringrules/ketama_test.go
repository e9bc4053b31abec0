package ringrules

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// ketamaServers is libketama's own test server list, ketama.servers in
// github.com/RJ/ketama (server, memory as weight).
var ketamaServers = []timeline.NodeSpec{
	{Name: "10.0.1.1:11211", Weight: 600}, {Name: "10.0.1.2:11211", Weight: 300}, {Name: "10.0.1.3:11211", Weight: 200}, {Name: "10.0.1.4:11211", Weight: 350},
	{Name: "10.0.1.5:11211", Weight: 1000}, {Name: "10.0.1.6:11211", Weight: 800}, {Name: "10.0.1.7:11211", Weight: 950}, {Name: "10.0.1.8:11211", Weight: 100},
}

// newKetamaFor builds a ketama placer over the given servers, all live.
func newKetamaFor(t *testing.T, servers []timeline.NodeSpec) (*Ketama, *timeline.State) {
	t.Helper()
	e := &placer.Env{Keys: keys.NewKeySet(keys.KeySpec{Count: 1}, 1)}
	st := &timeline.State{Op: timeline.OpStart, Replicas: 1}
	for i, s := range servers {
		e.Nodes = append(e.Nodes, s.Name)
		st.Members = append(st.Members, timeline.Member{ID: timeline.NodeID(i), Weight: s.Weight})
	}
	k, err := newKetama(placer.RuleSpec{Kind: "ketama"}, e)
	if err != nil {
		t.Fatal(err)
	}
	k.Update(st)
	return k, st
}

// TestKetamaLibketamaHarness reproduces libketama's own regression test
// (github.com/RJ/ketama libketama/test.sh and ketama_test.c): over
// ketama.servers, print ketama_error() (empty) and then, for the keys
// "0" … "999999", "%u %u %s\n" of the key's hash, the continuum point it
// lands on and that point's server; the MD5 of the whole output must be
// 5672b131391f5aa2b280936aec1eea74.
func TestKetamaLibketamaHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes a million keys")
	}
	k, _ := newKetamaFor(t, ketamaServers)
	out := bytes.NewBuffer(make([]byte, 0, 40<<20))
	out.WriteByte('\n')
	var key, line []byte
	for i := range 1000000 {
		key = strconv.AppendInt(key[:0], int64(i), 10)
		h := keys.HashMD5.Sum32(key)
		pt := k.R.Pts[k.R.First(h)]
		line = strconv.AppendUint(line[:0], uint64(h), 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, uint64(pt.Pos), 10)
		line = append(append(append(line, ' '), k.R.Env.Nodes[pt.Node]...), '\n')
		out.Write(line)
	}
	sum := md5.Sum(out.Bytes())
	if got := hex.EncodeToString(sum[:]); got != "5672b131391f5aa2b280936aec1eea74" {
		t.Errorf("libketama harness output hashes to %s, want 5672b131391f5aa2b280936aec1eea74", got)
	}
}

// TestKetamaPoints: equal weights give 160 points per server, from
// MD5("name-k"); libketama's float arithmetic gives the counts it gives.
func TestKetamaPoints(t *testing.T) {
	servers := []timeline.NodeSpec{{Name: "127.0.0.1:11211", Weight: 1}, {Name: "127.0.0.1:11212", Weight: 1}, {Name: "127.0.0.1:11213", Weight: 1}}
	k, _ := newKetamaFor(t, servers)
	if len(k.R.Pts) != 480 {
		t.Fatalf("%d points, want 480", len(k.R.Pts))
	}
	d := md5.Sum([]byte("127.0.0.1:11211-0"))
	first := uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
	found := false
	for _, p := range k.R.Pts {
		found = found || p.Pos == first && p.Node == 0
	}
	if !found {
		t.Errorf("point %d of MD5(\"127.0.0.1:11211-0\") is missing", first)
	}
	for _, c := range []struct{ w, total, n, want int }{
		{1, 3, 3, 40}, {600, 4300, 8, 44}, {100, 4300, 8, 7}, {1, 1000, 2, 0}, {1, 1, 1, 40},
	} {
		if got := KetamaCount(c.w, c.total, c.n); got != c.want {
			t.Errorf("ketamaCount(%d, %d, %d) = %d, want %d", c.w, c.total, c.n, got, c.want)
		}
	}
}
