package build

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/workers"
)

// exampleInputs reads the example scenarios of the repository.
func exampleInputs(t *testing.T) []Input {
	t.Helper()
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	var ins []Input
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(f)
		ins = append(ins, Input{Path: f, Src: src, ReadFile: func(rel string) ([]byte, error) {
			return os.ReadFile(filepath.Join(dir, rel))
		}})
	}
	return ins
}

// fewerSeeds returns ins with each "seeds: N" line above n made
// "seeds: n", and fails the test unless one was.
func fewerSeeds(t *testing.T, ins []Input, n int) []Input {
	t.Helper()
	line := regexp.MustCompile(`(?m)^seeds: (\d+)$`)
	out, cut := slices.Clone(ins), 0
	for i, in := range out {
		out[i].Src = line.ReplaceAllFunc(in.Src, func(l []byte) []byte {
			if v, _ := strconv.Atoi(string(line.FindSubmatch(l)[1])); v > n {
				cut++
				return fmt.Appendf(nil, "seeds: %d", n)
			}
			return l
		})
	}
	if cut == 0 {
		t.Fatalf("no example has more than %d seeds", n)
	}
	return out
}

// smallInputs are two quick scenarios.
func smallInputs() []Input {
	return []Input{
		{Path: "grow.yaml", Src: []byte("title: Grow <b>bold</b>\nkeys: 200\nnodes: [a, b]\nsteps:\n  - add: c\n  - remove: a\n")},
		{Path: "shrink.yaml", Src: []byte("title: Shrink\nkeys: 100\nnodes: [a, b, c]\nsteps:\n  - remove: b\n")},
	}
}

func fileMap(t *testing.T, files []File) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, f := range files {
		m[f.Path] = f.Data
	}
	return m
}

// fewerKeys returns ins with each key count above n ("keys: N" or
// "keys: {count: N, …}") made n, and fails the test unless one was.
func fewerKeys(t *testing.T, ins []Input, n int) []Input {
	t.Helper()
	count := regexp.MustCompile(`(?m)^(keys: (?:\{count: )?)(\d+)`)
	out, cut := slices.Clone(ins), 0
	for i, in := range out {
		out[i].Src = count.ReplaceAllFunc(in.Src, func(l []byte) []byte {
			m := count.FindSubmatch(l)
			if v, _ := strconv.Atoi(string(m[2])); v > n {
				cut++
				return fmt.Appendf(nil, "%s%d", m[1], n)
			}
			return l
		})
	}
	if cut == 0 {
		t.Fatalf("no example has more than %d keys", n)
	}
	return out
}

// TestJobsDoNotChangeOutput builds the examples sequentially and on four
// goroutines and compares every byte, and the failed expectations. It
// goes through every place that work runs side by side: scenarios on the
// pool, each scenario's figures beside its sweep and its data files
// beside its model (both), the rules of a replay, a sweep's and seeds'
// variants, the step figures; every rule and option of the examples is
// in it. Their seeds: are cut to 3 (fewerSeeds): 3 seeds of
// points-sweep's 9 values are 27 replays to share out, as many more as
// 20 seeds would be for what the test checks. Their keys are cut to
// 5,000 (fewerKeys), which still draws strips of several keys a cell and
// no key dots, as the examples do; where work is split depends on the
// key count only in the key set's hashing, from 2¹⁷ keys, which neither
// size reaches. The test took 2.6–3.0 s of CPU at full size, 1.3–1.8 at
// 5,000 keys.
func TestJobsDoNotChangeOutput(t *testing.T) {
	ins := fewerKeys(t, fewerSeeds(t, exampleInputs(t), 3), 5000)
	one, errOne := Build(ins, Options{Jobs: 1})
	var failed ExpectationsFailed
	if errOne != nil && !errors.As(errOne, &failed) {
		t.Fatal(errOne)
	}
	calls := 0
	four, errFour := Build(ins, Options{Jobs: 4, Progress: func(done, total int, name string) {
		calls++
		if done != calls || total != len(ins) || name == "" {
			t.Errorf("Progress(%d, %d, %q) at call %d", done, total, name, calls)
		}
	}})
	if fmt.Sprint(errFour) != fmt.Sprint(errOne) {
		t.Fatalf("-j 1 returned %v, -j 4 %v", errOne, errFour)
	}
	if calls != len(ins) {
		t.Errorf("Progress called %d times, want %d", calls, len(ins))
	}
	if len(one) != len(four) {
		t.Fatalf("-j 1 wrote %d files, -j 4 %d", len(one), len(four))
	}
	for i := range one {
		if one[i].Path != four[i].Path || !bytes.Equal(one[i].Data, four[i].Data) {
			t.Errorf("%s differs between -j 1 and -j 4", one[i].Path)
		}
	}
}

