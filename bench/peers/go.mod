module github.com/ringreport/ringreport/bench/peers

go 1.26.8

require (
	github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c
	github.com/buraksezer/consistent v0.10.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/dchest/siphash v1.2.3
	github.com/dgryski/go-jump v0.0.0-20170409065014-e1f439676b57
	github.com/dgryski/go-maglev v0.0.0-20200611225407-8961b9b1b8e6
	github.com/dgryski/go-mpchash v0.0.0-20200819201138-7382f34c4cd1
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8
	github.com/serialx/hashring v0.0.0-20200727003509-22c0c7ab6b1b
	github.com/stathat/consistent v1.0.0
)

require (
	github.com/stretchr/testify v1.12.1 // indirect
)
