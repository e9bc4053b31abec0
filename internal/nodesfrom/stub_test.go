package nodesfrom

var haproxyCases, envoyCases, memcachedCases, redisCases []tc
