package results

// Reproduction is the report of `schedlab reproduce` (report.json): every
// paper figure's claims with the paper's value beside ours, the values
// and series each figure is drawn from, and the figures of each paper
// that cannot be reproduced from published data. The page's gallery
// reads the committed copy (the full record) for its verdict badges.
type Reproduction struct {
	// Quick is true when the figures ran their quick variants: fewer
	// seeds, sweep values and jobs than the papers' set-ups. The
	// committed record is full mode.
	Quick  bool         `json:"quick"`
	Seeds  int          `json:"seeds,omitempty"`
	Run    *RunInfo     `json:"run,omitempty"`
	Papers []PaperRepro `json:"papers"`
}

// RunInfo says when the report was made and what it cost: wall time and
// the CPU time of the process, on how many cores.
type RunInfo struct {
	Date     string  `json:"date"` // UTC, YYYY-MM-DD
	WallS    float64 `json:"wall_s"`
	CPUS     float64 `json:"cpu_s,omitempty"`
	Cores    int     `json:"cores"`
	Parallel int     `json:"parallel"`
}

// PaperRepro is one paper's figures, e.g. Paper "gavel", and the figures
// it has that cannot be reproduced, each with its reason.
type PaperRepro struct {
	Paper           string           `json:"paper"`
	Title           string           `json:"title,omitempty"`
	Figures         []FigureRepro    `json:"figures"`
	CannotReproduce []Unreproducible `json:"cannot_reproduce,omitempty"`
}

// Unreproducible is a figure or table of a paper that cannot be
// reproduced from published data: its name and why, and no numbers.
type Unreproducible struct {
	Figure string `json:"figure"`
	Why    string `json:"why"`
}

// FigureRepro is one figure, e.g. Figure "Figure 8", and the scenario that
// reproduces it. ScenarioSHA256 is the hash of the scenario's file as it
// was run, so a stale record can be found without running anything.
// Exploration says which setting of ours the paper does not have, when
// the whole figure is one.
type FigureRepro struct {
	Figure         string       `json:"figure"`
	Scenario       string       `json:"scenario"`
	ScenarioSHA256 string       `json:"scenario_sha256,omitempty"`
	Claim          string       `json:"claim,omitempty"`
	Exploration    string       `json:"exploration,omitempty"`
	Checks         []CheckRepro `json:"checks"`
	Files          []string     `json:"files,omitempty"`
	// Seeds are the workload seeds each point ran.
	Seeds      []uint64         `json:"seeds,omitempty"`
	Series     []SeriesRepro    `json:"series,omitempty"`
	Reference  []ReferenceRepro `json:"reference,omitempty"`
	Values     []ValueRepro     `json:"values,omitempty"`
	Robustness *RobustnessRepro `json:"robustness,omitempty"`
	// Benchmark is set on a figure of measured wall times rather than a
	// simulation (a paper's decision-time figure).
	Benchmark *BenchmarkRepro `json:"benchmark,omitempty"`
	// Cost is what the figure's simulations cost the machine that made
	// the record; it differs between runs and machines, so comparing two
	// records leaves it out.
	Cost *CostRepro `json:"cost,omitempty"`
}

// CostRepro is the CPU a figure's simulations took natively: the page
// scales it into a first estimate of a re-run before it has timed one.
// Simulated counts the runs made for this figure, not those copied from
// an identical run of another figure.
type CostRepro struct {
	CPUSeconds float64 `json:"cpu_s"`
	Simulated  int     `json:"simulated_runs"`
}

// SecondsPerRun is the CPU one simulation took, 0 when unknown.
func (c *CostRepro) SecondsPerRun() float64 {
	if c == nil || c.Simulated <= 0 || c.CPUSeconds <= 0 {
		return 0
	}
	return c.CPUSeconds / float64(c.Simulated)
}

// BenchmarkRepro is a figure of wall times. Setup says what was timed.
// Decisions are what was decided at each point, the same in every run
// and on every machine; Timing holds the wall times, which differ between
// runs and machines, kept apart so that comparing two reports can leave
// them out. The figure's checks judge the times of this run.
type BenchmarkRepro struct {
	Setup     string       `json:"setup"`
	Decisions []BenchRow   `json:"decisions"`
	Timing    *TimingRepro `json:"timing"`
}

// BenchRow is what was decided at one point of a benchmark (X, e.g. the
// number of active jobs): named counts and values.
type BenchRow struct {
	X      float64      `json:"x"`
	Values []NamedValue `json:"values"`
}

