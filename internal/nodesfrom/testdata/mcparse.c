/* mcparse reads lines "c<TAB>TEXT" or "l<TAB>TEXT" from standard input and,
 * for each, prints what libmemcached makes of TEXT: "err", or "ok" and a
 * tab-separated host:port (c: memcached(), a configuration string) or
 * host:port:weight (l: memcached_servers_parse, a server list) for each
 * server. It connects to nothing. */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) > 0) {
    if (line[n - 1] == '\n')
      line[--n] = 0;
    if (n < 2) {
      printf("err\n");
      continue;
    }
    char *s = line + 2;
    size_t len = (size_t) n - 2;
    if (line[0] == 'c') {
      memcached_st *m = memcached(s, len);
      if (m == NULL) {
        printf("err\n");
      } else {
        printf("ok");
        for (uint32_t i = 0; i < memcached_server_count(m); i++) {
          const memcached_instance_st *in = memcached_server_instance_by_position(m, i);
          printf("\t%s:%u", memcached_server_name(in), (unsigned) memcached_server_port(in));
        }
        printf("\n");
        memcached_free(m);
      }
    } else {
      memcached_server_list_st l = memcached_servers_parse(s);
      if (l == NULL) {
        printf("err\n");
      } else {
        printf("ok");
        for (uint32_t i = 0; i < memcached_server_list_count(l); i++)
          printf("\t%s:%u:%u", l[i].hostname, (unsigned) l[i].port, (unsigned) l[i].weight);
        printf("\n");
        memcached_server_list_free(l);
      }
    }
    fflush(stdout);
  }
  free(line);
  return 0;
}
