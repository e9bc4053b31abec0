package haproxy

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// serverAddr is a server address as hash-key addr and addr-port read it.
type serverAddr struct {
	v4    bool
	sAddr uint32   // IPv4: s_addr as a little-endian host loads it
	v6    [16]byte // IPv6: the 16 address bytes
	port  uint32   // the port, 0 when the name has none
}

// parseAddr reads a server Name the way HAProxy's str2sa_range splits a
// "server" address: the port is what follows the last ':' that comes after
// any ']', and the host may be a bracketed IPv6 literal. Only IP literals
// are accepted: HAProxy would resolve a host name at start-up and hash the
// address it got, which ringreport cannot know (HAProxy falls back to
// hash-key id only for a server with no address at all, e.g. "init-addr
// none" awaiting DNS).
func parseAddr(name string) (serverAddr, error) {
	var a serverAddr
	host, port := name, ""
	if i := strings.LastIndexAny(name, ":]"); i >= 0 && name[i] == ':' {
		host, port = name[:i], name[i+1:]
		if port == "" {
			return a, fmt.Errorf("address %q has an empty port", name)
		}
	}
	if port != "" {
		p, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return a, fmt.Errorf("address %q: port %q is not a number in 0..65535 (port ranges and +/- offsets are not modelled)", name, port)
		}
		a.port = uint32(p)
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || ip.Zone() != "" {
		return a, fmt.Errorf("hash_key addr and addr-port need the server name to be an IP address such as \"10.0.0.1:80\" or \"[2001:db8::1]:80\"; %q is not", name)
	}
	if ip.Is4() {
		b := ip.As4()
		a.v4, a.sAddr = true, binary.LittleEndian.Uint32(b[:])
	} else {
		a.v6 = ip.As16()
	}
	return a, nil
}
