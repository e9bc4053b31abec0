// Package kafka_test checks internal/profile/kafka against real Kafka
// producer clients: kafkajs 2.2.4 under node, librdkafka (Debian
// librdkafka-dev, through a small C program calling its partitioner
// functions), and IBM/sarama and twmb/franz-go linked in as test-only Go
// modules. Every key's partition must agree at every partition count; the
// membership stories then check that Owners(h, 1) is the leader of the
// partition the real client chose. Kafka brokers are not run: the replica
// assignment is checked against Kafka's own test vectors in the profile's
// unit tests.
package kafka_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/kafka"
)

// counts are the partition counts every client is asked about.
var counts = []int{1, 3, 12, 16, 100}

const nKeys = 1500

// writeKeys writes the keys, hex-encoded one a line, to a file in dir.
func writeKeys(t *testing.T, dir string, ks [][]byte) string {
	t.Helper()
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(hex.EncodeToString(k))
		b.WriteByte('\n')
	}
	path := filepath.Join(dir, "keys.hex")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// parseRows reads one line per key of space-separated integers.
func parseRows(t *testing.T, out string, nKeys, perKey int) [][]int {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != nKeys {
		t.Fatalf("reference printed %d lines for %d keys", len(lines), nKeys)
	}
	rows := make([][]int, nKeys)
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != perKey {
			t.Fatalf("line %d: %q has %d fields, want %d", i+1, l, len(f), perKey)
		}
		for _, s := range f {
			v, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			rows[i] = append(rows[i], v)
		}
	}
	return rows
}

