package kafka

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// TestMurmur2Vectors checks the published vectors of
// clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java
// (testMurmur2, apache/kafka trunk as of 2024-10, unchanged since 0.8.2).
func TestMurmur2Vectors(t *testing.T) {
	for _, c := range []struct {
		key  string
		want int32
	}{
		{"21", -973932308},
		{"foobar", -790332482},
		{"a-little-bit-long-string", -985981536},
		{"a-little-bit-longer-string", -1486304829},
		{"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
		{"abc", 479470107},
	} {
		if got := int32(Murmur2([]byte(c.key))); got != c.want {
			t.Errorf("murmur2(%q) = %d, want %d", c.key, got, c.want)
		}
	}
}

// TestKafkaJS357 is the vector of kafkajs issue #357: the Java client puts
// key "100:48069" on partition 9 of 12.
func TestKafkaJS357(t *testing.T) {
	r := mustRule(t, Options{Partitions: 12})
	if got := r.Partition(r.Hash([]byte("100:48069")), 12); got != 9 {
		t.Fatalf("partition of 100:48069 = %d, want 9", got)
	}
}

// TestHashPrimitives checks CRC-32 and FNV-1a 32 against their standard
// check values ("123456789" → 0xcbf43926; FNV-1a of "a" → 0xe40c292c).
func TestHashPrimitives(t *testing.T) {
	if got := CRC32([]byte("123456789")); got != 0xcbf43926 {
		t.Errorf("crc32 = %#x", got)
	}
	if got := FNV1a32([]byte("a")); got != 0xe40c292c {
		t.Errorf("fnv1a(a) = %#x", got)
	}
	if got := FNV1a32(nil); got != 0x811c9dc5 {
		t.Errorf("fnv1a() = %#x", got)
	}
}

// TestPartitionArithmetic checks each client's reduction on hashes with
// the sign bit set, where the clients differ.
func TestPartitionArithmetic(t *testing.T) {
	h := uint64(0xfffffff6) // int32 −10
	for _, c := range []struct {
		client Client
		want   int
	}{
		{Java, int(0x7ffffff6 % 7)},
		{SaramaReference, int(0x7ffffff6 % 7)},
		{Sarama, 3},                  // −10 % 7 = −3, negated
		{Librdkafka, 0xfffffff6 % 7}, // unsigned
		{LibrdkafkaFNV1a, 3},
	} {
		if got := PartitionFor(c.client, h, 7); got != c.want {
			t.Errorf("%s: partition = %d, want %d", c.client, got, c.want)
		}
	}
	// int32 minimum: sarama's remainder is −(2^31 mod n) or 0.
	if got := PartitionFor(Sarama, 0x80000000, 3); got != 2 {
		t.Errorf("sarama MinInt32 %% 3 = %d, want 2", got)
	}
	if got := PartitionFor(Java, 0x80000000, 3); got != 0 {
		t.Errorf("java MinInt32 → %d, want 0", got)
	}
}

// TestLibrdkafkaFNV1aVectors checks unittest_fnv1a of librdkafka's
// src/rdfnv1a.c (v2.x): rd_fnv1a returns |int32(FNV-1a)|, which is what
// LibrdkafkaFNV1a's Partition reduces.
func TestLibrdkafkaFNV1aVectors(t *testing.T) {
	short, long := "1234", "PreAmbleWillBeRemoved,ThePrePartThatIs"
	for _, c := range []struct {
		key  string
		want int32
	}{
		{"kafka", 0xd33c4e1}, {"giberish123456789", 0x77a58295},
		{short, 0x23bdd03}, {short[1:], 0x2dea3cd2}, {short[2:], 0x740fa83e}, {short[3:], 0x310ca263},
		{long, 0x65cbd69c}, {long[1:], 0x6e49c79a}, {long[2:], 0x69eed356}, {long[3:], 0x6abcc023},
		{"", 0x7ee3623b},
	} {
		h := int32(FNV1a32([]byte(c.key)))
		if h < 0 {
			h = -h
		}
		if h != c.want {
			t.Errorf("rd_fnv1a(%q) = %#x, want %#x", c.key, h, c.want)
		}
		for _, n := range []int{1, 7, 100} {
			if got := PartitionFor(LibrdkafkaFNV1a, uint64(FNV1a32([]byte(c.key))), n); got != int(uint32(h)%uint32(n)) {
				t.Errorf("fnv1a partition of %q over %d = %d", c.key, n, got)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	eff := Options{Partitions: 3}.Effective()
	if eff != (Options{Partitions: 3, ReplicationFactor: 1, Client: Java, Assignment: KRaft}) {
		t.Fatalf("Effective = %+v", eff)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{}, "partitions is required"},
		{Options{Partitions: -1}, "out of range"},
		{Options{Partitions: 3, Client: "sarma"}, `client "sarma" is not one of java, kafkajs`},
		{Options{Partitions: 3, Assignment: "zk"}, `assignment "zk" is not one of kraft, zookeeper`},
		{Options{Partitions: 3, ReplicationFactor: -2}, "replication_factor -2"},
	} {
		_, err := New(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error with %q", c.o, err, c.want)
		}
	}
}

func mustRule(t *testing.T, o Options) *Rule {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r.(*Rule)
}

func servers(names ...string) []profile.Server {
	out := make([]profile.Server, len(names))
	for i, n := range names {
		out[i] = profile.Server{Name: n, Weight: 1}
	}
	return out
}

func build(t *testing.T, r *Rule, ss []profile.Server, prev profile.Placement) *Placement {
	t.Helper()
	p, err := r.Build(ss, prev)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Placement)
}

func assignment(p *Placement) string {
	var b strings.Builder
	for i := range p.Partitions() {
		fmt.Fprint(&b, p.Replicas(i))
	}
	return b.String()
}

// TestStripedRackUnaware: with every draw fixed, partition p has brokers
// (p+k) mod n, and the epoch reset after n partitions keeps the stripe.
func TestStripedRackUnaware(t *testing.T) {
	r := mustRule(t, Options{Partitions: 7, ReplicationFactor: 3})
	p := build(t, r, servers("a", "b", "c"), nil)
	want := "[1 2 3][2 3 1][3 1 2][1 2 3][2 3 1][3 1 2][1 2 3]"
	if got := assignment(p); got != want {
		t.Fatalf("assignment %s, want %s", got, want)
	}
}

// TestStripedRackAware follows the worked example of StripedReplicaPlacer's
// class comment: racks A, B, C of three brokers each, all offsets 0, give
// partition 1: A0 B0 C0, partition 2: B1 C1 A1, partition 3: C2 A2 B2.
func TestStripedRackAware(t *testing.T) {
	var ss []profile.Server
	for i, rk := range []string{"A", "A", "A", "B", "B", "B", "C", "C", "C"} {
		ss = append(ss, profile.Server{Name: fmt.Sprint("b", i), Weight: 1, Rack: rk})
	}
	r := mustRule(t, Options{Partitions: 3, ReplicationFactor: 3})
	p := build(t, r, ss, nil)
	// ids: A = 1,2,3  B = 4,5,6  C = 7,8,9
	want := "[1 4 7][5 8 2][9 3 6]"
	if got := assignment(p); got != want {
		t.Fatalf("assignment %s, want %s", got, want)
	}
}

// TestStripedAgainstKafka holds what Kafka's own StripedReplicaPlacer.RackList
// (apache/kafka trunk of 2024-10, 4.0.0-SNAPSHOT, run once under
// openjdk-17 with a java.util.Random whose draws are fixed as this package
// fixes them: start offsets 0, shuffles that keep the order) assigned for
// these brokers, written "partitions rf id:rack:fenced…" ("-" = no rack).
// The cases cover racks of unequal size, fenced brokers, a lone unfenced
// broker, the epoch reset, and rack names that Java orders by UTF-16.
func TestStripedAgainstKafka(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"13 3 1:-:0 2:-:0 3:-:0 4:-:0 5:-:0",
			"[1 2 3][2 3 4][3 4 5][4 5 1][5 1 2][1 2 3][2 3 4][3 4 5][4 5 1][5 1 2][1 2 3][2 3 4][3 4 5]"},
		{"20 3 1:A:0 2:A:0 3:A:0 4:B:0 5:B:0 6:B:0 7:C:0 8:C:0 9:C:0",
			"[1 4 7][5 8 2][9 3 6][1 4 7][5 8 2][9 3 6][1 4 7][5 8 2][9 3 6][1 4 7][5 8 2][9 3 6][1 4 7][5 8 2][9 3 6][1 4 7][5 8 2][9 3 6][1 4 7][5 8 2]"},
		{"15 3 1:A:0 2:A:0 3:B:0 4:C:0 5:C:1 6:C:0 7:C:0",
			"[1 3 4][3 6 2][7 1 3][2 3 4][3 6 1][7 2 3][1 3 4][3 6 2][7 1 3][2 3 4][3 6 1][7 2 3][1 3 4][3 6 2][7 1 3]"},
		{"10 2 1:-:0 2:-:1 3:-:0 4:-:0",
			"[1 3][3 4][4 1][1 3][3 4][4 1][1 3][3 4][4 1][1 3]"},
		{"4 3 1:-:1 2:-:0 3:-:1",
			"[2 1 3][2 3 1][2 1 3][2 3 1]"},
		{"11 2 1:-:0 2:-:0 3:x:0 4:x:0 5:é:0 6:😀:0 7:ｚ:0 8:x:1",
			"[1 3][4 5][5 6][6 7][7 2][1 3][4 5][5 6][6 7][7 2][1 3]"},
	} {
		f := strings.Fields(c.spec)
		var parts, rf int
		fmt.Sscan(f[0], &parts)
		fmt.Sscan(f[1], &rf)
		var bs []broker
		for _, b := range f[2:] {
			x := strings.Split(b, ":")
			var id int
			fmt.Sscan(x[0], &id)
			bs = append(bs, broker{id: id, rack: x[1], hasRack: x[1] != "-", fenced: x[2] == "1"})
		}
		out, err := placeStriped(bs, nil, parts, rf)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		for _, p := range out {
			fmt.Fprint(&got, p)
		}
		if got.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.spec, got.String(), c.want)
		}
	}
}

