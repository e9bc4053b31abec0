package nodesfrom

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDump prints each case's result as Go table entries, for review.
func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	tables := map[string][]tc{"nginx": nginxCases, "haproxy": haproxyCases, "envoy": envoyCases, "libmemcached": memcachedCases, "redis-cluster-nodes": redisCases}
	for _, f := range strings.Split(os.Getenv("DUMP"), ",") {
		for _, c := range tables[f] {
			got, errs := Parse(f, []byte(c.in), c.sel)
			fmt.Printf("// %s\n", c.name)
			for _, x := range got {
				s := fmt.Sprintf("n(%q, %d, %d, %d)", x.Name, x.Weight, x.Line, x.Col)
				if x.Down {
					s += ".down()"
				}
				if x.Backup {
					s += ".backup()"
				}
				if x.Label != "" {
					s += fmt.Sprintf(".label(%q)", x.Label)
				}
				if x.ID != 0 {
					s += fmt.Sprintf(".id(%d)", x.ID)
				}
				fmt.Printf("\t%s,\n", s)
			}
			for _, e := range errs {
				fmt.Printf("\t%q,\n", e.Error())
			}
		}
	}
}