// mismatches compares, for one client, the reference partition of every
// key at every count with the profile's, and fails with the first few.
func mismatches(t *testing.T, client kafka.Client, ks [][]byte, ref func(key, count int) int) {
	t.Helper()
	r, err := kafka.New(kafka.Options{Partitions: 1, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	rule := r.(*kafka.Rule)
	bad, total := 0, 0
	for i, k := range ks {
		h := rule.Hash(k)
		for ci, n := range counts {
			want := ref(i, ci)
			if want < 0 {
				continue
			}
			total++
			if got := rule.Partition(h, n); got != want {
				if bad < 5 {
					t.Errorf("%s: key %q (hex %x), %d partitions: product %d, ringreport %d", client, k, k, n, want, got)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d partitions differ", client, bad, total)
	}
	t.Logf("%s: %d/%d key×count partitions agree", client, total, total)
}

const kafkajsScript = `
const path = require('path');
const fs = require('fs');
const { Partitioners } = require(path.join(process.argv[2], 'kafkajs'));
const counts = process.argv[4].split(',').map(Number);
const partitioner = Partitioners.DefaultPartitioner();
const out = [];
const lines = fs.readFileSync(process.argv[3], 'utf8').split('\n');
lines.pop(); // the file ends with a newline
for (const hex of lines) {
  const key = Buffer.from(hex, 'hex');
  const row = counts.map(n => {
    const partitionMetadata = [];
    for (let i = 0; i < n; i++) partitionMetadata.push({ partitionId: i, leader: 0 });
    return partitioner({ topic: 't', partitionMetadata, message: { key } });
  });
  out.push(row.join(' '));
}
process.stdout.write(out.join('\n') + '\n');
`

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// kafkajsPartitions runs kafkajs's DefaultPartitioner over the keys
// (lab.Keys(nKeys), the same in every test), once per test binary.
func kafkajsPartitions(t *testing.T, ks [][]byte) [][]int {
	t.Helper()
	return kafkajsRows.Get(t, func() [][]int {
		node, dir := lab.NodeModules(t, "kafkajs")
		tmp := t.TempDir()
		script := filepath.Join(tmp, "partition.js")
		if err := os.WriteFile(script, []byte(kafkajsScript), 0o644); err != nil {
			t.Fatal(err)
		}
		out := lab.Run(t, node, script, dir, writeKeys(t, tmp, ks), joinInts(counts))
		return parseRows(t, out, len(ks), len(counts))
	})
}

// kafkajsRows holds kafkajsPartitions for the test binary.
var kafkajsRows lab.Memo[[][]int]

func TestKafkaJS(t *testing.T) {
	ks := lab.Keys(nKeys)
	rows := kafkajsPartitions(t, ks)
	ref := func(i, c int) int { return rows[i][c] }
	mismatches(t, kafka.KafkaJS, ks, ref)
	mismatches(t, kafka.Java, ks, ref)
	// kafkajs#357: "100:48069" → 9 of 12, as the Java client.
	if rows[2][2] != 9 {
		t.Fatalf("kafkajs puts 100:48069 on partition %d of 12, want 9", rows[2][2])
	}
}

func TestSarama(t *testing.T) {
	ks := lab.Keys(nKeys)
	for _, c := range []struct {
		client kafka.Client
		ctor   sarama.PartitionerConstructor
	}{
		{kafka.Sarama, sarama.NewHashPartitioner},
		{kafka.SaramaReference, sarama.NewReferenceHashPartitioner},
		{kafka.SaramaMurmur2, sarama.NewMurmur2Partitioner},
		{kafka.SaramaCRC32, sarama.NewConsistentCRCHashPartitioner},
	} {
		p := c.ctor("t")
		mismatches(t, c.client, ks, func(i, ci int) int {
			got, err := p.Partition(&sarama.ProducerMessage{Key: sarama.ByteEncoder(ks[i])}, int32(counts[ci]))
			if err != nil {
				t.Fatal(err)
			}
			return int(got)
		})
	}
}

func TestFranzGo(t *testing.T) {
	ks := lab.Keys(nKeys)
	sticky := kgo.StickyKeyPartitioner(nil).ForTopic("t")
	mismatches(t, kafka.FranzGo, ks, func(i, ci int) int {
		return sticky.Partition(&kgo.Record{Key: ks[i]}, counts[ci])
	})
	// The client's default partitioner (UniformBytesPartitioner as set in
	// kgo's defaultCfg) hashes keyed records the same way.
	uniform := kgo.UniformBytesPartitioner(64<<10, true, true, nil).ForTopic("t").(kgo.TopicBackupPartitioner)
	mismatches(t, kafka.FranzGo, ks, func(i, ci int) int {
		return uniform.PartitionByBackup(&kgo.Record{Key: ks[i]}, counts[ci], nil)
	})
}

const rdkafkaProgram = `
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints, for each hex key on a line of argv[1] and each partition count
 * of argv[2..], the partitions of consistent_random, murmur2_random and
 * fnv1a_random. The empty key goes to a random partition under
 * consistent_random (which would need a topic handle); for it the plain
 * consistent partitioner is printed. */
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "r");
	static char line[2048];
	static unsigned char key[1024];
	if (!f) return 2;
	fprintf(stderr, "librdkafka %s\n", rd_kafka_version_str());
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\n") / 2;
		for (size_t i = 0; i < n; i++) {
			unsigned int b;
			sscanf(line + 2 * i, "%2x", &b);
			key[i] = (unsigned char)b;
		}
		for (int a = 2; a < argc; a++) {
			int32_t cnt = atoi(argv[a]);
			int32_t c = n == 0
				? rd_kafka_msg_partitioner_consistent(NULL, key, n, cnt, NULL, NULL)
				: rd_kafka_msg_partitioner_consistent_random(NULL, key, n, cnt, NULL, NULL);
			printf("%s%d %d %d", a > 2 ? " " : "", c,
				rd_kafka_msg_partitioner_murmur2_random(NULL, key, n, cnt, NULL, NULL),
				rd_kafka_msg_partitioner_fnv1a_random(NULL, key, n, cnt, NULL, NULL));
		}
		printf("\n");
	}
	return 0;
}
`

// needHeader fails under CI=true, and skips elsewhere, when a C header of
// a Debian package is missing (lab.Need covers binaries only).
func needHeader(t *testing.T, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	msg := fmt.Sprintf("%s not found; install Debian package %s", path, pkg)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run must install it)", msg)
	}
	t.Skip(msg)
}

func TestLibrdkafka(t *testing.T) {
	gcc := lab.Need(t, "gcc", "gcc")
	needHeader(t, "/usr/include/librdkafka/rdkafka.h", "librdkafka-dev")
	bin, err := lab.Compile(t, gcc, "partition.c", []byte(rdkafkaProgram), "-O1", "-lrdkafka")
	if err != nil {
		t.Fatal(err)
	}
	ks := lab.Keys(nKeys)
	args := []string{writeKeys(t, t.TempDir(), ks)}
	for _, n := range counts {
		args = append(args, strconv.Itoa(n))
	}
	rows := parseRows(t, lab.Run(t, bin, args...), len(ks), 3*len(counts))
	for fn, client := range []kafka.Client{kafka.Librdkafka, kafka.LibrdkafkaMurmur2, kafka.LibrdkafkaFNV1a} {
		mismatches(t, client, ks, func(i, ci int) int { return rows[i][3*ci+fn] })
	}
}

// TestStories replays membership changes and checks, for every key, that
// Owners(h, 1) is the live leader of the partition kafkajs chose, under
// both assigners.
func TestStories(t *testing.T) {
	ks := lab.Keys(nKeys)
	rows := kafkajsPartitions(t, ks)
	const at = 2 // counts[2] = 12 partitions
	s := func(name string, w int) profile.Server { return profile.Server{Name: name, Weight: w} }
	steps := []struct {
		name    string
		servers []profile.Server
	}{
		{"start a b c", []profile.Server{s("a", 1), s("b", 1), s("c", 1)}},
		{"add d", []profile.Server{s("a", 1), s("b", 1), s("c", 1), s("d", 1)}},
		{"remove b", []profile.Server{s("a", 1), s("c", 1), s("d", 1)}},
		{"weight c=3", []profile.Server{s("a", 1), s("c", 3), s("d", 1)}},
		{"d down", []profile.Server{s("a", 1), s("c", 3), {Name: "d", Weight: 1, Down: true}}},
	}
	for _, assigner := range []kafka.Assigner{kafka.KRaft, kafka.ZooKeeper} {
		r, err := kafka.New(kafka.Options{Partitions: counts[at], ReplicationFactor: 2, Client: kafka.KafkaJS, Assignment: assigner})
		if err != nil {
			t.Fatal(err)
		}
		rule := r.(*kafka.Rule)
		var prev profile.Placement
		for _, st := range steps {
			pl, err := rule.Build(st.servers, prev)
			if err != nil {
				t.Fatalf("%s, %s: %v", assigner, st.name, err)
			}
			prev = pl
			kp := pl.(*kafka.Placement)
			agree := 0
			for i, k := range ks {
				want := leader(kp, st.servers, rows[i][at])
				got := pl.Owners(rule.Hash(k), 1, nil)
				if (want < 0 && len(got) == 0) || (len(got) == 1 && got[0] == want) {
					agree++
				} else if i-agree < 5 {
					t.Errorf("%s, %s: key %q: leader of kafkajs's partition %d is %d, Owners %v", assigner, st.name, k, rows[i][at], want, got)
				}
			}
			if agree != len(ks) {
				t.Fatalf("%s, %s: %d of %d keys agree", assigner, st.name, agree, len(ks))
			}
			t.Logf("%s, %s: %d/%d keys agree", assigner, st.name, agree, len(ks))
		}
	}
}

// leader returns the index of the first live server among partition p's
// replicas, or −1.
func leader(pl *kafka.Placement, servers []profile.Server, p int) int {
	for _, id := range pl.Replicas(p) {
		for i, s := range servers {
			if !s.Down && pl.BrokerID(i) == id {
				return i
			}
		}
	}
	return -1
}
