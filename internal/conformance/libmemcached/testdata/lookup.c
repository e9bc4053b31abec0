/* lookup: asks the installed libmemcached which server it picks for each
 * key, without any memcached server (no connection is ever made).
 *
 * Usage: lookup KEYFILE SPECFILE... KEYFILE holds one key per line, as
 * hex ("-" is the empty key). Each SPECFILE is one membership, one
 * directive a line:
 *   mode weighted|ketama|spy
 *   hash N            (optional: MEMCACHED_BEHAVIOR_HASH, libhashkit enum)
 *   sort 0|1          (optional: MEMCACHED_BEHAVIOR_SORT_HOSTS)
 *   ns NAMESPACE      (optional: hashed in front of keys, HASH_WITH_PREFIX_KEY)
 *   server HOST PORT WEIGHT DOWN   (one per server, in configuration order)
 * For each SPECFILE, in order, a fresh memcached_st gets the behaviours in
 * that order, then the servers; lookup prints "spec I", "list POS HOST
 * PORT" for the client's final server list, then "key INDEX DIGEST" per
 * key: memcached_generate_hash's server position and the key hash
 * function's value of the bare key. One process answers every membership
 * of the test: nothing is shared between two memcached_st but the keys.
 *
 * A DOWN server is put in the state libmemcached's auto-eject leaves a
 * failed server in (REMOVE_FAILED_SERVERS on, next_retry in the future),
 * and the continuum is rebuilt, as connect.cc does after a failed connect. */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Exported by libmemcached.so (src/libmemcached/instance.cc), absent from
 * the public headers. */
void memcached_instance_next_retry(const memcached_instance_st *self, const time_t absolute_time);

enum { MAXS = 256, MAXK = 8192 };

static int digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static void die(const char *what, memcached_st *m) {
  fprintf(stderr, "lookup: %s: %s\n", what, m ? memcached_last_error_message(m) : "");
  exit(2);
}

/* unhex decodes the hex digits of s into out and returns the length. */
static size_t unhex(const char *s, char *out) {
  size_t n = 0;
  if (strcmp(s, "-") == 0) return 0;
  for (; s[0] && s[1]; s += 2) {
    int hi = digit(s[0]), lo = digit(s[1]);
    if (hi < 0 || lo < 0) die("bad hex", NULL);
    out[n++] = (char) (hi << 4 | lo);
  }
  return n;
}

static void set(memcached_st *m, memcached_behavior_t b, uint64_t v, const char *name) {
  if (memcached_behavior_set(m, b, v) != MEMCACHED_SUCCESS) die(name, m);
}

static char *keys[MAXK];
static size_t klen[MAXK];
static int nkeys;

/* readKeys reads KEYFILE into keys and klen. */
static void readKeys(const char *path) {
  static char line[4096];
  FILE *f = fopen(path, "r");
  if (!f) die("open keys", NULL);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (nkeys == MAXK) die("too many keys", NULL);
    keys[nkeys] = malloc(strlen(line) / 2 + 1);
    klen[nkeys] = unhex(line, keys[nkeys]);
    nkeys++;
  }
  fclose(f);
}

/* lookupSpec answers one SPECFILE for every key. */
static void lookupSpec(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die("open spec", NULL);
  static char line[4096], mode[32], ns[4096];
  static char host[MAXS][1100];
  static unsigned port[MAXS], weight[MAXS], down[MAXS];
  int hash = -1, sort = -1, ns_set = 0, nservers = 0, ndown = 0;
  strcpy(mode, "weighted");
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (sscanf(line, "mode %31s", mode) == 1 || sscanf(line, "hash %d", &hash) == 1
        || sscanf(line, "sort %d", &sort) == 1) {
    } else if (strncmp(line, "ns ", 3) == 0) {
      snprintf(ns, sizeof ns, "%s", line + 3);
      ns_set = 1;
    } else if (nservers < MAXS
               && sscanf(line, "server %1099s %u %u %u", host[nservers], &port[nservers],
                         &weight[nservers], &down[nservers]) == 4) {
      ndown += down[nservers++] != 0;
    } else if (line[0]) {
      die(line, NULL);
    }
  }
  fclose(f);

  memcached_st *m = memcached_create(NULL);
  if (strcmp(mode, "ketama") == 0) {
    set(m, MEMCACHED_BEHAVIOR_KETAMA, 1, "KETAMA");
  } else {
    set(m, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1, "KETAMA_WEIGHTED");
    if (strcmp(mode, "spy") == 0)
      set(m, MEMCACHED_BEHAVIOR_DISTRIBUTION, MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA_SPY, "DISTRIBUTION");
  }
  if (hash >= 0) set(m, MEMCACHED_BEHAVIOR_HASH, (uint64_t) hash, "HASH");
  if (sort >= 0) set(m, MEMCACHED_BEHAVIOR_SORT_HOSTS, (uint64_t) sort, "SORT_HOSTS");
  if (ns_set) {
    set(m, MEMCACHED_BEHAVIOR_HASH_WITH_PREFIX_KEY, 1, "HASH_WITH_PREFIX_KEY");
    if (memcached_callback_set(m, MEMCACHED_CALLBACK_NAMESPACE, ns) != MEMCACHED_SUCCESS) die("NAMESPACE", m);
  }
  if (ndown > 0) set(m, MEMCACHED_BEHAVIOR_REMOVE_FAILED_SERVERS, 1, "REMOVE_FAILED_SERVERS");
  for (int i = 0; i < nservers; i++)
    if (memcached_server_add_with_weight(m, host[i], (in_port_t) port[i], weight[i]) != MEMCACHED_SUCCESS)
      die("server_add", m);

  if (ndown > 0) {
    /* Find each down server by host and port (sort_hosts may have moved
     * it), eject it, and rebuild: SORT_HOSTS runs run_distribution and
     * changes nothing else. */
    for (int i = 0; i < nservers; i++) {
      if (!down[i]) continue;
      for (uint32_t p = 0; p < memcached_server_count(m); p++) {
        const memcached_instance_st *in = memcached_server_instance_by_position(m, p);
        if (strcmp(memcached_server_name(in), host[i]) == 0 && memcached_server_port(in) == port[i])
          memcached_instance_next_retry(in, time(NULL) + 3600);
      }
    }
    set(m, MEMCACHED_BEHAVIOR_SORT_HOSTS, sort > 0, "rebuild");
  }
  for (uint32_t p = 0; p < memcached_server_count(m); p++) {
    const memcached_instance_st *in = memcached_server_instance_by_position(m, p);
    printf("list %u %s %u\n", p, memcached_server_name(in), (unsigned) memcached_server_port(in));
  }
  for (int i = 0; i < nkeys; i++)
    printf("key %u %u\n", memcached_generate_hash(m, keys[i], klen[i]),
           hashkit_digest(memcached_get_hashkit(m), keys[i], klen[i]));
  memcached_free(m);
}

int main(int argc, char **argv) {
  if (argc < 3) die("usage: lookup KEYFILE SPECFILE...", NULL);
  readKeys(argv[1]);
  for (int i = 2; i < argc; i++) {
    printf("spec %d\n", i - 2);
    lookupSpec(argv[i]);
  }
  return 0;
}
