package site

// This file turns a report's Markdown into the HTML body of its page: one
// goldmark instance, configured once, with GitHub-flavoured tables, safe
// mode (raw HTML is dropped), and an AST transformer that
//
//   - replaces a paragraph that holds only an image of one of the
//     scenario's own figures (plus the italic caption paragraph after it)
//     with a figure node that renders the inline SVG in a <figure> (or,
//     on a page whose figures outgrow the inline budget, a step figure as
//     a lazily loaded <img> of its page form: see linkSteps) — once per
//     figure, other references staying images of the file,
//   - wraps every table in a horizontally scrolling region,
//   - folds every step section into a <details> whose <summary> shows
//     the step's heading and its first paragraph (the step's sentence,
//     report.StepSection.Story), so that a page of many steps reads as a
//     list of what happened, each opening on demand,
//   - gives every "Step N: ..." heading the stable id "step-N", and the
//     headings of the text before the first section (about:) ids of
//     their own, "about-...", that cannot take a section's.

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/ringreport/ringreport/internal/svg"
)

// Heading is one second-level section of a page, for its table of contents.
type Heading struct {
	// ID is the section's anchor, e.g. "step-3" or "summary".
	ID string
	// Text is the heading's plain text.
	Text string
	// Short is the text without a step heading's "Step N: " prefix.
	Short string
	// Step is the step number of a "Step N: ..." section, or -1.
	Step int
}

// markdown is the one configured goldmark instance: options are frozen on
// first use, and it is safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, &pageExtension{}),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
)

// contextKey carries a conversion's figures into the transformer and its
// headings out of it.
var (
	figuresKey  = parser.NewContextKey()
	linkKey     = parser.NewContextKey()
	headingsKey = parser.NewContextKey()
)

// DefaultInlineBudget is how many bytes of SVG a page inlines before it
// links its step figures instead (see Options.InlineBudget).
const DefaultInlineBudget = 4 << 20

// linkSteps reports whether a page with figs links its step figures
// (rings and strips, one or two per step) as images of their files
// rather than inlining them: when all its figures together exceed budget
// bytes. Inline figures cost nothing to fetch and follow the page's
// print colours, so small pages inline everything; a page of a hundred
// steps of a hundred nodes would otherwise weigh tens of megabytes, so
// it keeps its whole-run charts inline and lets the browser fetch step
// figures as they scroll into view. The decision is per page: either
// every figure is inline, or every step figure is linked.
func linkSteps(figs []svg.Figure, budget int) bool {
	total := 0
	for _, f := range figs {
		total += len(f.SVG)
	}
	return total > budget
}

// renderBody converts a report's Markdown to HTML, inlining figs (the
// scenario's figures, referenced by file name; step figures linked when
// they exceed budget bytes, see linkSteps) and returning the second-level
// headings in document order.
func renderBody(md []byte, figs []svg.Figure, budget int) (template.HTML, []Heading, error) {
	byName := make(map[string]*svg.Figure, len(figs))
	for i := range figs {
		byName[figs[i].Name] = &figs[i]
	}
	pc := parser.NewContext()
	pc.Set(figuresKey, byName)
	pc.Set(linkKey, linkSteps(figs, budget))
	var buf bytes.Buffer
	if err := markdown.Convert(md, &buf, parser.WithContext(pc)); err != nil {
		return "", nil, fmt.Errorf("cannot render the report as HTML: %w", err)
	}
	heads, _ := pc.Get(headingsKey).([]Heading)
	// The HTML is goldmark's output in safe mode plus SVG that this
	// program drew; neither carries user-supplied markup.
	return template.HTML(buf.String()), heads, nil
}

// pageExtension installs the page transformer and its node renderers.
type pageExtension struct{}

func (*pageExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(pageTransformer{}, 500)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(pageRenderer{}, 500)))
}

// figureNode is a figure of the scenario's, inline or linked; its children
// are the caption's inlines.
type figureNode struct {
	ast.BaseBlock
	fig    *svg.Figure
	linked bool // render an <img> of the figure's file, not the SVG
}

