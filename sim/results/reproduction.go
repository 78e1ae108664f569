package results

// Reproduction is the report of `schedlab reproduce` (report.json): every
// paper figure's checks with the paper's value beside ours. The page's
// gallery reads the committed copy for its verdict badges and computes
// the same structure live when a figure is opened.
type Reproduction struct {
	// Quick is true when the figures ran their quick variants.
	Quick  bool         `json:"quick"`
	Seeds  int          `json:"seeds,omitempty"`
	Papers []PaperRepro `json:"papers"`
}

// PaperRepro is one paper's figures, e.g. Paper "gavel".
type PaperRepro struct {
	Paper   string        `json:"paper"`
	Title   string        `json:"title,omitempty"`
	Figures []FigureRepro `json:"figures"`
}

// FigureRepro is one figure, e.g. Figure "Figure 8", and the scenario that
// reproduces it.
type FigureRepro struct {
	Figure   string       `json:"figure"`
	Scenario string       `json:"scenario"`
	Claim    string       `json:"claim,omitempty"`
	Checks   []CheckRepro `json:"checks"`
	Files    []string     `json:"files,omitempty"`
}

// CheckRepro is one check of a figure. Paper and Ours are the compared
// quantities (Ours the mean over seeds, OursSD their standard deviation);
// Tolerance is the allowed distance as the check defines it. Verdict is
// "pass", "fail" or "n/a" (not evaluated in this mode). Calibrated checks
// compare a quantity the inputs were tuned to: shown, not counted. Why is
// the recorded explanation of a failure.
type CheckRepro struct {
	ID         string   `json:"id"`
	Claim      string   `json:"claim"`
	Paper      *float64 `json:"paper"`
	Ours       *float64 `json:"ours"`
	OursSD     *float64 `json:"ours_sd"`
	Tolerance  *float64 `json:"tolerance"`
	Verdict    string   `json:"verdict"`
	Calibrated bool     `json:"calibrated"`
	Why        string   `json:"why,omitempty"`
	// Required: the check must pass in this mode (quick mode requires a
	// subset). Observed is our side in words, e.g. the order found.
	Required bool   `json:"required"`
	Observed string `json:"observed,omitempty"`
}
