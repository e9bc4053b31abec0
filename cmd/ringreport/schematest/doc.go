// Package schematest holds the tests that validate scenarios against
// schema.json, the JSON Schema that `ringreport schema` prints and the
// repository keeps a copy of (cmd/ringreport's TestSchemaCommittedCopy
// holds the copy to the command's output, so these tests read the copy).
//
// They live apart from cmd/ringreport because their validator,
// github.com/santhosh-tekuri/jsonschema, compiles its meta-schemas when
// its package initialises: linked into cmd/ringreport's test binary,
// which the process tests and scripts start hundreds of times as the
// command, that cost about 6 ms of CPU at every start. The package has
// no code of its own.
package schematest
