package build

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/sweep"
)

// Input is one scenario file.
type Input struct {
	// Path names the file in error messages.
	Path string
	// Src is the file's contents.
	Src []byte
	// ReadFile reads a keys file named relative to the scenario's folder.
	ReadFile func(rel string) ([]byte, error)
	// Limits bounds the scenario (see scenario.Limits); zero fields take
	// scenario.DefaultLimits.
	Limits scenario.Limits
}

// Parsed is one parsed scenario: what to replay, and the variants its
// sweep: and seeds: ask for (a zero Plan when it has neither).
type Parsed struct {
	Scenario *sim.Scenario
	Plan     sweep.Plan
}

// Parse is the first stage: it parses every input and checks that their
// output folders can live side by side, and returns all problems of all
// files at once.
func Parse(inputs []Input) ([]Parsed, error) {
	out := make([]Parsed, len(inputs))
	var errs []error
	names := map[string]string{}  // output name → file
	folded := map[string]string{} // folderKey → output name
	for i, in := range inputs {
		s, plan, err := scenario.ParseStudy(in.Path, in.Src, scenario.Options{ReadFile: in.ReadFile, Limits: in.Limits})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		key, file := folderKey(s.Name), scenario.FileName(in.Path)
		switch prev, dup := names[s.Name]; {
		case slices.ContainsFunc(site.SiteFiles, func(f string) bool { return folderKey(f) == key }):
			errs = append(errs, fmt.Errorf("%s: output name %q is taken by the site's own %s; rename the file", file, s.Name, siteFile(key)))
		case dup:
			errs = append(errs, fmt.Errorf("%s: output name %q is already used by %s; rename one of the files", file, s.Name, scenario.FileName(prev)))
		case folded[key] != "":
			other := folded[key]
			errs = append(errs, fmt.Errorf("%s: output name %q and %q of %s are one folder on macOS and Windows, which ignore case (and a final dot); rename one of the files", file, s.Name, other, scenario.FileName(names[other])))
		}
		names[s.Name] = in.Path
		if folded[key] == "" {
			folded[key] = s.Name
		}
		out[i] = Parsed{Scenario: s, Plan: plan}
	}
	return out, errors.Join(errs...)
}

// scenarios lists the parsed scenarios.
func scenarios(ps []Parsed) []*sim.Scenario {
	out := make([]*sim.Scenario, len(ps))
	for i, p := range ps {
		out[i] = p.Scenario
	}
	return out
}

// folderKey is the name a case-insensitive file system (macOS's, Windows')
// sees: Unicode case folded, and on Windows a final dot or space ignored.
func folderKey(name string) string {
	return strings.ToLower(strings.TrimRight(name, ". "))
}

// siteFile is the site file whose folderKey is key.
func siteFile(key string) string {
	for _, f := range site.SiteFiles {
		if folderKey(f) == key {
			return f
		}
	}
	return key
}
