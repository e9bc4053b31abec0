package report

// This file declares the report model: everything report.md shows about
// one scenario, as plain data. Text fields hold unescaped plain text
// (Report.About excepted: it is Markdown) and numbers are unformatted;
// the template escapes and formats them, so a custom template can change
// the layout without redoing any arithmetic.

// Report is the model of one scenario's report.
type Report struct {
	// Name is the scenario's name: its file name without ".yaml".
	Name string
	// Title is the scenario's one-line title, or its name when it has none.
	Title string
	// About is the scenario's Markdown introduction as prose.Safe writes
	// it: the same document, with raw HTML shown as text, dangerous links
	// reduced to their text and headings from level 3.
	About string
	// Setup describes the key set, the starting cluster and the run.
	Setup Setup
	// Rules describes the placement rules, in scenario order.
	Rules []RuleInfo
	// Summary holds one row per rule, in scenario order.
	Summary []SummaryRow
	// Comparison is a sentence or two comparing the rules in words: the
	// keys each moved in membership changes and in reconfigurations
	// (separately), then the balance at the end.
	Comparison string
	// MemberSteps and ReconfSteps are the steps after the start that are
	// membership changes and reconfigurations (see Membership), and
	// MemberText and ReconfText the same as "steps 1–3, 7"; "" when none.
	MemberSteps, ReconfSteps []int
	MemberText, ReconfText   string
	// Choices is the recommendation table: per kind of change the
	// scenario makes, and for balance, the rules its numbers favour; nil
	// with a single rule.
	Choices []Choice
	// Guide says once per page how to read each kind of step figure: what
	// the captions of that kind have in common, which the step figures'
	// own captions then leave out.
	Guide []FigureGuide
	// Requests is the request load at the end and the hot keys, or nil
	// when the keys carry no request counts.
	Requests *RequestSummary
	// Migrations compares pairs of rules on the same membership (the
	// scenario's compare:), or is nil when it compares none.
	Migrations []MigrationTable
	// Transfers is every node's keys received and sent over the run.
	Transfers TransferTable
	// Expectations are the scenario's assertions with their verdicts.
	Expectations []ExpectationRow
	// Figures are the whole-run figures (svg.Figure.Step == -1), in the
	// order svg.Figures returned them.
	Figures []FigureRef
	// Steps holds one section per step shown in full (ShownSteps), in
	// step order: every timeline state in a run of at most DetailedSteps
	// steps. Steps[0] is the start and the last section the last step.
	Steps []StepSection
	// Overview holds one line per timeline state, for the table of keys
	// moved at each step.
	Overview []StepLine
	// Detail says which steps have sections and why, or is nil when every
	// step has one.
	Detail *StepChoice
	// Probes tracks the scenario's probe keys, or is nil when it has none.
	Probes *ProbeTable
	// Unplaced are figures for steps that the replay does not have; the
	// template lists them at the end so that no figure is lost.
	Unplaced []FigureRef
	// Study holds what sweep: and seeds: measured (study.go), or is nil
	// when the scenario has neither.
	Study *Study
}

// StepLine is one step's row of the table of keys moved at each step.
type StepLine struct {
	// Step is the step number and Change what it did.
	Step   int
	Change string
	// Shown reports that the step has a section (Report.Steps).
	Shown bool
	// Cells holds one cell per rule, in scenario order.
	Cells []StepCell
}

// StepCell is one rule's key figures at one step.
type StepCell struct {
	// Moved is the keys moved, MovedFraction Moved / K.
	Moved         int
	MovedFraction float64
	// WorstDeviation is sim.Balance's worst deviation after the step.
	WorstDeviation float64
}

// ExpectationRow is one assertion of the scenario and how it fared.
type ExpectationRow struct {
	// What says what was asserted, e.g. "moved_fraction <= 0.2 at step 1
	// for ring".
	What string
	// Passed reports whether every check passed.
	Passed bool
	// Verdict gives the measured value: the first failure, or the
	// closest call.
	Verdict string
}

// Setup describes a scenario's inputs.
type Setup struct {
	// Keys is K, the number of keys.
	Keys int
	// KeySource says how the keys were made, e.g. `generated from seed 1
	// as "key-" followed by a number, such as key-2712`.
	KeySource string
	// Requests says where the keys' request counts come from, or is ""
	// when they have none.
	Requests string
	// Seed is the scenario seed.
	Seed uint64
	// Nodes lists the starting nodes in join order, with weights when
	// they are not all 1, e.g. "a (weight 2), b, c".
	Nodes string
	// NodeCount is the number of starting nodes.
	NodeCount int
	// Weights describes the starting weights: "equal weights" or
	// "total weight 7".
	Weights string
	// Replicas is the preference-list length at step 0.
	Replicas int
	// Changes is the number of steps after step 0.
	Changes int
}