// TestFencedNeverLeads: a Down broker at creation is fenced under kraft:
// it gets follower replicas only once the unfenced ones are used up.
func TestFencedNeverLeads(t *testing.T) {
	ss := servers("a", "b", "c")
	ss[0].Down = true
	r := mustRule(t, Options{Partitions: 4, ReplicationFactor: 3})
	p := build(t, r, ss, nil)
	for i := range p.Partitions() {
		reps := p.Replicas(i)
		if reps[0] == 1 || reps[2] != 1 {
			t.Fatalf("partition %d replicas %v: the fenced broker 1 must come last", i, reps)
		}
	}
	// Owners never names the Down server.
	for h := range uint64(200) {
		for _, o := range p.Owners(h, 3, nil) {
			if o == 0 {
				t.Fatalf("Owners(%d) names the Down server", h)
			}
		}
	}
}

// TestAdminUtilsRackUnaware: fixedStartIndex 0 gives the classic pattern,
// and nextReplicaShift grows every n partitions.
func TestAdminUtilsRackUnaware(t *testing.T) {
	r := mustRule(t, Options{Partitions: 6, ReplicationFactor: 2, Assignment: ZooKeeper})
	p := build(t, r, servers("a", "b", "c"), nil)
	want := "[1 2][2 3][3 1][1 3][2 1][3 2]"
	if got := assignment(p); got != want {
		t.Fatalf("assignment %s, want %s", got, want)
	}
}