func TestBuildWritesSite(t *testing.T) {
	files, err := Build(smallInputs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := fileMap(t, files)
	for _, p := range []string{"index.html", "README.md", "grow/index.html", "grow/report.md", "grow/history.svg", "shrink/index.html"} {
		if _, ok := m[p]; !ok {
			t.Errorf("no %s", p)
		}
	}
	page := string(m["grow/index.html"])
	for _, want := range []string{
		`<title>Grow &lt;b&gt;bold&lt;/b&gt; · ringreport</title>`,
		`href="../index.html"`, `rel="next" href="../shrink/index.html"`,
		`<h2 id="step-1">Step 1: add c</h2>`, `href="#step-2"`,
		`<figure class="fig fig-history" id="fig-history" tabindex="0" aria-label="`, `<figcaption>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("grow/index.html lacks %q", want)
		}
	}
	if strings.Contains(page, "<b>bold") || strings.Contains(page, "<?xml") || strings.Contains(page, "<img") {
		t.Errorf("grow/index.html has raw HTML, an XML prolog or an <img>")
	}
	if s := string(m["shrink/index.html"]); !strings.Contains(s, `rel="prev" href="../grow/index.html"`) || strings.Contains(s, `rel="next"`) {
		t.Errorf("shrink/index.html: wrong prev/next links")
	}
	idx := string(m["index.html"])
	if !strings.Contains(idx, `href="grow/index.html"`) || !strings.Contains(idx, "<svg") {
		t.Errorf("index.html lacks a card with a thumbnail for grow")
	}
	readme := string(m["README.md"])
	for _, want := range []string{`## [Grow \<b\>bold\</b\>](grow/report.md)`, `[![`, `](grow/history.svg)](grow/report.md)`} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q:\n%s", want, readme)
		}
	}
}

// TestCustomTemplates replaces one template and keeps the others.
func TestCustomTemplates(t *testing.T) {
	custom := fstest.MapFS{
		site.PageTemplate: {Data: []byte(`<!DOCTYPE html><title>{{.Title}}</title><p class="custom">{{.Finding}}</p>{{.Body}}`)},
	}
	files, err := Build(smallInputs(), Options{Templates: custom})
	if err != nil {
		t.Fatal(err)
	}
	m := fileMap(t, files)
	if page := string(m["grow/index.html"]); !strings.HasPrefix(page, `<!DOCTYPE html><title>Grow`) || !strings.Contains(page, `<p class="custom">Over 2 membership changes`) {
		t.Errorf("grow/index.html does not come from the custom template:\n%.300s", page)
	}
	if !strings.Contains(string(m["index.html"]), `class="cards"`) {
		t.Errorf("index.html does not fall back to the embedded template")
	}
	if !strings.HasPrefix(string(m["grow/report.md"]), "# Grow") {
		t.Errorf("report.md does not fall back to the embedded template")
	}
}

func TestBadCustomTemplate(t *testing.T) {
	custom := fstest.MapFS{site.GalleryTemplate: {Data: []byte(`{{.Nope`)}}
	_, err := Build(smallInputs(), Options{Templates: custom})
	if err == nil || !strings.Contains(err.Error(), "index.html.tmpl") {
		t.Errorf("Build with a broken template: err = %v, want one naming index.html.tmpl", err)
	}
}

