package envoy_test

import (
	"fmt"
	"math/rand/v2"
)

// variedKeys returns at least n deterministic keys of every shape a client
// may hash: the empty key, hash tags, ASCII, CJK, emoji (with ZWJ
// sequences), combining marks, right-to-left scripts, invalid UTF-8 and raw
// bytes including NUL, of 1 to 200 bytes, from a fixed-seed generator.
func variedKeys(n int) [][]byte {
	rng := rand.New(rand.NewPCG(20703, 22558))
	shapes := []func(i int) string{
		func(i int) string { return fmt.Sprintf("{user%d}.x", i) },
		func(i int) string { return fmt.Sprintf("session:%d", i*7919) },
		func(i int) string { return fmt.Sprintf("用户-%d-数据", i) },
		func(i int) string { return fmt.Sprintf("ユーザー%dの鍵", i) },
		func(i int) string { return fmt.Sprintf("사용자%d", i) },
		func(i int) string { return fmt.Sprintf("🔑%d👩‍💻🏳️‍🌈", i) },
		func(i int) string { return fmt.Sprintf("cafe\u0301-%d-n\u0303", i) },
		func(i int) string { return fmt.Sprintf("مستخدم-%d", i) },
		func(i int) string { return fmt.Sprintf("משתמש %d", i) },
		func(i int) string { return fmt.Sprintf("127.0.0.1:%d_%d", 80+i%20, i) },
	}
	keys := [][]byte{{}, []byte("a"), []byte("127.0.0.1:90_0")}
	for i := 0; len(keys) < n; i++ {
		switch i % 4 {
		case 0, 1:
			keys = append(keys, []byte(shapes[i%len(shapes)](i)))
		case 2:
			// Random bytes, 1 to 200 of them, NUL and invalid UTF-8 included.
			b := make([]byte, 1+rng.IntN(200))
			for j := range b {
				b[j] = byte(rng.UintN(256))
			}
			keys = append(keys, b)
		default:
			// A long text key of 1 to 200 bytes cut from repeated scripts,
			// which splits multi-byte characters at arbitrary bytes.
			s := []byte(shapes[rng.IntN(len(shapes))](i))
			for len(s) < 200 {
				s = append(s, s...)
			}
			keys = append(keys, s[:1+rng.IntN(200)])
		}
	}
	return keys
}
