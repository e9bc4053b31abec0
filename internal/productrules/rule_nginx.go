package productrules

import (
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/nginx"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// The registry entries of this file's profiles.
var (
	NginxKind     = Kind(nginxProfile)
	NginxHashKind = Kind(nginxHashProfile)
)

// nginxProfile is nginx's `hash $key consistent` and nginxHashProfile its
// plain `hash $key` (internal/profile/nginx). A failed node is a peer
// nginx has marked down: it keeps its points, and lookups walk past it.
var (
	nginxProfile = rulekind.Profile{
		Name: "nginx", HistoryFree: true,
		Doc:  "nginx 1.22 upstream hash $key consistent: 160 × weight points per server at CRC32(host‖NUL‖port‖previous point), the key's CRC32, first point clockwise (the Cache::Memcached::Fast continuum, not MD5 ketama).",
		Bits: 32,
		New:  func(placer.RuleSpec) (profile.Rule, error) { return nginx.New(nginx.Options{Consistent: true}) },
	}
	nginxHashProfile = rulekind.Profile{
		Name: "nginx-hash", Mosaic: true, HistoryFree: true,
		Doc: "nginx 1.22 upstream hash $key (without consistent): the Cache::Memcached formula, (CRC32(key) >> 16) & 0x7fff mod the total weight, rehashed with the try number when the pick is down.",
		// The position's low 32 bits are the key's CRC32, the high ones its
		// length (for the rehash tries): the wheel places keys by the CRC.
		Bits: 32,
		New:  func(placer.RuleSpec) (profile.Rule, error) { return nginx.New(nginx.Options{}) },
	}
)
