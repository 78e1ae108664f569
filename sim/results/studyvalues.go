package results

// StudyValues are the quantities one sweep point and one seed of a study
// give: every policy's value of every metric and job group the study's
// checks, reference and sweep name. The page runs a figure's points and
// seeds in separate engine workers, each returning StudyValues, and
// evaluates the checks over all of them together.
type StudyValues struct {
	// X is the sweep value when Swept.
	X      float64         `json:"x"`
	Swept  bool            `json:"swept"`
	Seed   uint64          `json:"seed"`
	Values []QuantityValue `json:"values"`
	Failed []string        `json:"failed,omitempty"` // runs that stopped early, e.g. "LAS: budget"
}

// QuantityValue is one policy's metric over one job group in one run.
// Value is nil when the metric has no value (no finished job) and when
// the run saturated or failed.
type QuantityValue struct {
	Policy    string   `json:"policy"`
	Metric    string   `json:"metric"`
	Group     string   `json:"group"`
	Value     *float64 `json:"value"`
	Saturated bool     `json:"saturated,omitempty"`
	Err       string   `json:"err,omitempty"`
}
