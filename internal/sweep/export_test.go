package sweep

// Summarize exports summarize to the external tests: the figures of one
// whole replay, the reference Execute must match.
var Summarize = summarize