// RuleInfo describes one placement rule.
type RuleInfo struct {
	// Label names the rule in every table.
	Label string
	// Kind is the rule's algorithm: "ring", "modulo", ...
	Kind string
	// Params lists the rule's effective parameters in words, e.g.
	// "160 points per node, hash fnv1a-fmix".
	Params string
}

// SummaryRow is one rule's whole-run totals.
type SummaryRow struct {
	// Label names the rule.
	Label string
	// TotalMoved is the running total of moved keys at the last step.
	TotalMoved int
	// TimesK is TotalMoved / K.
	TimesK float64
	// TotalIdeal is the sum of the per-step ideal moves (sim.Metrics'
	// ideal: what perfect balancing from each step's previous loads
	// would move, not a floor for any rule).
	TotalIdeal int
	// Ratio is TotalMoved / TotalIdeal, NaN when TotalIdeal is 0.
	Ratio float64
	// OptimumSteps counts the steps where the optimum is defined: the
	// membership changes (see Membership) and the weight changes, the
	// steps that change a node's fair share.
	OptimumSteps int
	// OptimumMoved is the keys moved at those steps, TotalOptimum the sum
	// of their optima, and OptimumRatio the one over the other, NaN when
	// TotalOptimum is 0.
	OptimumMoved, TotalOptimum int
	OptimumRatio               float64
	// PeakToMean is the most loaded node's load over its fair share at
	// the last step.
	PeakToMean float64
	// WorstDeviation is the worst deviation from the fair share at the
	// last step, as a fraction.
	WorstDeviation float64
	// Recurrences lists the steps whose placement repeats an earlier
	// one, in words, e.g. "steps 4–9 repeat step 3"; "none" when none do.
	Recurrences string
	// MemberMoved and ReconfMoved split TotalMoved into the keys moved in
	// membership changes and in reconfigurations (Report.MemberSteps,
	// Report.ReconfSteps); they sum to TotalMoved.
	MemberMoved, ReconfMoved int
}

// FigureGuide is how to read one kind of step figure, said once.
type FigureGuide struct {
	// What names the figure kind, from its title, e.g. "Who owns which
	// part of the hash circle".
	What string
	// Text is the sentences every (or more than one) figure of the kind
	// shares.
	Text string
}

// StepSection is one step's section of the report.
type StepSection struct {
	// Step is the step number; 0 is the starting cluster.
	Step int
	// Change says what the step did, e.g. "remove d (random)".
	Change string
	// Note is the scenario's note for the step, or "".
	Note string
	// Members lists the cluster after the step in join order, failed
	// members marked, e.g. "a, b (failed), c"; past maxListed members,
	// the first and last few and the failed ones (see memberSummary).
	Members string
	// MemberCount is how many members the cluster has after the step;
	// MembersShort reports that Members does not name them all.
	MemberCount  int
	MembersShort bool
	// Live is the number of live members after the step.
	Live int
	// Keys is K.
	Keys int
	// NoiseCV is the cv that a perfectly random assignment shows at this
	// step; it is the same for every rule.
	NoiseCV float64
	// Weighted reports that live members have unequal weights.
	Weighted bool
	// Replicas is the preference-list length after the step.
	Replicas int
	// Columns are the columns of the step's metric table after the rule's
	// label, one per metric of sim.Metrics with a Column that the step
	// shows, in that table's order; each row's Cells follow them.
	Columns []StepColumn
	// ShowHealth reports that the availability columns apply: some rule,
	// at some step of the scenario, has keys below quorum, unavailable or
	// with two replicas in one zone.
	ShowHealth bool
	// ShowUnits reports that the repartitioned column applies: some rule
	// at some step moves keys between partitions or shards.
	ShowUnits bool
	// ShowReplicas reports that replica columns apply: the list length
	// after or before the step is greater than 1.
	ShowReplicas bool
	// Rows holds one row per rule, in scenario order.
	Rows []StepRow
	// Notes are the rules' remarks on the step.
	Notes []RuleNote
	// Loads is the keys-per-node table after the step.
	Loads LoadTable
	// Requests is the step's request figures, or nil unweighted.
	Requests *StepRequests
	// Transfers holds one entry per rule that moved keys at this step.
	Transfers []StepTransfers
	// Streams holds one entry per rule that made replica copies at this
	// step (with replicas > 1).
	Streams []StepStreams
	// Story is one sentence (two after a reconfiguration) saying what
	// the step was, a membership change or a reconfiguration (see
	// Membership), what each rule moved and copied, which placements
	// recur and, after a reconfiguration, how even the loads are.
	Story string
	// Membership reports that the step is a membership change.
	Membership bool
	// Figures are the figures of this step, in svg.Figures order; their
	// captions keep only what is particular to the step (see FigureGuide).
	Figures []FigureRef
	// Bands are the rules' figures at this step over the seeds, when the
	// scenario has seeds: and no sweep; nil otherwise.
	Bands []StepBand
}

