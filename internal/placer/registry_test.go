package placer

import (
	"reflect"
	"testing"
)

func TestEffective(t *testing.T) {
	for _, tc := range []struct{ in, want RuleSpec }{
		{RuleSpec{Kind: "ring"}, RuleSpec{Kind: "ring", Hash: "fnv1a-fmix", VNodes: 160}},
		{RuleSpec{Kind: "ring", VNodes: 7, Hash: "md5"}, RuleSpec{Kind: "ring", Hash: "md5", VNodes: 7}},
		{RuleSpec{Kind: "bounded"}, RuleSpec{Kind: "bounded", Hash: "fnv1a-fmix", VNodes: 160, Epsilon: 0.25}},
		{RuleSpec{Kind: "multiprobe"}, RuleSpec{Kind: "multiprobe", Hash: "fnv1a-fmix", VNodes: 1, Probes: 21}},
		{RuleSpec{Kind: "maglev"}, RuleSpec{Kind: "maglev", Hash: "fnv1a-fmix", M: 65537}},
		{RuleSpec{Kind: "ketama"}, RuleSpec{Kind: "ketama", Hash: "md5"}},
		{RuleSpec{Kind: "slots"}, RuleSpec{Kind: "slots", Hash: "crc16"}},
		{RuleSpec{Kind: "jump", Hash: "xxhash64"}, RuleSpec{Kind: "jump", Hash: "xxhash64"}},
	} {
		if got := tc.in.Effective(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v.Effective() = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
