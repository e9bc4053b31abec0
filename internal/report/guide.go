package report

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file says how to read the step figures once per page. A step
// figure's caption explains the figure kind at length and then gives the
// step's own numbers; said under every step, the explanation repeats a
// dozen times. guide takes the sentences that more than one caption of a
// kind shares into the report's guide, and leaves each caption the
// sentences no other figure of its kind has. Every piece of text stays as
// the figure wrote it: the split only decides where a sentence is shown.

// guide moves the shared sentences of the step figures' captions into one
// FigureGuide per figure kind (identified by the title after its step
// part), in the order the kinds first appear.
func guide(steps []StepSection) []FigureGuide {
	type kind struct {
		what  string
		count map[string]int
		order []string
	}
	var kinds []*kind
	byWhat := map[string]*kind{}
	for _, sec := range steps {
		for _, f := range sec.Figures {
			w := figureWhat(f.Title)
			k := byWhat[w]
			if k == nil {
				k = &kind{what: w, count: map[string]int{}}
				byWhat[w] = k
				kinds = append(kinds, k)
			}
			for _, s := range sentences(f.Caption) {
				if k.count[s] == 0 {
					k.order = append(k.order, s)
				}
				k.count[s]++
			}
		}
	}
	for si := range steps {
		for fi := range steps[si].Figures {
			f := &steps[si].Figures[fi]
			k := byWhat[figureWhat(f.Title)]
			var own []string
			for _, s := range sentences(f.Caption) {
				if k.count[s] == 1 {
					own = append(own, s)
				}
			}
			f.Caption = strings.Join(own, " ")
		}
	}
	var out []FigureGuide
	for _, k := range kinds {
		var shared []string
		for _, s := range k.order {
			if k.count[s] > 1 {
				shared = append(shared, s)
			}
		}
		if len(shared) > 0 {
			out = append(out, FigureGuide{What: k.what, Text: strings.Join(shared, " ")})
		}
	}
	return out
}

// figureWhat is a step figure's title without its step part, capitalised:
// "Step 3 (add f): who owns which part of the hash circle" gives "Who
// owns which part of the hash circle".
func figureWhat(title string) string {
	if _, after, ok := strings.Cut(title, "): "); ok && strings.HasPrefix(title, "Step ") {
		title = after
	}
	r, n := utf8.DecodeRuneInString(title)
	return string(unicode.ToUpper(r)) + title[n:]
}

// sentences splits a caption after each ". " that an upper-case letter
// follows ("i.e. around" stays whole); the pieces, joined with single
// spaces, give the caption back.
func sentences(s string) []string {
	var out []string
	for {
		i := sentenceEnd(s)
		if i < 0 {
			break
		}
		out = append(out, s[:i+1])
		s = s[i+2:]
	}
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, s)
	}
	return out
}

// sentenceEnd is the index of the first ". " followed by an upper-case
// letter in s, or -1.
func sentenceEnd(s string) int {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			if r, _ := utf8.DecodeRuneInString(s[i+2:]); unicode.IsUpper(r) {
				return i
			}
		}
	}
	return -1
}