// StepRow is what one rule did at one step. Fractions are in [0, 1]
// (deviations may exceed 1).
type StepRow struct {
	// Label names the rule.
	Label string
	// Moved, Needed, Collateral, Ideal and TotalMoved are the counts of
	// sim.StepResult (their definitions are sim.Metrics' Doc, and
	// SCHEMA.md's).
	Moved, Needed, Collateral, Ideal, TotalMoved int
	// Optimum is the step's classic optimum (sim.Result.Optimum) when
	// HasOptimum; a reconfiguration has none.
	Optimum    int
	HasOptimum bool
	// MovedFraction is Moved / K.
	MovedFraction float64
	// PeakToMean, WorstDeviation, CV and NoiseCV are the balance figures
	// of sim.Balance.
	PeakToMean, WorstDeviation, CV, NoiseCV float64
	// Recurrence says in words whether the placement repeats an earlier
	// step's, e.g. "returns to the placement of step 3", or is "".
	Recurrence string
	// RecursTo is the earliest earlier step whose placement this one
	// repeats key by key, or -1.
	RecursTo int
	// ReplicaMoved, Copies and UnderReplicated are the replica counts.
	ReplicaMoved, Copies, UnderReplicated int
	// BelowQuorum, Unavailable and ZoneCollisions are the availability
	// counts (sim.StepResult).
	BelowQuorum, Unavailable, ZoneCollisions int
	// Repartitioned is the keys whose partition or shard changed.
	Repartitioned int
	// Cells are the row's cells under StepSection.Columns, written as
	// report.md shows them.
	Cells []string
}

// RuleNote is one remark of one rule on one step.
type RuleNote struct {
	// Label names the rule.
	Label string
	// Text is the remark.
	Text string
}

// LoadTable shows the keys each member holds under every rule.
type LoadTable struct {
	// Rules are the column labels, in scenario order.
	Rules []string
	// Rows holds one row per member shown, in join order: every member,
	// or past maxLoadRows those sim.Result.Notable picks.
	Rows []LoadRow
	// Members is how many members the step has; Omitted, how many of
	// them Rows leaves out.
	Members, Omitted int
	// Scope says which members a shortened table keeps, e.g. "the node
	// the step acts on and the 2 most and 2 least loaded under each
	// rule"; "" when it has them all.
	Scope string
}

// LoadRow is one member's loads.
type LoadRow struct {
	// Node is the member's name.
	Node string
	// Failed reports a failed member: it owns no keys.
	Failed bool
	// Weight is the member's weight.
	Weight int
	// Share is T_i, the member's fair share of the keys (0 when failed).
	Share float64
	// Cells holds one cell per rule, in LoadTable.Rules order.
	Cells []LoadCell
}

// LoadCell is one member's load under one rule.
type LoadCell struct {
	// Keys is the number of keys the member owns (as primary).
	Keys int
	// Deviation is (Keys − Share) / Share, 0 for failed members.
	Deviation float64
}

// ProbeTable shows where each probe key lives at every step.
type ProbeTable struct {
	// Columns holds one column per (probe, rule), probes outermost.
	Columns []ProbeColumn
	// Rows holds one row per step shown in full (Report.Steps).
	Rows []ProbeRow
}

// ProbeColumn names a probe table column.
type ProbeColumn struct {
	// Key is the probe key.
	Key string
	// Rule is the rule's label.
	Rule string
}

// ProbeRow is one step of the probe table.
type ProbeRow struct {
	// Step is the step number.
	Step int
	// Change says what the step did.
	Change string
	// Cells holds one cell per column.
	Cells []ProbeCell
}

// ProbeCell is where one rule puts one probe key at one step.
type ProbeCell struct {
	// Owners is the preference list, primary first; empty when no live
	// node holds the key.
	Owners []string
	// Position is the key's position under the rule.
	Position uint64
	// Text is the position in the product's own words, or "".
	Text string
	// Changed reports that the primary owner differs from the previous
	// step's.
	Changed bool
}

// FigureRef places one figure: ![Title](Name) and an italic caption.
type FigureRef struct {
	// Name is the figure's file name, relative to report.md.
	Name string
	// Title is the figure's alt text.
	Title string
	// Caption says how to read the figure.
	Caption string
}

