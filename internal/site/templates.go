package site

import (
	"errors"
	htmltemplate "html/template"
	"io/fs"
	texttemplate "text/template"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/templates"
)

// Template file names. A directory given with Options.Templates may hold
// any of them (and report.md.tmpl); files it lacks come from the
// embedded defaults.
const (
	// PageTemplate renders a scenario's index.html from a Page.
	PageTemplate = "page.html.tmpl"
	// GalleryTemplate renders the site's index.html from a Gallery.
	GalleryTemplate = "index.html.tmpl"
	// StyleTemplate is the CSS that both HTML templates inline.
	StyleTemplate = "style.css.tmpl"
	// ReadmeTemplate renders the site's README.md from a Gallery.
	ReadmeTemplate = "index.md.tmpl"
)

// htmlTemplates are parsed together, so each may call the others.
var htmlTemplates = []string{PageTemplate, GalleryTemplate, StyleTemplate}

// overlay is a file system that serves top's files and, for names top
// does not have, base's.
type overlay struct{ top, base fs.FS }

// Open opens name from top, or from base when top does not have it.
func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return o.base.Open(name)
	}
	return f, err
}

// templateFS returns the templates to use: custom over the embedded ones.
func templateFS(custom fs.FS) fs.FS {
	if custom == nil {
		return templates.FS
	}
	return overlay{top: custom, base: templates.FS}
}

// siteTemplates holds the parsed page templates of one build.
type siteTemplates struct {
	html   *htmltemplate.Template
	readme *texttemplate.Template
}

// parseTemplates parses the HTML and README templates of fsys.
func parseTemplates(fsys fs.FS) (*siteTemplates, error) {
	h, err := htmltemplate.New(PageTemplate).Funcs(htmlFuncs()).ParseFS(fsys, htmlTemplates...)
	if err != nil {
		return nil, err
	}
	t, err := texttemplate.New(ReadmeTemplate).Funcs(report.Funcs()).ParseFS(fsys, ReadmeTemplate)
	if err != nil {
		return nil, err
	}
	return &siteTemplates{html: h, readme: t}, nil
}

// htmlFuncs are the functions the HTML templates may call: count, fixed,
// pct, times and plural of report.Funcs (esc is for Markdown only; HTML
// templates escape by themselves).
func htmlFuncs() htmltemplate.FuncMap {
	fm := htmltemplate.FuncMap{}
	for name, f := range report.Funcs() {
		if name != "esc" && name != "dest" {
			fm[name] = f
		}
	}
	return fm
}
