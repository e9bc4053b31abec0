package nodesfrom

var envoyCases, memcachedCases, redisCases []tc
