package sim

import (
	"slices"
	"strconv"
)

// This file is the rule registry: every placement rule a scenario may name
// is one Kind in Kinds, and everything that depends on the rule — the
// parser, the JSON Schema, the cost estimate, the report's parameter
// column, the figures and the sweeps — reads it from here. Adding a rule
// is one file with its placer and one entry below.

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

// Param is one parameter a rule accepts besides rule and label.
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
	// get and set read and write the value in a RuleSpec.
	get func(RuleSpec) string
	set func(*RuleSpec, string)
}

// Get returns the parameter's value in spec, "" when unset.
func (p Param) Get(spec RuleSpec) string { return p.get(spec) }

// Set stores a value, written as a scenario writes it and already
// validated against the parameter's type, in spec.
func (p Param) Set(spec *RuleSpec, v string) { p.set(spec, v) }

// withDefault returns p with another default: several kinds share a
// parameter but not its default.
func (p Param) withDefault(d string) Param {
	p.Default = d
	return p
}

// Kind is one placement rule: everything the rest of ringreport needs to
// know of it.
type Kind struct {
	// Name is the rule's spelling in scenarios and RuleSpec.Kind.
	Name string
	// Aliases are older spellings a scenario may still use; the parser
	// replaces them by Name.
	Aliases []string
	// Doc says what the rule is, in one sentence, for the schema and the
	// README's rule table.
	Doc string
	// Params are the parameters a scenario may set, in report order.
	Params []Param
	// Fixed are parameters the rule always runs with and a scenario may
	// not set, such as a product's own hash.
	Fixed []Param
	// Mosaic says the rule's owner changes from one key hash to the next,
	// so that it has no arcs worth drawing: the figures draw its wheel as
	// its buckets or table bent round, each live node's share of the keys
	// in join order, rather than sampled by hash (a uniform blur).
	Mosaic bool
	// Theory is the closed form that sweeps draw beside the rule.
	Theory Theory
	// FixedPoints is the points per node of a rule that fixes its own
	// (0 when vnodes applies).
	FixedPoints int
	// cost is what the estimate needs of the rule.
	cost cost
	// position, when not nil, returns for a spec the function that gives
	// a key's place on the 32-bit circle of the rule's wheel, for rules
	// whose position is not a hash named by RuleSpec.Hash.
	position func(spec RuleSpec) func(key []byte) uint32
	// build returns the rule's placer for a validated spec.
	build func(spec RuleSpec, e *env) (placer, error)
	// profile is the production profile the kind runs, or nil.
	profile *Profile
	// effective, when not nil, fills in the defaults that depend on other
	// parameters, after every Param.Default is set.
	effective func(RuleSpec) RuleSpec
}

// Theory names a closed form of a rule's behaviour that sweeps draw.
type Theory uint8

// The theories.
const (
	NoTheory     Theory = iota
	RingTheory          // balance √((n−1)/(n·v+1)) of v random points per node
	ModuloTheory        // n/(n+1) of keys move when an (n+1)-th node joins
)

// cost describes a rule's share of the estimate: its table size at one
// step, per-key work and memory, and what a step's result keeps.
type cost struct {
	// table returns the entries of the rule's table at one step for the
	// raw spec, the most weight on the ring at any step and the largest
	// vnodes step; points says they are points kept per step.
	table  func(spec RuleSpec, weight, vnodeSteps int64) int64
	points bool
	// perKey is the rule's lookups per key per step (multiprobe's probes,
	// four at a time); 0 means 1.
	perKey func(spec RuleSpec) int64
	// ranks says every key ranks every node (rendezvous), which adds keys
	// × nodes of work per reweighting.
	ranks bool
	// keyBytes is the rule's own arrays per key with lists of length r;
	// uniform says every node weighs the same at every step.
	keyBytes func(spec RuleSpec, r int64, uniform bool) int64
	// stepPoints says a step's result keeps the rule's points (or else
	// WheelSamples arcs).
	stepPoints bool
}

