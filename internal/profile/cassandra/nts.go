package cassandra

import "github.com/ringreport/ringreport/internal/profile"

// Labels returns the datacenter and rack Cassandra sees for s: its Zone
// and Rack, or DefaultDC and DefaultRack when they are empty.
func Labels(s profile.Server) (dc, rack string) {
	dc, rack = s.Zone, s.Rack
	if dc == "" {
		dc = DefaultDC
	}
	if rack == "" {
		rack = DefaultRack
	}
	return dc, rack
}

// dcInfo is one datacenter's topology and replication factor.
type dcInfo struct {
	rf, nodes, racks int
}

// topology numbers datacenters and (datacenter, rack) pairs in order of
// first appearance and counts nodes and racks per datacenter, down nodes
// included: they stay in Cassandra's TokenMetadata topology.
func topology(servers []profile.Server, rf map[string]int) (dcs []dcInfo, srvDC, srvRack []int32, nracks int) {
	dcID := map[string]int32{}
	rackID := map[[2]string]int32{}
	srvDC = make([]int32, len(servers))
	srvRack = make([]int32, len(servers))
	for i, s := range servers {
		dc, rack := Labels(s)
		d, ok := dcID[dc]
		if !ok {
			d = int32(len(dcs))
			dcID[dc] = d
			dcs = append(dcs, dcInfo{rf: rf[dc]})
		}
		dcs[d].nodes++
		k, ok := rackID[[2]string{dc, rack}]
		if !ok {
			k = int32(len(rackID))
			rackID[[2]string{dc, rack}] = k
			dcs[d].racks++
		}
		srvDC[i], srvRack[i] = d, k
	}
	return dcs, srvDC, srvRack, len(rackID)
}

// buildNTS computes, for every token index i, NetworkTopologyStrategy's
// calculateNaturalReplicas for a key whose first token ≥ is toks[i]:
// one walk clockwise from i, handing each endpoint to its datacenter's
// DatacenterEndpoints.addEndpointAndCheckIfDone, until every datacenter
// with rf > 0 and at least one node is filled. Per datacenter rfLeft starts
// at min(rf, nodes) and acceptableRackRepeats at rf − racks; an endpoint is
// taken when its datacenter still needs replicas, it is not taken already,
// and its (dc, rack) is new — or, when the rack was seen, while
// acceptableRackRepeats > 0 (then decremented). A skipped endpoint is not
// revisited. The list is in acceptance order across all datacenters.
func (p *Ring) buildNTS(servers []profile.Server, rf map[string]int) {
	dcs, srvDC, srvRack, nracks := topology(servers, rf)
	epSeen := make([]int32, len(servers))
	rackSeen := make([]int32, nracks)
	rfLeft := make([]int, len(dcs))
	repeats := make([]int, len(dcs))
	total := len(p.toks)
	p.offs = make([]int32, total+1)
	p.reps = p.reps[:0]
	for i := range total {
		gen := int32(i + 1)
		toFill := 0
		for d, dc := range dcs {
			rfLeft[d] = 0
			if dc.rf > 0 && dc.nodes > 0 {
				rfLeft[d] = min(dc.rf, dc.nodes)
				repeats[d] = dc.rf - dc.racks
				toFill++
			}
		}
		for k, j := 0, i; k < total && toFill > 0; k++ {
			s := p.owner[j]
			if j++; j == total {
				j = 0
			}
			d := srvDC[s]
			if rfLeft[d] == 0 || epSeen[s] == gen {
				continue
			}
			if rk := srvRack[s]; rackSeen[rk] != gen {
				rackSeen[rk] = gen
			} else if repeats[d] > 0 {
				repeats[d]--
			} else {
				continue
			}
			epSeen[s] = gen
			p.reps = append(p.reps, s)
			if rfLeft[d]--; rfLeft[d] == 0 {
				toFill--
			}
		}
		p.offs[i+1] = int32(len(p.reps))
	}
}
