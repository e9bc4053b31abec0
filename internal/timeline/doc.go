// Package timeline resolves a scenario's membership changes into the
// membership after every step (Timeline, State, Member), independent of
// any placement rule; its input types (NodeSpec, Labels, Step, Op) are
// what the scenario parser produces for them.
package timeline
