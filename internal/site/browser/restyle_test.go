package browser

import (
	"cmp"
	"testing"
)

// TestRestyles checks which pairs of files restyles lets the page make
// one from the other by replacing a style element.
func TestRestyles(t *testing.T) {
	const a = `<svg><style>.a{fill:#FFF}</style><rect/></svg>`
	for _, c := range []struct {
		name, a, b string
		want       bool
	}{
		{"the style differs", "", `<svg><style>.a{fill:#000}</style><rect/></svg>`, true},
		{"a style attribute differs", "", `<svg><style media="print">.a{fill:#FFF}</style><rect/></svg>`, true},
		{"the root differs", "", `<svg width="2"><style>.a{fill:#FFF}</style><rect/></svg>`, false},
		{"a shape differs", "", `<svg><style>.a{fill:#FFF}</style><rect x="1"/></svg>`, false},
		{"two style elements", "", `<svg><style>.a{fill:#FFF}</style><rect/><style></style></svg>`, false},
		{"a commented end tag", "", `<svg><style>.a{fill:#FFF}</style><!-- </style> --><rect/></svg>`, false},
		{"a DOCTYPE", `<!DOCTYPE svg>` + a, `<!DOCTYPE svg><svg><style>.a{fill:#000}</style><rect/></svg>`, false},
		{"no style element", "", `<svg><rect/></svg>`, false},
	} {
		from := cmp.Or(c.a, a)
		if got := restyles([]byte(from), []byte(c.b)); got != c.want {
			t.Errorf("%s: restyles = %t, want %t", c.name, got, c.want)
		}
	}
}
