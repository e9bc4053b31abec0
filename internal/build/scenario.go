package build

import (
	"fmt"
	"runtime/debug"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/workers"
)

// built is one scenario through the replay, model and render stages,
// ready for the site stage.
type built struct {
	site.Scenario
	// data are the files that need no figures: data.json, steps.csv,
	// transfers.csv within its limit and migrations.csv with compare:.
	data []File
	// failed lists the scenario's failed expectations.
	failed ExpectationsFailed
}

// scenarioFiles replays p, and the variants its plan asks for, and
// renders its figures, model and data files, on the worker pool (the
// variants' replays draw from it too, so -j bounds them all at once). A
// panic below it is a bug; it becomes this scenario's error, so that the
// other scenarios still report and the command exits cleanly.
func scenarioFiles(p Parsed, opts Options) (b *built, err error) {
	s := p.Scenario
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("%s: internal error (please report it): %v\n%s", s.Name, r, debug.Stack())
		}
	}()
	res, err := sim.Replay(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if b, err = render(s.Name, res, p.Plan); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return b, nil
}

// render draws the replayed scenario's figures, runs the variants its
// plan asks for, builds the report model and renders the data files.
// Figures are drawn while the variants replay, and the data files, which
// need neither, render beside the model, each pair on the worker pool
// (see both), so that -j bounds them too.
func render(name string, res *sim.Result, plan sweep.Plan) (*built, error) {
	var figs []svg.Figure
	var study *sweep.Result
	figErr, err := both(func() (err error) {
		figs, err = figures(res)
		return err
	}, func() (err error) {
		if plan.Active() {
			study, err = sweep.Execute(res.Scenario, plan, sweep.Options{})
		}
		return err
	})
	switch {
	case figErr != nil:
		return nil, fmt.Errorf("cannot draw figures: %w", figErr)
	case err != nil:
		return nil, err
	}
	figs = append(figs, svg.SweepFigures(study)...)
	// Only figures read the per-step geometry and strips: dropping them
	// now frees O(points × steps) memory before the model is built.
	lean := res.WithoutFigureData()
	var data []report.File
	var rep *report.Report
	dataErr, err := both(func() (err error) {
		data, err = dataFiles(res, study)
		return err
	}, func() (err error) {
		rep, err = report.Build(lean, figs)
		return err
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot build the report: %w", err)
	case dataErr != nil:
		return nil, dataErr
	}
	b := &built{Scenario: site.Scenario{Name: name, Report: rep, Figures: figs, Study: study}, failed: failedExpectations(name, lean)}
	for _, f := range data {
		b.data = append(b.data, File{Path: name + "/" + f.Name, Data: f.Data})
		b.TransfersCSV = b.TransfersCSV || f.Name == site.TransfersCSV
	}
	return b, nil
}

// figures draws the replay's whole-run figures and the step figures of
// the steps its report shows in full (figdata.ShownSteps): past
// figdata.DetailedSteps steps, not every step's.
func figures(res *sim.Result) ([]svg.Figure, error) {
	return svg.FiguresOf(res, figdata.StepsOf(figdata.ShownSteps(res)))
}

// both runs a and b side by side when the process-wide worker pool lends
// a goroutine, else one after the other on the caller's, and returns
// their errors. A panic in either becomes its error, as one below
// scenarioFiles does, so that a bug stays one scenario's error.
func both(a, b func() error) (errA, errB error) {
	fs := [2]func() error{a, b}
	var errs [2]error
	workers.Each(2, func(i int) { errs[i] = catching(fs[i]) })
	return errs[0], errs[1]
}

// catching calls f and turns a panic in it into an error.
func catching(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error (please report it): %v\n%s", p, debug.Stack())
		}
	}()
	return f()
}

// dataFiles renders data.json and steps.csv, which need no figures, and
// transfers.csv while it stays within report.TransfersCSVLimit.
func dataFiles(res *sim.Result, study *sweep.Result) ([]report.File, error) {
	js, err := report.JSONStudy(res, study)
	if err != nil {
		return nil, err
	}
	csv, err := report.CSV(res)
	if err != nil {
		return nil, err
	}
	files := []report.File{{Name: "data.json", Data: js}, {Name: "steps.csv", Data: csv}}
	tr, ok, err := report.TransfersCSV(res)
	if err != nil {
		return nil, err
	}
	if ok {
		files = append(files, report.File{Name: site.TransfersCSV, Data: tr})
	}
	mig, err := report.MigrationsCSV(res)
	if err != nil || mig == nil {
		return files, err
	}
	return append(files, report.File{Name: "migrations.csv", Data: mig}), nil
}
