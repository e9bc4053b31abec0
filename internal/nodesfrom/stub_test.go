package nodesfrom

var memcachedCases []tc