var kindFigure = ast.NewNodeKind("RingreportFigure")

func (n *figureNode) Kind() ast.NodeKind { return kindFigure }

func (n *figureNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.fig.Name}, nil)
}

// scrollNode wraps one table in a region that scrolls sideways.
type scrollNode struct{ ast.BaseBlock }

var kindScroll = ast.NewNodeKind("RingreportScroll")

func (n *scrollNode) Kind() ast.NodeKind { return kindScroll }

func (n *scrollNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// stepHeading matches the text of a step section's heading.
var stepHeading = regexp.MustCompile(`^Step ([0-9]+):`)

// pageTransformer rewrites the document; see the file comment.
type pageTransformer struct{}

func (pageTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	figs, _ := pc.Get(figuresKey).(map[string]*svg.Figure)
	link, _ := pc.Get(linkKey).(bool)
	src := reader.Source()
	headingIDs(doc, src)
	var heads []Heading
	var tables []ast.Node
	// Each figure is inlined once, where the report places it (its first
	// reference after the first section heading) or, when the report does
	// not, at its first reference; any other reference (an about: that
	// names a figure thousands of times) stays an image of the file, so
	// that a page holds each figure's SVG at most once.
	inline := map[*svg.Figure]*ast.Paragraph{}
	inSection := map[*svg.Figure]bool{}
	var refs []*ast.Paragraph // every figure paragraph, in document order
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 2 {
				heads = append(heads, heading(n, src))
			}
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph:
			if fig := figureOf(n, figs); fig != nil {
				refs = append(refs, n)
				if !inSection[fig] && (inline[fig] == nil || len(heads) > 0) {
					inline[fig], inSection[fig] = n, len(heads) > 0
				}
			}
			return ast.WalkSkipChildren, nil
		case *extast.Table:
			tables = append(tables, n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, p := range refs {
		if fig := figureOf(p, figs); inline[fig] == p {
			inlineFigure(p, fig, link && fig.Step >= 0)
		}
	}
	for _, t := range tables {
		box := &scrollNode{}
		t.Parent().ReplaceChild(t.Parent(), t, box)
		box.AppendChild(box, t)
	}
	foldSteps(doc, src)
	pc.Set(headingsKey, heads)
}

// headingIDs gives the headings their anchors again, as goldmark's
// automatic ids would be without the headings of the text before the
// first section (the scenario's about:), which get "about-" ones
// instead: "### Summary" in an about: becomes #about-summary and cannot
// take #summary from the report's Summary (nor "### Step 1" #step-1).
func headingIDs(doc *ast.Document, src []byte) {
	ids := parser.NewContext().IDs()
	section := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		var line []byte
		if l := h.Lines().Len(); l > 0 {
			seg := h.Lines().At(l - 1)
			line = seg.Value(src)
		}
		section = section || h.Level == 2
		if !section && h.Level > 2 {
			line = append([]byte("about "), line...)
		}
		h.SetAttributeString("id", ids.Generate(line, ast.KindHeading))
		return ast.WalkSkipChildren, nil
	})
}

// heading gives a step heading the id "step-N" and describes h.
func heading(h *ast.Heading, src []byte) Heading {
	txt := plainText(h, src)
	out := Heading{Text: txt, Short: txt, Step: -1}
	if m := stepHeading.FindStringSubmatch(txt); m != nil {
		out.Step, _ = strconv.Atoi(m[1])
		out.Short = shortStep(txt)
		h.SetAttributeString("id", []byte("step-"+m[1]))
	}
	if id, ok := h.AttributeString("id"); ok {
		out.ID = string(id.([]byte))
	}
	return out
}

// plainText is the text of n's inline descendants, markup removed.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(util.UnescapePunctuations(c.Segment.Value(src)))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// figureOf returns the figure that paragraph p consists of — a single
// image whose destination names one of figs — or nil.
func figureOf(p ast.Node, figs map[string]*svg.Figure) *svg.Figure {
	img, ok := p.FirstChild().(*ast.Image)
	if !ok || p.ChildCount() != 1 {
		return nil
	}
	return figs[string(img.Destination)]
}

