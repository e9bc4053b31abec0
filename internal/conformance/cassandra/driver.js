// Runs npm cassandra-driver's own token and replica code offline, for
// cassandra_test.go: argv[2] is the node_modules folder, argv[3] an input
// JSON file {keys: [hex], rings: [{hosts: [{name, dc, rack, tokens}],
// strategy, rf}]}. Prints {tokens: [decimal], rings: [{primary: [name],
// replicas: [[name]]}]}, one entry per key. The empty key is asked by
// token (Long.MIN_VALUE, Cassandra's token for it), every other key by its
// bytes, so the driver hashes it itself.
'use strict';
const fs = require('fs');
const path = require('path');
const lib = path.join(process.argv[2], 'cassandra-driver', 'lib');
const Metadata = require(path.join(lib, 'metadata'));
const clientOptions = require(path.join(lib, 'client-options'));
const { Murmur3Tokenizer } = require(path.join(lib, 'tokenizer'));

const input = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const keys = input.keys.map((h) => Buffer.from(h, 'hex'));
const tokenizer = new Murmur3Tokenizer();
const out = { tokens: keys.map((k) => tokenizer.hash(k).toString()), rings: [] };

const classes = {
  simple: 'org.apache.cassandra.locator.SimpleStrategy',
  nts: 'org.apache.cassandra.locator.NetworkTopologyStrategy',
};

for (const ring of input.rings) {
  const metadata = new Metadata(clientOptions.defaultOptions(), null);
  metadata.setPartitioner('org.apache.cassandra.dht.Murmur3Partitioner');
  const hosts = ring.hosts.map((h) => ({ address: h.name, datacenter: h.dc, rack: h.rack, tokens: h.tokens }));
  metadata.buildTokens({ values: () => hosts });
  metadata.keyspaces.ks = metadata._schemaParser._createKeyspace('ks', true, classes[ring.strategy], ring.rf);
  const probe = (k) => (k.length === 0 ? metadata.tokenizer.minToken() : k);
  const res = { primary: [], replicas: [] };
  for (const k of keys) {
    res.primary.push(metadata.getReplicas(null, probe(k))[0].address);
    res.replicas.push(metadata.getReplicas('ks', probe(k)).map((h) => h.address));
  }
  out.rings.push(res);
}
process.stdout.write(JSON.stringify(out));
