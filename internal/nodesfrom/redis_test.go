package nodesfrom

import (
	"reflect"
	"strings"
	"testing"
)

const (
	idA = "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca"
	idB = "67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1"
	idC = "292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f"
	idD = "07c37dfeb235213a872192d90877d0cd55635b91"
	idE = "824fe116063bc5fcf9f4ffd895bc17aee7731ac3"
)

// redisThree is a three-master cluster with replicas as CLUSTER NODES
// shows it on Redis 7 (the example of the CLUSTER NODES documentation),
// the first master migrating slot 5461 to the second.
var redisThree = idD + " 127.0.0.1:30004@31004,hostname4 slave " + idA + " 0 1426238317239 4 connected\n" +
	idB + " 127.0.0.1:30002@31002,hostname2 master - 0 1426238316232 2 connected 5461-10922\n" +
	idC + " 127.0.0.1:30003@31003,hostname3 master - 0 1426238318243 3 connected 10923-16383\n" +
	idE + " 127.0.0.1:30005@31005,hostname5 slave " + idB + " 0 1426238316232 5 connected\n" +
	idA + " 127.0.0.1:30001@31001,hostname1 myself,master - 0 0 1 connected 0-5460 [5461->-" + idB + "]\n"

var redisCases = []tc{
	{
		name: "three masters and their replicas",
		in:   redisThree,
		want: []Node{
			n("127.0.0.1:30002", 1, 2, 1).label(idB),
			n("127.0.0.1:30003", 1, 3, 1).label(idC),
			n("127.0.0.1:30001", 1, 5, 1).label(idA),
		},
	},
	{
		name: "nodes.conf: failing masters, noaddr, handshake, single slots, old address form, vars",
		in: idA + " 10.0.0.1:6379@16379 myself,master - 0 0 1 connected 0 2-3 5\r\n" +
			idB + " 10.0.0.2:6379@16379 master,fail - 1426238316232 0 2 disconnected 4 [6-<-" + idA + "]\n" +
			idC + " 10.0.0.3:6379 master,fail? - 1426238316232 0 3 connected 1\n" +
			idD + " :0@0 master,noaddr - 1426238316232 0 4 disconnected\n" +
			idE + " 10.0.0.5:6379@16379 handshake,master - 0 0 0 connected\n" +
			"\n" +
			"vars currentEpoch 4 lastVoteEpoch 0\n",
		want: []Node{
			n("10.0.0.1:6379", 1, 1, 1).label(idA),
			n("10.0.0.2:6379", 1, 2, 1).label(idB).down(),
			n("10.0.0.3:6379", 1, 3, 1).label(idC).down(),
			n(":0", 1, 4, 1).label(idD).down(),
		},
	},

	// problems
	{
		name: "short lines, bad ids, addresses and slots",
		in: "hello world\n" +
			"abc 10.0.0.1:6379@16379 master - 0 0 1 connected\n" +
			idA + " 10.0.0.1 master - 0 0 1 connected\n" +
			idB + " 10.0.0.2:x@16379 master - 0 0 1 connected\n" +
			idC + " 10.0.0.3:6379@99999 master - 0 0 1 connected\n" +
			idD + " 10.0.0.4:6379@16379 master - 0 0 1 connected 16384 5-3 x 1-\n" +
			idD + " 10.0.0.5:6379@16379 master - 0 0 1 connected\n",
		errs: []string{
			`1:1: a CLUSTER NODES line has 8 fields before its slots`,
			`2:1: node id "abc" is not 40 hexadecimal digits`,
			`3:42: address "10.0.0.1" has no port`,
			`4:51: port "x" is not a number from 0 to 65535`,
			`5:56: cluster bus port "99999" is not a number`,
			`6:87: slot "16384" is not a slot (0 to 16383)`,
			`6:93: slot "5-3" is not a slot`,
			`6:97: slot "x" is not a slot`,
			`6:99: slot "1-" is not a slot`,
			`7:1: node ` + idD + ` is listed twice (first on line 6)`,
		},
	},
	{
		name: "a slot two masters claim, an address two masters have",
		in: idA + " 10.0.0.1:6379@16379 master - 0 0 1 connected 0-100\n" +
			idB + " 10.0.0.2:6379@16379 master - 0 0 1 connected 101-200 50\n" +
			idC + " 10.0.0.1:6379@16379 master - 0 0 1 connected\n",
		errs: []string{
			`2:95: slot 50 is served by both 10.0.0.1:6379 (line 1) and 10.0.0.2:6379`,
			`3:42: two masters have the address 10.0.0.1:6379 (the other on line 1)`,
		},
	},
	{
		name: "no masters",
		in:   idD + " 127.0.0.1:30004@31004 slave " + idA + " 0 1426238317239 4 connected\n",
		errs: []string{`0:0: no masters`},
	},
}

func TestRedis(t *testing.T) { run(t, "redis-cluster-nodes", redisCases) }

func TestRedisSlots(t *testing.T) {
	_, slots, errs := ParseRedisNodes([]byte(redisThree))
	want := []SlotRange{{0, 5460, 2}, {5461, 10922, 0}, {10923, 16383, 1}}
	if len(errs) > 0 || !reflect.DeepEqual(slots, want) {
		t.Errorf("slots %v, problems %v; want %v", slots, errs, want)
	}
	_, slots, _ = ParseRedisNodes([]byte(redisCases[1].in))
	want = []SlotRange{{0, 0, 0}, {1, 1, 2}, {2, 3, 0}, {4, 4, 1}, {5, 5, 0}}
	if !reflect.DeepEqual(slots, want) {
		t.Errorf("slots %v; want %v", slots, want)
	}
	if _, _, errs := ParseRedisNodes([]byte(strings.Repeat("x", MaxLine+1))); len(errs) != 1 {
		t.Errorf("a long line: %v", errs)
	}
}

func TestRedisLimits(t *testing.T) {
	var b strings.Builder
	for i := 0; i <= MaxServers; i++ {
		id := strings.Repeat("0", 35) + strings.Repeat("0", 5-len(itoa(i))) + itoa(i)
		b.WriteString(id + " 10.0.0.1:" + itoa(i) + "@1 master - 0 0 1 connected\n")
	}
	_, errs := Parse("redis-cluster-nodes", []byte(b.String()), "")
	checkResult(t, nil, errs, nil, []string{"10001:1: more than 10000 masters"})
	_, errs = Parse("redis-cluster-nodes", []byte(redisThree), "x")
	checkResult(t, nil, errs, nil, []string{"0:0: format redis-cluster-nodes has no sections to select"})
}
