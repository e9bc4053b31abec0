package sim

// ownHashes names the hash of the rules that fix their own.
var ownHashes = map[string]string{"ketama": "md5", "slots": "crc16"}

// Effective returns the spec with every parameter the rule uses filled in
// with its default: the hash (the rule's own for ketama and slots), points
// per node for ring and bounded (DefaultVNodes) and multiprobe (1), the
// table size of maglev, the probes of multiprobe and the ε of bounded.
// Parameters a rule does not use stay zero. Reports show this, so a reader
// sees what ran, not what was typed.
func (s RuleSpec) Effective() RuleSpec {
	if h, ok := ownHashes[s.Kind]; ok {
		s.Hash = h
	} else if s.Hash == "" {
		s.Hash = HashNames[0]
	}
	switch s.Kind {
	case "ring", "bounded":
		s.VNodes = cmpOr(s.VNodes, DefaultVNodes)
	case "multiprobe":
		s.VNodes = cmpOr(s.VNodes, 1)
		s.Probes = cmpOr(s.Probes, DefaultProbes)
	case "maglev":
		s.M = cmpOr(s.M, DefaultMaglevM)
	}
	if s.Kind == "bounded" && s.Epsilon == 0 {
		s.Epsilon = DefaultEpsilon
	}
	return s
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