// TestAdminUtilsVectors reproduces core/src/test/scala/unit/kafka/admin/
// AdminRackAwareTest.scala (apache/kafka trunk, 2024-10):
// testGetRackAlternatedBrokerListAndAssignReplicasToBrokers and
// testReplicaAssignment, both with fixedStartIndex 0.
func TestAdminUtilsVectors(t *testing.T) {
	rackMap := map[int]string{0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
	var bs []broker
	for id := range 6 {
		bs = append(bs, broker{id: id, rack: rackMap[id], hasRack: true})
	}
	ids, _, _ := rackAlternated(bs)
	if want := []int{0, 3, 1, 5, 4, 2}; !slices.Equal(ids, want) {
		t.Fatalf("rack alternated %v, want %v", ids, want)
	}
	if ids, _, _ := rackAlternated(bs[:5]); !slices.Equal(ids, []int{0, 3, 1, 4, 2}) {
		t.Fatalf("rack alternated without 5: %v", ids)
	}
	got := fmt.Sprint(adminRackAware(bs, 7, 3, 0, 0))
	if want := "[[0 3 1] [3 1 5] [1 5 4] [5 4 2] [4 2 0] [2 0 3] [0 4 2]]"; got != want {
		t.Fatalf("rack-aware assignment %s, want %s", got, want)
	}
	got = fmt.Sprint(adminRackUnaware([]int{0, 1, 2, 3, 4}, 10, 3, 0, 0))
	if want := "[[0 1 2] [1 2 3] [2 3 4] [3 4 0] [4 0 1] [0 2 3] [1 3 4] [2 4 0] [3 0 1] [4 1 2]]"; got != want {
		t.Fatalf("rack-unaware assignment %s, want %s", got, want)
	}
}

// TestAdminUtilsRackAware: every partition of a rack-aware topic spans
// distinct racks, and ZooKeeper mode refuses brokers without a rack.
func TestAdminUtilsRackAware(t *testing.T) {
	// Every partition of a rack-aware topic spans distinct racks.
	var ss []profile.Server
	for i, rk := range []string{"r1", "r1", "r2", "r2", "r3", "r3"} {
		ss = append(ss, profile.Server{Name: fmt.Sprint("b", i), Weight: 1, Rack: rk})
	}
	r := mustRule(t, Options{Partitions: 12, ReplicationFactor: 3, Assignment: ZooKeeper})
	p := build(t, r, ss, nil)
	for i := range p.Partitions() {
		racks := map[string]bool{}
		for _, id := range p.Replicas(i) {
			racks[ss[id-1].Rack] = true
		}
		if len(racks) != 3 {
			t.Fatalf("partition %d replicas %v span %d racks", i, p.Replicas(i), len(racks))
		}
	}
	ss[0].Rack = ""
	if _, err := r.Build(ss, nil); err == nil || !strings.Contains(err.Error(), "not all brokers have rack") {
		t.Fatalf("mixed racks: %v", err)
	}
}

// TestMembershipKeepsAssignment: adding, removing and failing brokers
// never moves a partition; failure moves leadership to the next replica.
func TestMembershipKeepsAssignment(t *testing.T) {
	r := mustRule(t, Options{Partitions: 6, ReplicationFactor: 2})
	p0 := build(t, r, servers("a", "b", "c"), nil)
	p1 := build(t, r, servers("a", "b", "c", "d"), p0)
	if assignment(p1) != assignment(p0) {
		t.Fatalf("adding a broker changed the assignment: %s → %s", assignment(p0), assignment(p1))
	}
	if p1.BrokerID(3) != 4 {
		t.Fatalf("new broker id %d, want 4", p1.BrokerID(3))
	}
	// Remove b: c keeps id 3, d keeps 4, a newcomer e gets 5.
	p2 := build(t, r, servers("a", "c", "d", "e"), p1)
	if got := []int{p2.BrokerID(0), p2.BrokerID(1), p2.BrokerID(2), p2.BrokerID(3)}; !slices.Equal(got, []int{1, 3, 4, 5}) {
		t.Fatalf("ids after removal %v, want [1 3 4 5] (e's position 4 is d's id, so it gets the highest id + 1)", got)
	}
	// Partition 0 is [1 2]: with broker 2 gone, only a (index 0) owns it.
	h := hashFor(t, r, 0)
	if got := p2.Owners(h, 2, nil); !slices.Equal(got, []int{0}) {
		t.Fatalf("owners of partition 0 = %v, want [0]", got)
	}
	// Fail a: partition 0 has no live replica left.
	ss := servers("a", "c", "d", "e")
	ss[0].Down = true
	p3 := build(t, r, ss, p2)
	if got := p3.Owners(h, 2, nil); len(got) != 0 {
		t.Fatalf("owners with every replica down = %v", got)
	}
	// Partition 2 is [3 1]: leader c (index 1), follower a down.
	if got := p3.Owners(hashFor(t, r, 2), 2, nil); !slices.Equal(got, []int{1}) {
		t.Fatalf("owners of partition 2 = %v, want [1]", got)
	}
}

// TestPartitionIncrease: new partitions continue the stripe after the last
// partition's leader; existing ones keep their replicas.
func TestPartitionIncrease(t *testing.T) {
	r3 := mustRule(t, Options{Partitions: 4, ReplicationFactor: 2})
	p0 := build(t, r3, servers("a", "b", "c"), nil)
	r6 := mustRule(t, Options{Partitions: 6, ReplicationFactor: 2})
	p1 := build(t, r6, servers("a", "b", "c"), p0)
	want := "[1 2][2 3][3 1][1 2][2 3][3 1]"
	if got := assignment(p1); got != want {
		t.Fatalf("assignment %s, want %s", got, want)
	}
	if _, err := r3.Build(servers("a", "b", "c"), p1); err == nil {
		t.Fatal("shrinking the partition count must fail")
	}
	rz := mustRule(t, Options{Partitions: 4, ReplicationFactor: 2, Assignment: ZooKeeper})
	z0 := build(t, rz, servers("a", "b", "c"), nil)
	rz6 := mustRule(t, Options{Partitions: 6, ReplicationFactor: 2, Assignment: ZooKeeper})
	z1 := build(t, rz6, servers("a", "b", "c"), z0)
	// AdminZkClient restarts the shift at partition 0's leader index, so
	// partitions 4 and 5 differ from a topic created with 6.
	if got, want := assignment(z1), "[1 2][2 3][3 1][1 3][2 3][3 1]"; got != want {
		t.Fatalf("zookeeper assignment %s, want %s", got, want)
	}
}

// hashFor finds a key hash that the rule maps to partition p.
func hashFor(t *testing.T, r *Rule, p int) uint64 {
	t.Helper()
	for i := range 10000 {
		h := r.Hash([]byte(fmt.Sprint("k", i)))
		if r.Partition(h, r.o.Partitions) == p {
			return h
		}
	}
	t.Fatalf("no key for partition %d", p)
	return 0
}

func TestEdgeKeys(t *testing.T) {
	long := strings.Repeat("ключ🔑", 100)
	for _, c := range Clients {
		r := mustRule(t, Options{Partitions: 5, Client: c})
		for _, k := range []string{"", "a", long, "é", "{user1}.x"} {
			h := r.Hash([]byte(k))
			if p := r.Partition(h, 5); p < 0 || p >= 5 {
				t.Fatalf("%s: partition of %q = %d", c, k, p)
			}
		}
	}
	// A nil key is an empty key here: ringreport keys are never null.
	if got := Murmur2(nil); got != Murmur2([]byte{}) {
		t.Fatal("nil and empty keys differ")
	}
}

func TestOneServerAndAllDown(t *testing.T) {
	r := mustRule(t, Options{Partitions: 3})
	p := build(t, r, servers("solo"), nil)
	for h := range uint64(50) {
		if got := p.Owners(h, 3, nil); !slices.Equal(got, []int{0}) {
			t.Fatalf("Owners = %v", got)
		}
	}
	ss := servers("a", "b")
	ss[0].Down, ss[1].Down = true, true
	if _, err := r.Build(ss, nil); err == nil {
		t.Fatal("creating a topic with every broker fenced must fail")
	}
	p = build(t, r, servers("a", "b"), nil)
	p2 := build(t, r, ss, p)
	if got := p2.Owners(0, 1, nil); len(got) != 0 {
		t.Fatalf("all down: %v", got)
	}
	if _, err := mustRule(t, Options{Partitions: 3, ReplicationFactor: 3}).Build(servers("a", "b"), nil); err == nil {
		t.Fatal("replication factor above the broker count must fail")
	}
}

func TestOwnersNoAlloc(t *testing.T) {
	r := mustRule(t, Options{Partitions: 64, ReplicationFactor: 3})
	p := build(t, r, servers("a", "b", "c", "d", "e"), nil)
	dst := make([]int, 0, 3)
	if n := testing.AllocsPerRun(100, func() { dst = p.Owners(12345, 3, dst[:0]) }); n != 0 {
		t.Fatalf("Owners allocates %v times", n)
	}
}