// inlineFigure replaces paragraph p with a figure node; when the next
// block is a paragraph holding only emphasis, that becomes the caption.
func inlineFigure(p *ast.Paragraph, fig *svg.Figure, linked bool) {
	parent := p.Parent()
	node := &figureNode{fig: fig, linked: linked}
	if next, ok := p.NextSibling().(*ast.Paragraph); ok && next.ChildCount() == 1 {
		if em, ok := next.FirstChild().(*ast.Emphasis); ok {
			for c := em.FirstChild(); c != nil; {
				nc := c.NextSibling()
				node.AppendChild(node, c)
				c = nc
			}
			parent.RemoveChild(parent, next)
		}
	}
	parent.ReplaceChild(parent, p, node)
}

// stepNode is a step section folded into <details>: its first child is a
// stepSummary, its second a stepBody.
type stepNode struct{ ast.BaseBlock }

// stepSummary holds a step's heading and, in a storyNode, the inlines of
// its first paragraph.
type stepSummary struct{ ast.BaseBlock }

// storyNode is a step's sentence inside its summary, where only phrasing
// content may stand beside the heading.
type storyNode struct{ ast.BaseBlock }

// stepBody is the rest of a step section.
type stepBody struct{ ast.BaseBlock }

var (
	kindStep        = ast.NewNodeKind("RingreportStep")
	kindStepSummary = ast.NewNodeKind("RingreportStepSummary")
	kindStory       = ast.NewNodeKind("RingreportStory")
	kindStepBody    = ast.NewNodeKind("RingreportStepBody")
)

func (n *stepNode) Kind() ast.NodeKind    { return kindStep }
func (n *stepSummary) Kind() ast.NodeKind { return kindStepSummary }
func (n *storyNode) Kind() ast.NodeKind   { return kindStory }
func (n *stepBody) Kind() ast.NodeKind    { return kindStepBody }

func (n *stepNode) Dump(src []byte, level int)    { ast.DumpHelper(n, src, level, nil, nil) }
func (n *stepSummary) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }
func (n *storyNode) Dump(src []byte, level int)   { ast.DumpHelper(n, src, level, nil, nil) }
func (n *stepBody) Dump(src []byte, level int)    { ast.DumpHelper(n, src, level, nil, nil) }

// foldSteps folds each top-level step section — a "Step N: ..." heading
// of level 2 and the blocks up to the next heading of level 2 — into a
// stepNode, the heading and the paragraph right after it (when there is
// one) in its summary.
func foldSteps(doc *ast.Document, src []byte) {
	for n := doc.FirstChild(); n != nil; {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 || !stepHeading.MatchString(plainText(h, src)) {
			n = n.NextSibling()
			continue
		}
		step, sum, story, body := &stepNode{}, &stepSummary{}, &storyNode{}, &stepBody{}
		doc.ReplaceChild(doc, h, step)
		step.AppendChild(step, sum)
		step.AppendChild(step, body)
		sum.AppendChild(sum, h)
		next := step.NextSibling()
		if p, ok := next.(*ast.Paragraph); ok {
			next = p.NextSibling()
			for c := p.FirstChild(); c != nil; {
				nc := c.NextSibling()
				story.AppendChild(story, c)
				c = nc
			}
			doc.RemoveChild(doc, p)
			sum.AppendChild(sum, story)
		}
		for next != nil {
			if nh, ok := next.(*ast.Heading); ok && nh.Level <= 2 {
				break
			}
			nn := next.NextSibling()
			body.AppendChild(body, next)
			next = nn
		}
		n = next
	}
}

// pageRenderer renders figure, scroll and step nodes.
type pageRenderer struct{}