// RequestSummary is the request-load part of a weighted scenario's
// Summary: who serves the requests at the end, and the hot keys.
type RequestSummary struct {
	// Total is the number of requests over all keys (Σ weights).
	Total int
	// Last is the last step's number.
	Last int
	// Rows holds one row per rule, in scenario order, at the last step.
	Rows []RequestRow
	// Rules are the hot-key table's rule columns, in scenario order.
	Rules []string
	// Hot holds the heaviest keys, heaviest first (sim.HotKeys at most).
	Hot []HotKey
}

// RequestRow is one rule's request balance at the last step.
type RequestRow struct {
	// Label names the rule.
	Label string
	// Busiest is the live node serving the most requests relative to its
	// fair share of them.
	Busiest string
	// Keys and Requests are what the busiest node holds and serves.
	Keys, Requests int
	// KeyRatio and RequestRatio are Keys and Requests over the node's
	// fair shares of keys and of requests.
	KeyRatio, RequestRatio float64
	// PeakToMean and WorstDeviation are the request balance figures
	// (sim.Result.RequestBalance); KeyPeakToMean is the key balance's
	// peak / mean, for comparison.
	PeakToMean, WorstDeviation, KeyPeakToMean float64
}

// HotKey is one of the heaviest keys and where each rule put it.
type HotKey struct {
	// Rank is 1 for the heaviest key.
	Rank int
	// Key is the key.
	Key string
	// Requests is its request count; Share is Requests over all requests.
	Requests int
	Share    float64
	// Cells holds one cell per rule, in RequestSummary.Rules order.
	Cells []HotCell
}

// HotCell is a hot key's owner under one rule.
type HotCell struct {
	// Owner is the primary owner at the last step; First at step 0.
	Owner, First string
	// Moves counts the steps at which the primary owner changed.
	Moves int
}

// TransferTable is what every node received and sent over the whole run,
// under every rule.
type TransferTable struct {
	// Rules are the column labels, in scenario order.
	Rules []string
	// Weighted reports that cells carry requests too.
	Weighted bool
	// Rows holds one row per node of the node table, in order of first
	// appearance.
	Rows []TransferRow
}

// TransferRow is one node's totals.
type TransferRow struct {
	// Node is the node's name.
	Node string
	// Cells holds one cell per rule.
	Cells []TransferCell
}

// TransferCell is one node's keys (and requests) received and sent under
// one rule over the whole run.
type TransferCell struct {
	In, Out         int
	InReqs, OutReqs int
}

// StepTransfers is one rule's from → to transfers at one step, the
// largest first.
type StepTransfers struct {
	// Label names the rule.
	Label string
	// Pairs are the largest pairs, by keys (ties in node-table order), at
	// most MaxTransferPairs.
	Pairs []TransferPair
	// More counts the pairs left out, and MoreKeys their keys.
	More, MoreKeys int
}

// TransferPair is keys that moved from one node to another.
type TransferPair struct {
	From, To string
	// Keys moved; Requests is their summed weight (0 unweighted).
	Keys, Requests int
}

// StepRequests is the request figures of one step, when weighted.
type StepRequests struct {
	// Rows holds one row per rule, in scenario order.
	Rows []StepRequestRow
	// Loads is the requests-per-node table: LoadCell.Keys holds requests
	// and LoadRow.Share the fair share of the requests.
	Loads LoadTable
}

// StepRequestRow is one rule's request figures at one step.
type StepRequestRow struct {
	// Label names the rule.
	Label string
	// Moved is the requests of the moved keys, MovedFraction over all.
	Moved         int
	MovedFraction float64
	// PeakToMean and WorstDeviation are sim.Result.RequestBalance's.
	PeakToMean, WorstDeviation float64
}

// StepStreams is one rule's replica streaming at one step: the copies
// each node receives and sends to restore R, by node and by zone.
type StepStreams struct {
	// Label names the rule.
	Label string
	// Copies is the step's copies; Unsourced those without a live source.
	Copies, Unsourced int
	// Nodes lists the nodes that receive or send, most received first, at
	// most maxStreamRows of them; More counts the rest.
	Nodes []StreamRow
	More  int
	// Zones sums the nodes by zone, when nodes have zones.
	Zones []StreamRow
	// Busiest is the node (or zone) receiving the most copies, and
	// BusiestShare its share of them: the recovery's bottleneck.
	Busiest      string
	BusiestShare float64
}

// StreamRow is what one node or zone receives and sends.
type StreamRow struct {
	Name           string
	Received, Sent int
}
