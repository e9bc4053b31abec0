package redis_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile/redis"
)

// TestCRC16 checks the check value src/crc16.c (redis 7.0.15) documents:
// CRC-16/XMODEM("123456789") = 0x31C3, also in the Redis Cluster
// specification.
func TestCRC16(t *testing.T) {
	if got := redis.CRC16([]byte("123456789")); got != 0x31C3 {
		t.Fatalf("CRC16(123456789) = %#04x, want 0x31c3", got)
	}
	if got := redis.CRC16(nil); got != 0 {
		t.Fatalf("CRC16(empty) = %#04x, want 0", got)
	}
}

// TestKeySlotVectors checks published slots: the CLUSTER KEYSLOT page of
// redis.io (somekey, foo/bar{hash_tag}), the cluster specification's
// hash-tag examples, and slots that redis-server 7.0.15 answered
// (production-rules.md §8; the conformance test asks again).
func TestKeySlotVectors(t *testing.T) {
	for _, v := range []struct {
		key  string
		slot int
	}{
		{"somekey", 11058}, {"foo{hash_tag}", 2515}, {"bar{hash_tag}", 2515},
		{"{user1}.following", 8106}, {"{a}b", 15495}, {"{}x", 10595}, {"a{}{b}", 15033},
		{"{", 4092}, {"}", 12090}, {"{}", 15257}, {"{{a}}", 10276}, {"foo{}{bar}", 8363},
		{"foo{{bar}}zap", 4015}, {"foo{bar}{zap}", 5061}, {"日本語{タグ}", 9716},
		{"{中文}key", 13257}, {"🎉", 13171}, {"", 0},
	} {
		if got := redis.KeySlot([]byte(v.key)); got != v.slot {
			t.Errorf("KeySlot(%q) = %d, want %d", v.key, got, v.slot)
		}
	}
}

// slotTable samples src/crc16_slottable.h of redis/redis at tag 7.0.15:
// the shortest alphanumeric key of each slot (slots 0..20, then every
// 127th, and the last).
var slotTable = []struct {
	slot int
	key  string
}{
	{0, "06S"}, {1, "Qi"}, {2, "5L5"}, {3, "4Iu"}, {4, "4gY"}, {5, "460"}, {6, "1Y7"}, {7, "1LV"},
	{8, "0QG"}, {9, "ru"}, {10, "7Ok"}, {11, "4ji"}, {12, "4DE"}, {13, "65n"}, {14, "2JH"},
	{15, "I8"}, {16, "F9"}, {17, "SX"}, {18, "7nF"}, {19, "4KD"}, {20, "4eh"}, {147, "1Nc"},
	{274, "499"}, {401, "5C8"}, {528, "06B"}, {655, "4hM"}, {782, "9e"}, {909, "SE"}, {1036, "74n"},
	{1163, "3KL"}, {1290, "bbo"}, {1417, "4vt"}, {1544, "at"}, {1671, "6oS"}, {1798, "Z1"},
	{1925, "0BJ"}, {2052, "0kT"}, {2179, "644"}, {2306, "2SO"}, {2433, "kv"}, {2560, "5lW"},
	{2687, "86L"}, {2814, "7KX"}, {2941, "6VE"}, {3068, "02h"}, {3195, "abn"}, {3322, "0hY"},
	{3449, "S6"}, {3576, "7Ua"}, {3703, "jS"}, {3830, "5LF"}, {3957, "5Az"}, {4084, "go"},
	{4211, "0Rm"}, {4338, "6rH"}, {4465, "7oU"}, {4592, "1Op"}, {4719, "4db"}, {4846, "RV"},
	{4973, "0i9"}, {5100, "bSm"}, {5227, "AS"}, {5354, "43o"}, {5481, "5jz"}, {5608, "Lo"},
	{5735, "77U"}, {5862, "0CY"}, {5989, "x6"}, {6116, "aDR"}, {6243, "5Lp"}, {6370, "je"},
	{6497, "gY"}, {6624, "4Qm"}, {6751, "Xo"}, {6878, "bTh"}, {7005, "4cg"}, {7132, "US"},
	{7259, "49V"}, {7386, "Kj"}, {7513, "FV"}, {7640, "44j"}, {7767, "1YA"}, {7894, "6iE"},
	{8021, "6dy"}, {8148, "307"}, {8275, "SZ"}, {8402, "4en"}, {8529, "4hR"}, {8656, "0h5"},
	{8783, "67L"}, {8910, "e2"}, {9037, "8WE"}, {9164, "7nY"}, {9291, "v7"}, {9418, "74h"},
	{9545, "79T"}, {9672, "0MX"}, {9799, "40R"}, {9926, "Bn"}, {10053, "OR"}, {10180, "4yf"},
	{10307, "4k5"}, {10434, "0kR"}, {10561, "0fn"}, {10688, "6FK"}, {10815, "5E0"}, {10942, "0Uv"},
	{11069, "0XJ"}, {11196, "6xo"}, {11323, "0Fs"}, {11450, "5V5"}, {11577, "6kj"}, {11704, "0KO"},
	{11831, "46E"}, {11958, "q"}, {12085, "IE"}, {12212, "5oP"}, {12339, "7LC"}, {12466, "08O"},
	{12593, "05s"}, {12720, "hbu"}, {12847, "8t"}, {12974, "4JH"}, {13101, "4Gt"}, {13228, "5H"},
	{13355, "4YM"}, {13482, "oy"}, {13609, "bE"}, {13736, "4Tq"}, {13863, "0ms"}, {13990, "6MV"},
	{14117, "7PK"}, {14244, "14f"}, {14371, "G"}, {14498, "46s"}, {14625, "5of"}, {14752, "Is"},
	{14879, "5PP"}, {15006, "2M"}, {15133, "2mh"}, {15260, "4MM"}, {15387, "1C2"}, {15514, "4St"},
	{15641, "5Ni"}, {15768, "3nL"}, {15895, "6Go"}, {16022, "0gJ"}, {16149, "0jv"}, {16276, "5z0"},
	{16383, "6ZJ"},
}