func (pageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindFigure, renderFigure)
	reg.Register(kindScroll, renderScroll)
	reg.Register(kindStep, tag("<details class=\"step\">\n", "</details>\n"))
	reg.Register(kindStepSummary, tag("<summary>", "</summary>\n"))
	reg.Register(kindStory, tag("<span class=\"story\">", "</span>"))
	reg.Register(kindStepBody, tag("<div class=\"step-body\">\n", "</div>\n"))
}

// tag renders a node as its children between open and close.
func tag(open, close string) renderer.NodeRendererFunc {
	return func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(open)
		} else {
			_, _ = w.WriteString(close)
		}
		return ast.WalkContinue, nil
	}
}

func renderFigure(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	f := n.(*figureNode)
	if !entering {
		if f.HasChildren() {
			_, _ = w.WriteString("</figcaption>\n")
		}
		_, _ = w.WriteString("</figure>\n")
		return ast.WalkContinue, nil
	}
	// The figure is its own sideways scroll box on a phone (style.css), so it
	// takes keyboard focus, named by its title (else by its caption).
	_, _ = fmt.Fprintf(w, "<figure class=\"fig fig-%s\" id=\"%s\" tabindex=\"0\"", kindClass(f.fig.Kind), figureID(f.fig.Name))
	if f.fig.Title != "" {
		_, _ = fmt.Fprintf(w, " aria-label=\"%s\"", html.EscapeString(f.fig.Title))
	}
	_, _ = w.WriteString(">\n")
	if f.linked {
		writeImage(w, f.fig)
	} else {
		_, _ = w.Write(inlineSVG(f.fig.SVG))
	}
	_ = w.WriteByte('\n')
	if f.HasChildren() {
		_, _ = w.WriteString("<figcaption>")
	}
	return ast.WalkContinue, nil
}

func renderScroll(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Table (scrolls sideways)\">\n")
	} else {
		_, _ = w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}

var lowerWord = regexp.MustCompile(`^[a-z]+$`)

// kindClass keeps a figure kind usable as a class name.
func kindClass(kind string) string {
	if lowerWord.MatchString(kind) {
		return kind
	}
	return "other"
}

// inlineSVG prepares a standalone SVG document for an HTML page: anything
// before the <svg> element (an XML prolog, a doctype, comments) goes.
func inlineSVG(doc []byte) []byte {
	if i := bytes.Index(doc, []byte("<svg")); i > 0 {
		doc = doc[i:]
	}
	return bytes.TrimSpace(doc)
}

// writeImage writes an <img> of fig's page form (in pageFigures), sized
// like the inline SVG would be so that the page does not reflow as images
// arrive, and loaded only when it nears the viewport.
func writeImage(w util.BufWriter, fig *svg.Figure) {
	_, _ = w.WriteString(`<img src="`)
	_, _ = w.WriteString(html.EscapeString(pageFigures + "/" + fig.Name))
	_, _ = w.WriteString(`" alt="`)
	_, _ = w.WriteString(html.EscapeString(fig.Title))
	_ = w.WriteByte('"')
	if vw, vh, ok := viewBoxSize(fig.SVG); ok {
		_, _ = fmt.Fprintf(w, ` width="%s" height="%s"`, vw, vh)
	}
	_, _ = w.WriteString(` loading="lazy" decoding="async">`)
}

// viewBox matches the root element's viewBox="0 0 W H" with whole W and H.
var viewBox = regexp.MustCompile(`viewBox="0 0 ([0-9]+) ([0-9]+)"`)

// viewBoxSize returns the width and height of doc's viewBox, which this
// program's figures always have near the start.
func viewBoxSize(doc []byte) (w, h string, ok bool) {
	head := doc[:min(len(doc), 512)]
	m := viewBox.FindSubmatch(head)
	if m == nil {
		return "", "", false
	}
	return string(m[1]), string(m[2]), true
}

// figureID is the anchor of the figure in file name: "fig-history" for
// history.svg.
func figureID(name string) string {
	return "fig-" + strings.TrimSuffix(name, path.Ext(name))
}