// The parameters several kinds share, declared once.
var (
	paramVNodes = Param{Name: "vnodes", Type: ParamInt, Min: 1, Max: MaxVNodes,
		Doc: "Points per node (per unit of weight) on the ring.",
		One: "point per node", Many: "points per node",
		get: func(s RuleSpec) string { return itoa0(s.VNodes) },
		set: func(s *RuleSpec, v string) { s.VNodes = atoi(v) }}
	paramHash = Param{Name: "hash", Type: ParamEnum, Values: HashNames, Default: HashNames[0],
		Doc:    "The hash of the keys and points; each rule has its own default (see the rule).",
		Prefix: "hash ",
		get:    func(s RuleSpec) string { return s.Hash },
		set:    func(s *RuleSpec, v string) { s.Hash = v }}
	paramM = Param{Name: "m", Type: ParamPrime, Min: 2, Max: MaxMaglevM, Default: strconv.Itoa(DefaultMaglevM),
		Doc:    "Maglev lookup table size: a prime number, such as 65537.",
		Prefix: "table size ",
		get:    func(s RuleSpec) string { return itoa0(s.M) },
		set:    func(s *RuleSpec, v string) { s.M = atoi(v) }}
	paramProbes = Param{Name: "probes", Type: ParamInt, Min: 1, Max: MaxProbes, Default: strconv.Itoa(DefaultProbes),
		Doc:    "Hashes of each key; the key goes to the node whose point is nearest to any of them.",
		Suffix: " probes",
		get:    func(s RuleSpec) string { return itoa0(s.Probes) },
		set:    func(s *RuleSpec, v string) { s.Probes = atoi(v) }}
	paramEpsilon = Param{Name: "epsilon", Type: ParamFloat, Max: MaxEpsilon, Default: ftoa(DefaultEpsilon),
		Doc:    "Load bound: no node holds more than (1 + epsilon) times the mean.",
		Prefix: "ε = ",
		get:    func(s RuleSpec) string { return ftoa0(s.Epsilon) },
		set:    func(s *RuleSpec, v string) { s.Epsilon, _ = strconv.ParseFloat(v, 64) }}
)

// ownHash fixes a rule's hash to the product's own.
func ownHash(name string) Param { return paramHash.withDefault(name) }

// Kinds are the placement rules, in documentation order.
var Kinds = []Kind{
	{Name: "ring", Doc: "Consistent-hash ring (Karger et al. 1997): every node gets vnodes points on a 32-bit circle; a key belongs to the first point clockwise from its hash.",
		Params: []Param{paramVNodes.withDefault(strconv.Itoa(DefaultVNodes)), paramHash}, Theory: RingTheory,
		cost:  cost{table: vnodeTable, points: true, stepPoints: true},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newRingChecked(s, e)) }},
	{Name: "modulo", Doc: "hash(key) mod n over the live nodes in join order: simple, and moves almost every key when n changes.",
		Params: []Param{paramHash}, Mosaic: true, Theory: ModuloTheory,
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newModulo(s, e)) }},
	{Name: "jump", Doc: "Jump consistent hash (Lamping and Veach 2014): can only add or drop the last bucket.",
		Params: []Param{paramHash}, Mosaic: true,
		cost:  cost{keyBytes: func(RuleSpec, int64, bool) int64 { return 8 }},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newJump(s, e)) }},
	{Name: "rendezvous", Doc: "Rendezvous (highest random weight) hashing (Thaler and Ravishankar 1998).",
		Params: []Param{paramHash}, Mosaic: true,
		cost:  cost{ranks: true, keyBytes: rendezvousKeyBytes},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newRendezvous(s, e)) }},
	{Name: "maglev", Doc: "Maglev hashing (Eisenbud et al., NSDI 2016): a lookup table of m entries.",
		Params: []Param{paramM, paramHash}, Mosaic: true,
		cost: cost{table: func(s RuleSpec, _, _ int64) int64 { return int64(cmpOr(s.M, DefaultMaglevM)) },
			keyBytes: func(RuleSpec, int64, bool) int64 { return 4 }},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newMaglev(s, e)) }},
	{Name: "multiprobe", Doc: "Multi-probe consistent hashing (Appleton and O'Reilly 2015): one point per node, probes lookups per key.",
		Params: []Param{paramProbes, paramHash}, Fixed: []Param{paramVNodes.withDefault("1")}, Mosaic: true,
		cost: cost{perKey: func(s RuleSpec) int64 { return max(1, int64(cmpOr(s.Probes, DefaultProbes))/4) },
			stepPoints: true},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newMultiprobe(s, e)) }},
	{Name: "bounded", Doc: "Consistent hashing with bounded loads (Mirrokni et al. 2018): no node holds more than (1+epsilon) times the mean.",
		Params: []Param{paramVNodes.withDefault(strconv.Itoa(DefaultVNodes)), paramEpsilon, paramHash},
		cost:   cost{table: vnodeTable, points: true, stepPoints: true},
		build:  func(s RuleSpec, e *env) (placer, error) { return checked(newBounded(s, e)) }},
	{Name: "libketama", Aliases: []string{"ketama"}, Doc: "libketama's continuum (RJ/ketama): MD5 of the node name as written, 160 points per server of average weight in libketama's single precision; libmemcached's differs (see libmemcached).",
		Fixed: []Param{ownHash("md5")}, FixedPoints: ketamaHashes * 4, Theory: RingTheory,
		cost:  cost{table: func(_ RuleSpec, w, _ int64) int64 { return ketamaHashes * 4 * w }, points: true, stepPoints: true},
		build: func(s RuleSpec, e *env) (placer, error) { return checked(newKetama(s, e)) }},
	{Name: "slots", Doc: "Redis Cluster's slots: CRC16 of the key (or of its {hash tag}) mod 16384, slots spread evenly over the nodes and moved minimally; not redis-cli's own planner.",
		Fixed: []Param{ownHash("crc16")},
		cost: cost{table: func(RuleSpec, int64, int64) int64 { return NumSlots },
			keyBytes: func(RuleSpec, int64, bool) int64 { return 12 }},
		position: func(RuleSpec) func([]byte) uint32 { return func(b []byte) uint32 { return uint32(KeySlot(b)) << 18 } },
		build:    func(s RuleSpec, e *env) (placer, error) { return checked(newSlots(s, e)) }},
	libmemcachedProfile.Kind(),
	twemproxyProfile.Kind(),
	nginxProfile.Kind(),
	nginxHashProfile.Kind(),
	haproxyProfile.Kind(),
	envoyRingProfile.Kind(),
	envoyMaglevProfile.Kind(),
	redisProfile.Kind(),
	cassandraProfile.Kind(),
	kafkaProfile.Kind(),
	elasticsearchProfile.Kind(),
	cephProfile.Kind(),
}

