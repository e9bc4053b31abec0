package build

import (
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/site"
)

// TestNameCollision checks that two files with the same output name are
// an error rather than one overwriting the other.
func TestNameCollision(t *testing.T) {
	ins := []Input{
		{Path: "a b.yaml", Src: []byte("title: A\nkeys: 10\nnodes: [a]\n")},
		{Path: "a-b.yaml", Src: []byte("title: B\nkeys: 10\nnodes: [a]\n")},
	}
	_, err := Build(ins, Options{})
	if err == nil || !strings.Contains(err.Error(), `a-b.yaml: output name "a-b" is already used by a b.yaml`) {
		t.Errorf("Build = %v, want a collision error", err)
	}
}

// TestNameCollisionIgnoringCase: what a build would refuse, or what would
// overwrite another folder on macOS and Windows, Parse (and so validate)
// refuses up front: a scenario named after a site file in any case, and
// two names that differ only in case or a final dot.
func TestNameCollisionIgnoringCase(t *testing.T) {
	src := []byte("title: A\nkeys: 10\nnodes: [a]\n")
	for _, tt := range []struct {
		files []string
		want  string // "" when Parse must succeed
	}{
		{[]string{"index.html.yaml"}, `index.html.yaml: output name "index.html" is taken by the site's own index.html; rename the file`},
		{[]string{"s/README.md.yaml"}, `s/README.md.yaml: output name "README.md" is taken by the site's own README.md; rename the file`},
		{[]string{"readme.MD.yml"}, `readme.MD.yml: output name "readme.MD" is taken by the site's own README.md; rename the file`},
		{[]string{"Index.HTML..yaml"}, `output name "Index.HTML." is taken by the site's own index.html`},
		{[]string{"a/Ring.yaml", "b/ring.yaml"}, `b/ring.yaml: output name "ring" and "Ring" of a/Ring.yaml are one folder on macOS and Windows, which ignore case (and a final dot); rename one of the files`},
		{[]string{"x.yaml", "x..yaml"}, `x..yaml: output name "x." and "x" of x.yaml are one folder`},
		{[]string{"index.yaml", "readme.yaml", "index-html.yaml", "ring.yaml", "ring2.yaml"}, ""},
	} {
		var ins []Input
		for _, f := range tt.files {
			ins = append(ins, Input{Path: f, Src: src})
		}
		_, err := Parse(ins)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Parse(%q) = %v, want no error", tt.files, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Parse(%q) = %v, want %q", tt.files, err, tt.want)
		}
	}
}

// TestSiteFiles: every file a build writes at the top of the output
// folder is in site.SiteFiles, so that Parse keeps scenarios off its name.
func TestSiteFiles(t *testing.T) {
	files, err := Build([]Input{{Path: "ring.yaml", Src: []byte("title: A\nkeys: 10\nnodes: [a]\n")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.Contains(f.Path, "/") && !slices.Contains(site.SiteFiles, f.Path) {
			t.Errorf("the build writes %s at the top, which site.SiteFiles lacks", f.Path)
		}
	}
}
