/*
 * strhash prints Ceph's own ceph_str_hash_rjenkins of every name it reads:
 * it loads the libceph-common.so.2 named by argv[1] (the one crushtool and
 * osdmaptool link) and calls the function there, so that the test checks
 * every object name's hash against the product in one process instead of
 * one osdmaptool per name.
 *
 * Input on stdin: for each name, its length as 4 bytes little-endian, then
 * its bytes. Output: one decimal hash per line, in input order.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* ceph_str_hash_rjenkins(const char *, unsigned) from
 * src/common/ceph_hash.cc, a C++ function: looked up by its mangled name. */
typedef unsigned (*strhash_fn)(const char *, unsigned);
static const char symbol[] = "_Z22ceph_str_hash_rjenkinsPKcj";

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: strhash /path/to/libceph-common.so.2 < names\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
		return 1;
	}
	strhash_fn hash = (strhash_fn)dlsym(lib, symbol);
	if (hash == NULL) {
		fprintf(stderr, "dlsym %s: %s\n", symbol, dlerror());
		return 1;
	}
	unsigned char len[4];
	char *buf = NULL;
	while (fread(len, 1, 4, stdin) == 4) {
		unsigned n = len[0] | len[1] << 8 | len[2] << 16 | (unsigned)len[3] << 24;
		if (n > 1 << 20 || (buf = realloc(buf, n + 1)) == NULL || fread(buf, 1, n, stdin) != n) {
			fprintf(stderr, "bad input: a name of %u bytes\n", n);
			return 1;
		}
		printf("%u\n", hash(buf, n));
	}
	free(buf);
	return ferror(stdin) ? 1 : 0;
}
