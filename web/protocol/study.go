package protocol

import "github.com/schedlab/schedlab/sim/results"

// Paper figures run as split studies: the page sends each sweep point and
// seed of a figure's quick plan to a worker ("study"), collects the
// "studied" replies, and asks any worker to evaluate the checks over the
// parts so far ("verdicts"), which it does after every part, so the curve
// grows as points arrive.
//
//	{type: "study", id, json: StudyRequest}      run one point and seed
//	{type: "studied", id, json: StudyValues}     its values (sim/results)
//	{type: "verdicts", id, json: VerdictsRequest} evaluate the checks
//	{type: "verdicts", id, json: StudyView}      the figure and verdicts
const (
	TypeStudy    = "study"
	TypeStudied  = "studied"
	TypeVerdicts = "verdicts"
)

// StudyRequest runs Document at sweep value X (ignored without a sweep)
// on one seed: every policy, or only policy index Policy when set (the
// page splits by policy when the figure's metrics allow it).
type StudyRequest struct {
	Document string  `json:"document"`
	X        float64 `json:"x"`
	Seed     uint64  `json:"seed"`
	Policy   *int    `json:"policy,omitempty"`
}

// VerdictsRequest evaluates Document's checks over the parts run so far.
type VerdictsRequest struct {
	Document string                `json:"document"`
	Parts    []results.StudyValues `json:"parts"`
}

// StudyView is a figure as the page draws it: the sweep metric against the
// swept value, a series per policy, the paper's reported values as
// markers, a metrics table for a single-point figure, and the checks.
type StudyView struct {
	Title  string `json:"title"`
	XLabel string `json:"x_label,omitempty"`
	YLabel string `json:"y_label,omitempty"`
	// Series are ours (Mean nil where a point is not in yet or saturated);
	// Paper the paper's values of the same metric, by policy.
	Series []StudySeries `json:"series,omitempty"`
	Paper  []StudySeries `json:"paper,omitempty"`
	// Columns and Rows are the metrics table: a row per policy.
	Columns []string   `json:"columns,omitempty"`
	Rows    [][]string `json:"rows,omitempty"`
	// Figure carries the checks as the reproduction report has them;
	// Checks adds what each expected and observed.
	Figure results.FigureRepro `json:"figure"`
	Checks []CheckView         `json:"checks"`
	// Summary counts the paper's claims: "5 of 8 claims hold".
	Summary  string `json:"summary"`
	Passed   int    `json:"passed"`
	Counted  int    `json:"counted"`
	Complete bool   `json:"complete"` // every part was in
}

// StudySeries is one line of a figure.
type StudySeries struct {
	Policy string     `json:"policy"`
	X      []float64  `json:"x"`
	Y      []*float64 `json:"y"`
	// SD is one standard deviation over seeds at each point, nil where
	// there is none (one seed, or the paper's numbers).
	SD []*float64 `json:"sd,omitempty"`
}

// CheckView is one check with the words the check table shows.
type CheckView struct {
	ID       string `json:"id"`
	Claim    string `json:"claim"`
	Verdict  string `json:"verdict"` // "holds", "fails", "n/a", "waiting"
	Expected string `json:"expected"`
	Observed string `json:"observed"`
	Required bool   `json:"required"`
	// Calibrated checks are decided by an input chosen on results.
	Calibrated bool `json:"calibrated"`
	// Class is how the check counts: claim, detail, calibrated,
	// exploration or robustness (see scenario.Class).
	Class string `json:"class"`
	// Why is the recorded cause of a failure, or why a check is n/a.
	Why string `json:"why,omitempty"`
}

// HasData reports whether the view shows any number of ours yet: a point
// of a curve or a cell of the metrics table.
func (v *StudyView) HasData() bool {
	for _, s := range v.Series {
		for _, y := range s.Y {
			if y != nil {
				return true
			}
		}
	}
	for _, r := range v.Rows {
		for _, c := range r[1:] {
			if c != "…" && c != "–" {
				return true
			}
		}
	}
	return false
}
