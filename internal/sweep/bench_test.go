package sweep_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

// exampleStudy parses scenarios/<name>.yaml with its sweep and seeds.
func exampleStudy(tb testing.TB, name string) (*sim.Scenario, sweep.Plan) {
	tb.Helper()
	dir := filepath.Join("..", "..", "scenarios")
	src, err := os.ReadFile(filepath.Join(dir, name+".yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	s, plan, err := scenario.ParseStudy(name+".yaml", src, scenario.Options{
		ReadFile: func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) }})
	if err != nil {
		tb.Fatal(err)
	}
	return s, plan
}

// BenchmarkExecute times every replay of the example sweeps: points-sweep
// (9 values × 20 seeds × 10⁵ keys, two rules, one step) and grow-64 (20
// seeds × 10⁵ keys, three rules, eight steps). Besides wall time it
// reports cpu-ns/op, the process's user and system time per Execute,
// which a loaded machine disturbs less.
func BenchmarkExecute(b *testing.B) {
	for _, tc := range []struct{ name, size string }{
		{"points-sweep", "values=9/seeds=20/keys=1e5"},
		{"grow-64", "values=1/seeds=20/keys=1e5"},
	} {
		s, plan := exampleStudy(b, tc.name)
		b.Run(tc.name+"/"+tc.size, func(b *testing.B) {
			cpu0, ok := processCPU()
			for b.Loop() {
				if _, err := sweep.Execute(s, plan, sweep.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, _ := processCPU(); ok {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// fullReplay is the reference Execute: every variant replayed in full on
// its own with sim.Replay, its own key set and every rule.
func fullReplay(t *testing.T, base *sim.Scenario, p sweep.Plan) (runs [][]sweep.Run, starts [][]timeline.State) {
	t.Helper()
	runs, starts = make([][]sweep.Run, p.Points()), make([][]timeline.State, p.Points())
	for i := range runs {
		for j := range p.SeedCount() {
			r, err := sim.Replay(p.Scenario(base, i, j))
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = append(runs[i], sweep.Summarize(r))
			if j == 0 {
				starts[i] = r.Timeline.States[:min(len(r.Timeline.States), 2)]
			}
		}
	}
	return runs, starts
}

// TestExecuteIsFullReplay checks that Execute, which shares key sets
// and replays a rule the parameter leaves alone once per seed, gives
// exactly the figures of replaying every variant in full: every Metrics
// value, the live counts, seeds and starting states, bit for bit. The
// example sweeps run as written (every value, rule and step) on 10⁴ keys
// and 4 seeds rather than 10⁵ and 20, to keep the reference quick; the
// plans after them cover every parameter, with rules it changes and
// rules it does not, and rules that hash the keys under hashes other
// than the canonical one, whose hashes and orders the replays of a seed
// share.
func TestExecuteIsFullReplay(t *testing.T) {
	type tc struct {
		name string
		s    *sim.Scenario
		p    sweep.Plan
	}
	var cases []tc
	for _, name := range []string{"points-sweep", "grow-64"} {
		s, p := exampleStudy(t, name)
		s.Keys.Count, p.Seeds = 10_000, 4
		cases = append(cases, tc{name, s, p})
	}
	mixed := func(kinds ...string) *sim.Scenario {
		s := &sim.Scenario{Name: "mixed", Title: "Mixed", Seed: 7, Keys: keys.KeySpec{Count: 3000}, Nodes: sweep.GeneratedNodes(5), Replicas: 1,
			Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "extra"}}}, {Op: timeline.OpRemove, Nodes: []timeline.NodeSpec{{Name: "node-2"}}}}}
		for _, k := range kinds {
			s.Rules = append(s.Rules, placer.RuleSpec{Kind: k})
		}
		return s
	}
	hashed := func(s *sim.Scenario, hs ...string) *sim.Scenario {
		for i, h := range hs {
			s.Rules[i].Hash = h
		}
		return s
	}
	cases = append(cases,
		tc{"vnodes", mixed("ring", "ketama", "ring", "modulo"), sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 8, 40}, Seeds: 3}},
		tc{"vnodes, hashes", hashed(mixed("ring", "ring", "bounded", "jump"), "xxhash64", "crc32", "md5", "xxhash64"), sweep.Plan{Param: sweep.VNodes, Values: []float64{2, 30}, Seeds: 2}},
		tc{"m, hashes", hashed(mixed("maglev", "maglev", "rendezvous"), "md5", "xxhash64", "xxhash64"), sweep.Plan{Param: sweep.M, Values: []float64{13, 307}, Seeds: 2}},
		tc{"nodes, hashes", hashed(mixed("ketama", "rendezvous", "jump", "multiprobe"), "", "xxhash64", "crc32", "md5"), sweep.Plan{Param: sweep.Nodes, Values: []float64{3, 7}, Seeds: 2}},
		tc{"m", mixed("maglev", "jump", "rendezvous"), sweep.Plan{Param: sweep.M, Values: []float64{7, 31, 101}, Seeds: 2}},
		tc{"epsilon", mixed("bounded", "ring"), sweep.Plan{Param: sweep.Epsilon, Values: []float64{0.1, 0.5}, Seeds: 3}},
		tc{"nodes", mixed("ring", "ketama"), sweep.Plan{Param: sweep.Nodes, Values: []float64{3, 6}, Seeds: 2}},
		tc{"replicas", mixed("ring", "rendezvous"), sweep.Plan{Param: sweep.Replicas, Values: []float64{1, 3}, Seeds: 2}},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := sweep.Execute(c.s, c.p, sweep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			runs, starts := fullReplay(t, c.s, c.p)
			for i := range runs {
				for j := range runs[i] {
					if !reflect.DeepEqual(got.Runs[i][j], runs[i][j]) {
						t.Errorf("value %d, seed %d:\n got %+v\nwant %+v", i, j, got.Runs[i][j], runs[i][j])
					}
				}
			}
			if !reflect.DeepEqual(got.Starts, starts) {
				t.Errorf("starting states differ")
			}
			if want := sim.LabelRules(c.s.Rules); !reflect.DeepEqual(got.Rules, want) {
				t.Errorf("rules %+v, want %+v", got.Rules, want)
			}
		})
	}
}