// NamedValue is one named number.
type NamedValue struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// TimingRepro is a benchmark's wall times: per line, the median over
// Rounds timed rounds at each point, measured on Machine (cores and
// architecture, in words).
type TimingRepro struct {
	Machine string        `json:"machine"`
	Rounds  int           `json:"rounds"`
	Series  []SeriesRepro `json:"series"`
}

// CheckRepro is one check of a figure. Paper and Ours are the compared
// quantities (Ours the mean over seeds, OursSD their standard deviation);
// Tolerance is the allowed distance as the check defines it, and
// ToleranceBasis how it was derived for a check on the paper's number.
// Verdict is "pass", "fail" or "n/a" (with NA its reason). Class is how it
// counts: "claim" (counted), "detail" (a part of the claim DetailOf, never
// counted), "calibrated" (decided by an input chosen on results: shown,
// not counted), "exploration" (a setting the paper does not have: counted
// apart) or "robustness" (a claim of another figure judged over draws).
// Why is the recorded explanation of a failure.
type CheckRepro struct {
	ID             string   `json:"id"`
	Claim          string   `json:"claim"`
	Class          string   `json:"class,omitempty"`
	DetailOf       string   `json:"detail_of,omitempty"`
	Paper          *float64 `json:"paper"`
	Ours           *float64 `json:"ours"`
	OursSD         *float64 `json:"ours_sd"`
	Tolerance      *float64 `json:"tolerance"`
	ToleranceBasis string   `json:"tolerance_basis,omitempty"`
	Bound          string   `json:"bound,omitempty"`
	Verdict        string   `json:"verdict"`
	Calibrated     bool     `json:"calibrated"`
	Exploration    string   `json:"exploration,omitempty"`
	Why            string   `json:"why,omitempty"`
	NA             string   `json:"na,omitempty"`
	// Required: the check must pass in this mode (quick mode requires a
	// subset). Observed is our side in words, e.g. the order found.
	Required bool   `json:"required"`
	Observed string `json:"observed,omitempty"`
	// Robust is set on a claim judged over draws of unpublished inputs:
	// in how many draws it holds, and the robustness figure that judged it.
	Robust *RobustRepro `json:"robust,omitempty"`
}

// RobustRepro is how a claim fared over draws of unpublished inputs.
// Holds is false when it held in fewer than half of them. On a check of a
// robustness figure, Judges names the claim it judges; on that claim, By
// names the check that judged it; both as scenario/check-id.
type RobustRepro struct {
	Held   int    `json:"held"`
	Draws  int    `json:"draws"`
	Holds  bool   `json:"holds"`
	Judges string `json:"judges,omitempty"`
	By     string `json:"by,omitempty"`
}

// SeriesRepro is one line of a swept figure, in the reference unit; null
// marks a saturated or failed point.
type SeriesRepro struct {
	Policy string     `json:"policy"`
	Metric string     `json:"metric"`
	Group  string     `json:"group"`
	Unit   string     `json:"unit"`
	X      []float64  `json:"x"`
	Mean   []*float64 `json:"mean"`
	SD     []*float64 `json:"sd"`
}

// ReferenceRepro is one of the paper's numbers beside ours.
type ReferenceRepro struct {
	Policy    string   `json:"policy"`
	Metric    string   `json:"metric"`
	Group     string   `json:"group"`
	X         *float64 `json:"x,omitempty"`
	Unit      string   `json:"unit"`
	Paper     float64  `json:"paper"`
	Ours      *float64 `json:"ours"`
	OursSD    *float64 `json:"ours_sd,omitempty"`
	Saturated bool     `json:"saturated,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// ValueRepro is one quantity a figure's checks, reference or curves read:
// a metric of a group of one policy's jobs at one sweep value, the mean
// over N seeds with its standard deviation, in the reference unit.
type ValueRepro struct {
	Policy    string   `json:"policy"`
	Metric    string   `json:"metric"`
	Group     string   `json:"group"`
	X         *float64 `json:"x,omitempty"`
	Unit      string   `json:"unit,omitempty"`
	Mean      *float64 `json:"mean"`
	SD        *float64 `json:"sd,omitempty"`
	N         int      `json:"n"`
	Saturated bool     `json:"saturated,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// RobustnessRepro is a robustness figure's headline over draws of inputs
// the paper does not publish: per draw (the mean over workload seeds),
// their mean and the range of the middle 95%.
type RobustnessRepro struct {
	Draws string     `json:"draws"`
	Label string     `json:"label"`
	Unit  string     `json:"unit,omitempty"`
	X     []float64  `json:"x"`
	Value []*float64 `json:"value"`
	Mean  *float64   `json:"mean"`
	Low   *float64   `json:"low"`
	High  *float64   `json:"high"`
	Paper *float64   `json:"paper,omitempty"`
}
