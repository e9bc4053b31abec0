// Package profile defines what a production profile provides: a placement
// rule named after a product and version, reproducing that product's own
// choice of server for every key, bit for bit.
//
// Each product lives in a subpackage (profile/nginx, profile/haproxy, …)
// that knows nothing of ringreport's simulator: it takes the servers as the
// product's configuration lists them and answers lookups the way the
// product does. The simulator adapts any Rule through one generic placer,
// and internal/conformance checks each subpackage against the real product.
package profile

// Server is one server as the product's configuration lists it, in
// configuration order (for ringreport, join order).
type Server struct {
	// Name is the server's identity as the product spells it, e.g.
	// "10.0.0.1:11211" for a memcached client or nginx upstream.
	Name string
	// Weight is the server's configured weight, ≥ 1.
	Weight int
	// Down marks a server that is configured but failed; each product
	// decides what that means (skipped at lookup, or left out of the build).
	Down bool
	// ID is the product's numeric server id where it has one (HAProxy's
	// "id", 1-based); 0 means the server's 1-based position in the list.
	ID int
	// Zone and Rack are topology labels, empty when not given.
	Zone, Rack string
}

// A Rule is one product's placement function for a fixed set of options.
type Rule interface {
	// Hash returns a key's position under the product. It depends only on
	// the key and the rule's options, never on the membership, so callers
	// compute it once per key.
	Hash(key []byte) uint64
	// Build returns the product's placement over servers. prev is the
	// placement of the previous membership, or nil for the first one; only
	// products whose placement depends on history (redis-cli's planners)
	// read it.
	Build(servers []Server, prev Placement) (Placement, error)
}

// A Placement is a product's placement over one membership.
type Placement interface {
	// Owners appends to dst, and returns, the indexes into the servers
	// given to Build of up to r distinct servers that hold a key of
	// position h, primary first, as the product orders its replicas (or
	// its failover order where it has no replicas). It never returns a
	// Down server; it returns fewer than r when fewer are available.
	Owners(h uint64, r int, dst []int) []int
}

// Point is one point of a continuum: a position in the product's hash
// space and the index of the server that owns it.
type Point struct {
	Pos    uint64
	Server int
}

// A Continuum is a Placement that places points on a circle; figures draw
// them. Bits is the width of the hash space (32 or 64).
type Continuum interface {
	Placement
	Points() (pts []Point, bits int)
}
