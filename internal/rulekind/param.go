package rulekind

import (
	"maps"
	"strconv"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
)

// ParamType is how a rule parameter's value is written in a scenario.
type ParamType uint8

// The parameter types.
const (
	ParamInt    ParamType = iota // a whole number from Min to Max
	ParamPrime                   // a prime number from Min to Max
	ParamFloat                   // a finite number greater than 0, at most Max
	ParamEnum                    // one of Values
	ParamBool                    // true or false
	ParamString                  // a string that Check accepts
	ParamCounts                  // a mapping from names to whole numbers from Min to Max, held as JSON
)

// Param is one parameter a rule accepts besides rule and label. Declare
// it with IntField, FloatField, HashParam or Opt, which say where in a
// placer.RuleSpec its value is held.
type Param struct {
	// Name is the parameter's key in a rule mapping.
	Name string
	// Doc says what the parameter is, in one sentence.
	Doc string
	// Type is how the value is written; Min and Max bound numbers, and
	// Values lists an enum's allowed values.
	Type     ParamType
	Min, Max int
	Values   []string
	// Default is the value a rule that names none runs with, as a
	// scenario would write it, or "" when it has none.
	Default string
	// Required says a scenario must give the parameter.
	Required bool
	// Words describe a value in the report's parameter column: a count
	// "1 <One>" or "1,000 <Many>" when One is set, else Prefix+value+Suffix
	// ("table size 65537", "21 probes").
	One, Many, Prefix, Suffix string
	// Check validates a ParamString value: nil, or an error that says what
	// would be right.
	Check func(v string) error
	// get and set read and write the value in a placer.RuleSpec.
	get func(placer.RuleSpec) string
	set func(*placer.RuleSpec, string)
}

// Get returns the parameter's value in spec, "" when unset.
func (p Param) Get(spec placer.RuleSpec) string { return p.get(spec) }

// Set stores a value, written as a scenario writes it and already
// validated against the parameter's type, in spec.
func (p Param) Set(spec *placer.RuleSpec, v string) { p.set(spec, v) }

// WithDefault returns p with another default: several kinds share a
// parameter but not its default.
func (p Param) WithDefault(d string) Param {
	p.Default = d
	return p
}

// ParamValue is a parameter and its value, as a scenario writes it.
type ParamValue struct {
	Param
	Value string
}

// IntField declares a parameter held in a whole-number field of placer.RuleSpec
// (zero: unset).
func IntField(p Param, field func(*placer.RuleSpec) *int) Param {
	p.get = func(s placer.RuleSpec) string { return itoa0(*field(&s)) }
	p.set = func(s *placer.RuleSpec, v string) { *field(s), _ = strconv.Atoi(v) }
	return p
}

// FloatField declares a parameter held in a number field of placer.RuleSpec
// (zero: unset).
func FloatField(p Param, field func(*placer.RuleSpec) *float64) Param {
	p.get = func(s placer.RuleSpec) string { return ftoa0(*field(&s)) }
	p.set = func(s *placer.RuleSpec, v string) { *field(s), _ = strconv.ParseFloat(v, 64) }
	return p
}

// HashParam is the key hash (placer.RuleSpec.Hash) that most rules let a
// scenario choose; a rule fixes its own with WithDefault in Kind.Fixed.
var HashParam = Param{Name: "hash", Type: ParamEnum, Values: keys.HashNames, Default: keys.HashNames[0],
	Doc:    "The hash of the keys and points; each rule has its own default (see the rule).",
	Prefix: "hash ",
	get:    func(s placer.RuleSpec) string { return s.Hash },
	set:    func(s *placer.RuleSpec, v string) { s.Hash = v }}

// Opt declares a parameter stored in placer.RuleSpec.Opts.
func Opt(p Param) Param {
	name := p.Name
	p.get = func(s placer.RuleSpec) string { return s.Opts[name] }
	p.set = func(s *placer.RuleSpec, v string) {
		m := maps.Clone(s.Opts)
		if m == nil {
			m = map[string]string{}
		}
		m[name] = v
		s.Opts = m
	}
	return p
}

// WithDefaults sets every unset parameter of params to its default.
func WithDefaults(params []Param, s placer.RuleSpec) placer.RuleSpec {
	for _, p := range params {
		if p.get(s) == "" && p.Default != "" {
			p.set(&s, p.Default)
		}
	}
	return s
}

// itoa0 and ftoa0 write a number as a scenario does, "" for zero (unset).
func itoa0(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func ftoa0(f float64) string {
	if f == 0 {
		return ""
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
