package registry

import (
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
)

func TestEffective(t *testing.T) {
	for _, tc := range []struct{ in, want placer.RuleSpec }{
		{placer.RuleSpec{Kind: "ring"}, placer.RuleSpec{Kind: "ring", Hash: "fnv1a-fmix", VNodes: 160}},
		{placer.RuleSpec{Kind: "ring", VNodes: 7, Hash: "md5"}, placer.RuleSpec{Kind: "ring", Hash: "md5", VNodes: 7}},
		{placer.RuleSpec{Kind: "bounded"}, placer.RuleSpec{Kind: "bounded", Hash: "fnv1a-fmix", VNodes: 160, Epsilon: 0.25}},
		{placer.RuleSpec{Kind: "multiprobe"}, placer.RuleSpec{Kind: "multiprobe", Hash: "fnv1a-fmix", VNodes: 1, Probes: 21}},
		{placer.RuleSpec{Kind: "maglev"}, placer.RuleSpec{Kind: "maglev", Hash: "fnv1a-fmix", M: 65537}},
		{placer.RuleSpec{Kind: "ketama"}, placer.RuleSpec{Kind: "ketama", Hash: "md5"}},
		{placer.RuleSpec{Kind: "slots"}, placer.RuleSpec{Kind: "slots", Hash: "crc16"}},
		{placer.RuleSpec{Kind: "jump", Hash: "xxhash64"}, placer.RuleSpec{Kind: "jump", Hash: "xxhash64"}},
	} {
		if got := Effective(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v.Effective() = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
