package sim

// ReplayReference is the reference replay (whole assignments, every
// metric from scratch: replayOptions.full), for the tests of package
// sim_test, which compare what is written from it.
func ReplayReference(s *Scenario) (*Result, error) { return replay(s, replayOptions{full: true}) }