// DefaultRules are the rules of a scenario that names none.
var DefaultRules = []string{Kinds[0].Name, Kinds[1].Name}

// KindOf returns the kind a scenario calls name (its name or an alias),
// or nil.
func KindOf(name string) *Kind {
	for i := range Kinds {
		if Kinds[i].Name == name || slices.Contains(Kinds[i].Aliases, name) {
			return &Kinds[i]
		}
	}
	return nil
}

// Validate checks a spec whose parameters each passed their own checks
// as a whole, as the product would (a gRPC ring's maximum below its
// minimum): nil, or an error that says what is wrong.
func (k *Kind) Validate(spec RuleSpec) error {
	if k.profile == nil {
		return nil
	}
	_, err := k.profile.New(withDefaults(k.Params, spec))
	return err
}

// Param returns the kind's parameter called name, or nil when the kind
// does not accept it.
func (k *Kind) Param(name string) *Param {
	for i := range k.Params {
		if k.Params[i].Name == name {
			return &k.Params[i]
		}
	}
	return nil
}

// ParamNames lists every parameter any kind accepts, in the order of
// first appearance.
func ParamNames() []string {
	var names []string
	for _, k := range Kinds {
		for _, p := range k.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// Effective returns the spec with every parameter the rule uses filled in
// with its default, and its fixed parameters set. Parameters a rule does
// not use stay zero. Reports show this, so a reader sees what ran, not
// what was typed.
func (s RuleSpec) Effective() RuleSpec {
	k := KindOf(s.Kind)
	if k == nil {
		return s
	}
	s = withDefaults(k.Params, s)
	for _, p := range k.Fixed {
		p.set(&s, p.Default)
	}
	if k.effective != nil {
		s = k.effective(s)
	}
	return s
}

// withDefaults sets every unset parameter of params to its default.
func withDefaults(params []Param, s RuleSpec) RuleSpec {
	for _, p := range params {
		if p.get(s) == "" && p.Default != "" {
			p.set(&s, p.Default)
		}
	}
	return s
}

// Values lists a rule's effective parameters with their values, in
// report order: the fixed ones, then the accepted ones.
func (s RuleSpec) Values() []ParamValue {
	e := s.Effective()
	k := KindOf(s.Kind)
	if k == nil {
		return nil
	}
	var out []ParamValue
	for _, p := range slices.Concat(k.Fixed, k.Params) {
		if v := p.get(e); v != "" {
			out = append(out, ParamValue{p, v})
		}
	}
	return out
}

// ParamValue is a parameter and its value, as a scenario writes it.
type ParamValue struct {
	Param
	Value string
}

func vnodeTable(s RuleSpec, weight, vnodeSteps int64) int64 {
	return max(int64(cmpOr(s.VNodes, DefaultVNodes)), vnodeSteps) * weight
}

func rendezvousKeyBytes(_ RuleSpec, r int64, uniform bool) int64 {
	if r == 1 && uniform {
		return 6 // the owner and 32 bits of its hash
	}
	return 10 * r // node and score per list entry
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func atoi(v string) int { n, _ := strconv.Atoi(v); return n }

func atof(v string) float64 { f, _ := strconv.ParseFloat(v, 64); return f }

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
	return ftoa(f)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// RuleCost is a rule's share of a scenario's estimated work.
type RuleCost struct {
	// Table is the entries of the rule's table at one step.
	Table int64
	// PerKey is the rule's lookups per key per step.
	PerKey int64
	// Ranks says every key ranks every node at each reweighting.
	Ranks bool
	// Points says the table's entries are points the result keeps.
	Points bool
}

// Cost returns the rule's cost for a raw spec, given the most weight on
// the ring at any step and the largest vnodes step.
func (k *Kind) Cost(spec RuleSpec, weight, vnodeSteps int64) RuleCost {
	c := RuleCost{PerKey: 1, Ranks: k.cost.ranks, Points: k.cost.points}
	if k.cost.table != nil {
		c.Table = k.cost.table(spec, weight, vnodeSteps)
	}
	if k.cost.perKey != nil {
		c.PerKey = k.cost.perKey(spec)
	}
	return c
}
