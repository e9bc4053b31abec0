package nodesfrom

import "strings"

// Redis Cluster: the lines of CLUSTER NODES as clusterGenNodeDescription
// (src/cluster.c, Redis 3 to 7) writes them, which are also the lines of
// a node's nodes.conf (cluster-config-file), whose last line is "vars ...".

// redisSlots is CLUSTER_SLOTS.
const redisSlots = 16384

// field is one whitespace-separated word and its offset.
type field struct {
	val string
	off int
}

// fields splits line (at offset base) on blanks.
func fields(line []byte, base int) []field {
	var out []field
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
			j++
		}
		if j > i {
			out = append(out, field{string(line[i:j]), base + i})
		}
		i = j
	}
	return out
}

// parseRedis reads CLUSTER NODES output.
func parseRedis(data []byte) ([]Node, []SlotRange, []Error) {
	var el errorList
	pos := newPositions(data)
	errAt := func(off int, format string, args ...any) bool {
		l, c := pos.at(off)
		return el.add(l, c, format, args...)
	}
	var (
		nodes  []Node
		owner  [redisSlots]int32
		ids    = map[string]int{} // node id → line
		byName = map[string]int{}
	)
	for i := range owner {
		owner[i] = -1
	}
	lineNo := 0
	for start := 0; start < len(data) && !el.full; {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		f := fields(data[start:end], start)
		start = end + 1
		lineNo++
		if len(f) == 0 || f[0].val == "vars" {
			continue
		}
		if len(f) < 8 {
			errAt(f[0].off, "a CLUSTER NODES line has 8 fields before its slots (id ip:port@cport flags master ping-sent pong-recv config-epoch link-state); this one has %d", len(f))
			continue
		}
		id, addr, flags := f[0], f[1], f[2]
		if len(id.val) != 40 || strings.Trim(id.val, "0123456789abcdef") != "" {
			errAt(id.off, "node id %s is not 40 hexadecimal digits; is this the output of CLUSTER NODES?", quote(id.val))
			continue
		}
		if l, dup := ids[id.val]; dup {
			errAt(id.off, "node %s is listed twice (first on line %d)", id.val, l)
			continue
		}
		ids[id.val] = lineNo
		var master, down, handshake bool
		for _, fl := range strings.Split(flags.val, ",") {
			switch fl {
			case "master":
				master = true
			case "fail", "fail?", "noaddr":
				down = true
			case "handshake":
				handshake = true
			}
		}
		slotWords := f[8:]
		if !master || handshake {
			continue // replicas and nodes still shaking hands serve no slots
		}
		// ip:port@cport[,hostname[,aux...]]
		hostPort := addr.val
		if i := strings.IndexByte(hostPort, ','); i >= 0 {
			hostPort = hostPort[:i]
		}
		if i := strings.IndexByte(hostPort, '@'); i >= 0 {
			if _, ok := redisNumber(hostPort[i+1:], 65535); !ok {
				errAt(addr.off+i+1, "cluster bus port %s is not a number from 0 to 65535", quote(hostPort[i+1:]))
				continue
			}
			hostPort = hostPort[:i]
		}
		colon := strings.LastIndexByte(hostPort, ':')
		if colon < 0 {
			errAt(addr.off, "address %s has no port; CLUSTER NODES writes ip:port@cport", quote(addr.val))
			continue
		}
		if _, ok := redisNumber(hostPort[colon+1:], 65535); !ok {
			errAt(addr.off+colon+1, "port %s is not a number from 0 to 65535", quote(hostPort[colon+1:]))
			continue
		}
		if colon == 0 {
			down = true // noaddr: the node's address is not known
		} else if l, dup := byName[hostPort]; dup {
			errAt(addr.off, "two masters have the address %s (the other on line %d)", hostPort, l)
			continue
		}
		byName[hostPort] = lineNo
		if len(nodes) == MaxServers {
			errAt(id.off, "%s", tooMany("masters"))
			break
		}
		n := Node{Name: hostPort, Label: id.val, Weight: 1, Down: down}
		n.Line, n.Col = pos.at(id.off)
		me := int32(len(nodes))
		nodes = append(nodes, n)
		for _, s := range slotWords {
			if strings.HasPrefix(s.val, "[") {
				// [slot->-id] migrating, [slot-<-id] importing: the slot
				// stays with the node that serves it now
				continue
			}
			lo, hi, ok := redisRange(s.val)
			if !ok {
				errAt(s.off, "slot %s is not a slot (0 to 16383) or a range of them such as 0-5460", quote(s.val))
				continue
			}
			for k := lo; k <= hi; k++ {
				if o := owner[k]; o >= 0 {
					other := nodes[o]
					errAt(s.off, "slot %d is served by both %s (line %d) and %s; CLUSTER NODES was taken mid-change or the lines come from different clusters", k, other.Name, other.Line, n.Name)
					break
				}
				owner[k] = me
			}
		}
	}
	if len(nodes) == 0 && !el.full && len(el.errs) == 0 {
		el.add(0, 0, "no masters: the data has no CLUSTER NODES line with the master flag")
	}
	if len(el.errs) > 0 {
		return nil, nil, el.errs
	}
	var slots []SlotRange
	for k := 0; k < redisSlots; {
		o := owner[k]
		j := k
		for j+1 < redisSlots && owner[j+1] == o {
			j++
		}
		if o >= 0 {
			slots = append(slots, SlotRange{First: k, Last: j, Node: int(o)})
		}
		k = j + 1
	}
	return nodes, slots, nil
}

// redisNumber reads decimal digits up to max.
func redisNumber(s string, max int) (int, bool) {
	v, ok := hapNumber(s)
	return v, ok && v <= max
}

// redisRange reads "N" or "N-M", 0 ≤ N ≤ M < 16384.
func redisRange(s string) (lo, hi int, ok bool) {
	a, b, isRange := strings.Cut(s, "-")
	lo, ok = redisNumber(a, redisSlots-1)
	if !ok {
		return 0, 0, false
	}
	hi = lo
	if isRange {
		if hi, ok = redisNumber(b, redisSlots-1); !ok || hi < lo {
			return 0, 0, false
		}
	}
	return lo, hi, true
}