// TestStream: Stream emits every file Build returns exactly once, with
// the same contents, and stops at the first error emit returns.
func TestStream(t *testing.T) {
	ins := smallInputs()
	built, err := Build(ins, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := fileMap(t, built)
	got := map[string][]byte{}
	err = Stream(ins, Options{Jobs: 2}, func(f File) error {
		if _, dup := got[f.Path]; dup {
			t.Errorf("%s emitted twice", f.Path)
		}
		got[f.Path] = f.Data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("Stream emitted %d files, Build returned %d", len(got), len(want))
	}
	for p, data := range want {
		if !bytes.Equal(got[p], data) {
			t.Errorf("%s differs between Stream and Build", p)
		}
	}
	full := errors.New("disk full")
	calls := 0
	err = Stream(ins, Options{}, func(File) error { calls++; return full })
	if !errors.Is(err, full) || calls != 1 {
		t.Errorf("Stream after a failing emit: %v after %d calls, want the emit error after 1", err, calls)
	}
}

// TestBoth: a panic in one of a scenario's side-by-side stages becomes
// that stage's error instead of ending the process, and with a pool of
// one (-j 1) the two stages run one after the other on the caller's
// goroutine.
func TestBoth(t *testing.T) {
	err, ok := both(func() error { panic("boom") }, func() error { return nil })
	if err == nil || !strings.Contains(err.Error(), "internal error (please report it): boom") {
		t.Errorf("a panic became %v", err)
	}
	if ok != nil {
		t.Errorf("no panic, yet %v", ok)
	}
	workers.SetLimit(1)
	defer workers.SetLimit(runtime.GOMAXPROCS(0))
	var first atomic.Bool
	var order []string
	both(func() error {
		order = append(order, "a")
		time.Sleep(10 * time.Millisecond)
		first.Store(true)
		return nil
	}, func() error {
		order = append(order, fmt.Sprint("b after a: ", first.Load()))
		return nil
	})
	if want := []string{"a", "b after a: true"}; !slices.Equal(order, want) {
		t.Errorf("with -j 1, both ran %q, want %q", order, want)
	}
}

// TestTransfersCSVBesideData: a small scenario's folder has transfers.csv
// and its page links it; one whose pair matrix passes
// report.TransfersCSVLimit (modulo reshuffling 100 nodes at 24 steps,
// about 7 MB) has neither, and its data.json stays small.
func TestTransfersCSVBesideData(t *testing.T) {
	ins := append(smallInputs(), Input{Path: "big.yaml", Src: scaleScenario(100_000, 100, 24, "[modulo]")})
	files, err := Build(ins, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := fileMap(t, files)
	if !bytes.HasPrefix(m["grow/transfers.csv"], []byte("step,rule,from,to,keys,requests\n1,ring,")) {
		t.Errorf("grow/transfers.csv:\n%s", m["grow/transfers.csv"])
	}
	if !strings.Contains(string(m["grow/index.html"]), `<a href="transfers.csv">`) {
		t.Errorf("grow/index.html does not link transfers.csv")
	}
	if _, ok := m["big/transfers.csv"]; ok {
		t.Errorf("big/transfers.csv written past the limit")
	}
	if strings.Contains(string(m["big/index.html"]), `transfers.csv`) {
		t.Errorf("big/index.html links a transfers.csv it does not have")
	}
	if n := len(m["big/data.json"]); n > 1<<20 {
		t.Errorf("big/data.json is %d bytes; bounded transfers should keep it under 1 MiB", n)
	}
}

// TestThemes: the figure files take opts.Theme, on an opaque background;
// the pages do not change with it and inline the theme-following form;
// a page that links its step figures links copies of that form in page/.
func TestThemes(t *testing.T) {
	light, err := Build(smallInputs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dark, err := Build(smallInputs(), Options{Theme: svg.Dark, InlineBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	l, d := fileMap(t, light), fileMap(t, dark)
	if !bytes.Contains(l["grow/history.svg"], []byte("rr-bg{fill:#FFFFFF}")) || !bytes.Contains(d["grow/history.svg"], []byte("rr-bg{fill:#16181D}")) {
		t.Errorf("history.svg is not light by default and dark with Theme: svg.Dark")
	}
	page := string(d["grow/index.html"])
	if !strings.Contains(page, "prefers-color-scheme: dark") || strings.Contains(page, "rr-bg") {
		t.Errorf("the page does not inline the theme-following form")
	}
	if _, ok := l["grow/page/step-1-rings.svg"]; ok {
		t.Errorf("an inlining page has page/ copies")
	}
	linked := d["grow/page/step-1-rings.svg"]
	if !strings.Contains(page, `<img src="page/step-1-rings.svg"`) || !bytes.Contains(linked, []byte("prefers-color-scheme: dark")) || bytes.Contains(linked, []byte("rr-bg")) {
		t.Errorf("a linking page should show page/step-1-rings.svg in the page's form")
	}
}

// TestBuildEach checks that BuildEach returns, for each set of options,
// the files Build returns with it, byte for byte, from one replay: the
// sets of TestThemes, whose every figure file and page differ.
func TestBuildEach(t *testing.T) {
	opts := []Options{{}, {Theme: svg.Dark, InlineBudget: 1}}
	each, err := BuildEach(smallInputs(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(each) != len(opts) {
		t.Fatalf("BuildEach returned %d sites for %d option sets", len(each), len(opts))
	}
	for k, o := range opts {
		want, err := Build(smallInputs(), o)
		if err != nil {
			t.Fatal(err)
		}
		got := each[k]
		if len(got) != len(want) {
			t.Errorf("site %d: BuildEach wrote %d files, Build %d", k, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].Path != want[i].Path || !bytes.Equal(got[i].Data, want[i].Data) {
				t.Errorf("site %d: BuildEach's %s is not Build's %s", k, got[i].Path, want[i].Path)
			}
		}
	}
	if _, err := BuildEach(smallInputs(), Options{}, Options{Jobs: 3}); err == nil {
		t.Errorf("BuildEach took option sets of different Jobs")
	}
}

// TestStepsFold checks that every step section of a page is a <details>
// whose summary holds the step's heading, with its stable id, and its
// sentence, and whose body holds the rest of the section.
func TestStepsFold(t *testing.T) {
	files, err := Build(smallInputs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(fileMap(t, files)["grow/index.html"])
	steps := strings.Split(page, `<details class="step">`)[1:]
	if len(steps) != 3 {
		t.Fatalf("%d folded steps, want 3 (steps 0 to 2)", len(steps))
	}
	for i, s := range steps {
		head := fmt.Sprintf(`<summary><h2 id="step-%d">Step %d: `, i, i)
		body, _, ok := strings.Cut(s, "</details>")
		switch {
		case !strings.HasPrefix(s, "\n"+head):
			t.Errorf("step %d does not open with %q:\n%.200s", i, head, s)
		case !strings.Contains(body, `<span class="story">`) || !strings.Contains(body, `</span></summary>`):
			t.Errorf("step %d: no sentence in the summary:\n%.400s", i, s)
		case !ok || !strings.Contains(body, `<div class="step-body">`) || !strings.Contains(body, "Members after the step"):
			t.Errorf("step %d: its section is not inside the details:\n%.400s", i, s)
		}
	}
}