// TestKeySlotTable checks keys Redis ships to reach given slots.
func TestKeySlotTable(t *testing.T) {
	for _, v := range slotTable {
		if got := redis.KeySlot([]byte(v.key)); got != v.slot {
			t.Errorf("KeySlot(%q) = %d, want %d (crc16_slottable.h)", v.key, got, v.slot)
		}
	}
}

// TestHashTag checks keyHashSlot's tag rule on its edge cases: the first
// '{' and the first '}' after it; an empty or unclosed tag hashes the
// whole key.
func TestHashTag(t *testing.T) {
	for _, v := range []struct{ key, tag string }{
		{"", ""}, {"plain", "plain"}, {"{user1}.following", "user1"},
		{"foo{}{bar}", "foo{}{bar}"}, {"foo{{bar}}zap", "{bar"}, {"foo{bar}{zap}", "bar"},
		{"{", "{"}, {"}", "}"}, {"}{", "}{"}, {"}{x}", "x"}, {"a{b", "a{b"},
		{"{}", "{}"}, {"日本語{タグ}", "タグ"}, {"{\x00}", "\x00"}, {"x{é́}", "é́"},
	} {
		if got := string(redis.HashTag([]byte(v.key))); got != v.tag {
			t.Errorf("HashTag(%q) = %q, want %q", v.key, got, v.tag)
		}
	}
}

// TestKeySlotLongAndBinary checks that a tag makes any key, however long
// or binary, share its tag's slot, and that slots stay below 16384.
func TestKeySlotLongAndBinary(t *testing.T) {
	tag := redis.KeySlot([]byte("tag"))
	long := append(bytes.Repeat([]byte{0xff, 0, '}'}, 1<<16), "{tag}"...)
	if got := redis.KeySlot(long); got != tag {
		t.Errorf("long key with {tag}: slot %d, want %d", got, tag)
	}
	if got := redis.KeySlot([]byte(strings.Repeat("日本語", 70) + "{tag}")); got != tag {
		t.Errorf("CJK key with {tag}: slot %d, want %d", got, tag)
	}
	for i := range 4096 {
		k := bytes.Repeat([]byte{byte(i), byte(i >> 4)}, 1+i%100)
		if s := redis.KeySlot(k); s < 0 || s >= redis.Slots {
			t.Fatalf("KeySlot(%q) = %d", k, s)
		}
	}
}
