package reproduce

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Verdicts of a check in the report.
const (
	Pass = "pass"
	Fail = "fail"
	NA   = "n/a" // could not be judged: NA says why (e.g. a sweep value quick mode skips)
)

// Done is a figure whose study has run.
type Done struct {
	Entry
	Study *experiment.Study
	Files []string // the figure's image files, relative to the report
	// Cost is the CPU the figure's simulations took here, nil when
	// not measured (a remote run).
	Cost *results.CostRepro
}

// ScenarioHash is the SHA-256 of a scenario's document without its
// description, in hex: what the record keeps to tell when a scenario
// changed after it was made. The description is left out because it is
// prose that decides no number, and it quotes the record (a test checks
// those quotes), so it is written after the record is made.
func ScenarioHash(sc *scenario.Scenario) string {
	doc := sc.Document()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(doc, &fields); err == nil {
		delete(fields, "description")
		if b, err := json.Marshal(fields); err == nil { // keys sorted
			doc = b
		}
	}
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

// Figure is the report of one figure: every check of its scenario with
// the compared numbers and a verdict, and the values the figure is drawn
// from.
func Figure(d Done) results.FigureRepro {
	sc := d.Scenario
	out := d.Study.Output()
	f := results.FigureRepro{Figure: d.Figure, Scenario: sc.Name, ScenarioSHA256: ScenarioHash(sc), Claim: sc.Title,
		Exploration: sc.Exploration, Files: d.Files, Checks: []results.CheckRepro{}, Seeds: d.Study.Scenario.RunSeeds(), Cost: d.Cost}
	if d.Study.Quick && d.Study.Scenario.Quick != nil && len(d.Study.Scenario.Quick.Seeds) > 0 {
		f.Seeds = d.Study.Scenario.Quick.Seeds
	}
	for _, v := range out.Checks {
		f.Checks = append(f.Checks, Check(v))
	}
	for _, s := range out.Series {
		f.Series = append(f.Series, results.SeriesRepro{Policy: s.Policy, Metric: s.Metric, Group: s.Group, Unit: s.Unit, X: s.X, Mean: s.Mean, SD: s.SD})
	}
	for _, r := range out.Reference {
		f.Reference = append(f.Reference, results.ReferenceRepro{Policy: r.Policy, Metric: r.Metric, Group: r.Group, X: r.X,
			Unit: r.Unit, Paper: r.Paper, Ours: r.Ours, OursSD: r.OursSD, Saturated: r.Saturated, Error: r.Error})
	}
	f.Values = Values(d.Study)
	f.Robustness = out.Robustness
	return f
}

// Values are every quantity the figure's checks, reference and curves
// read, at every sweep value that ran, for every policy: the numbers a
// reader (or a test of the docs' prose) can take from the record.
func Values(st *experiment.Study) []results.ValueRepro {
	sc := st.Scenario
	metricNames, groups := sc.StudyQuantities()
	var out []results.ValueRepro
	for _, p := range st.Points {
		var x *float64
		if p.Swept {
			v := p.X
			x = &v
		}
		for i := range sc.Policies {
			label := sc.PolicyLabel(i)
			for _, m := range metricNames {
				for _, g := range groups {
					q := scenario.Quantity{Policy: label, Metric: m, Group: g, X: x}
					val := st.Value(q)
					row := results.ValueRepro{Policy: label, Metric: m, Group: g, X: x, N: val.N, Saturated: val.Saturated}
					mean, unit := st.InRefUnit(m, val.Mean)
					row.Unit = unit
					switch {
					case val.Err != nil:
						row.Error = val.Err.Error()
					case !val.Saturated:
						row.Mean = finite(mean)
						if val.N > 1 {
							sd, _ := st.InRefUnit(m, val.SD)
							row.SD = finite(sd)
						}
					}
					out = append(out, row)
				}
			}
		}
	}
	return out
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Check is one verdict as the report shows it.
func Check(v experiment.Verdict) results.CheckRepro {
	c := results.CheckRepro{ID: v.ID, Claim: v.Description, Class: v.Class, DetailOf: v.DetailOf, Paper: v.Paper, Ours: v.Ours,
		OursSD: v.OursSD, Tolerance: v.Tolerance, ToleranceBasis: v.ToleranceBasis, Bound: v.Bound, Calibrated: v.Calibrated,
		Exploration: v.Exploration, Required: v.Required, Observed: v.Observed}
	if v.Robust != nil {
		c.Robust = &results.RobustRepro{Held: v.Robust.Held, Draws: v.Robust.Judged, Holds: v.Robust.Holds(), Judges: v.Robust.Claim}
	}
	switch {
	case v.NotRun:
		c.Verdict, c.NA = NA, v.NA
		c.Observed = "not judged: " + v.Observed
	case v.Passed:
		c.Verdict = Pass
	default:
		c.Verdict = Fail
		c.Why = v.Why
	}
	return c
}

// Build assembles the report of figures that ran, grouped by paper in
// the order given (Entries' order), with each paper's figures that cannot
// be reproduced, and claims judged by a robustness figure marked with how
// they fared over its draws. seeds is the --seeds override, 0 for the
// scenarios' own.
func Build(quick bool, seeds int, done []Done) results.Reproduction {
	rep := results.Reproduction{Quick: quick, Seeds: seeds, Papers: []results.PaperRepro{}}
	for _, d := range done {
		n := len(rep.Papers)
		if n == 0 || rep.Papers[n-1].Paper != d.Paper {
			rep.Papers = append(rep.Papers, results.PaperRepro{Paper: d.Paper, Title: PaperTitle(d.Paper), CannotReproduce: CannotReproduce(d.Paper)})
			n++
		}
		rep.Papers[n-1].Figures = append(rep.Papers[n-1].Figures, Figure(d))
	}
	MarkRobustness(&rep)
	return rep
}

// MarkRobustness copies each robustness figure's verdict onto the claim
// it judges (scenario/check-id): in how many draws it holds. A claim that
// holds in fewer than half of the draws fails, whatever the default
// inputs give, and says so.
func MarkRobustness(rep *results.Reproduction) {
	claims := map[string]*results.CheckRepro{}
	for pi := range rep.Papers {
		for fi := range rep.Papers[pi].Figures {
			f := &rep.Papers[pi].Figures[fi]
			for ci := range f.Checks {
				claims[f.Scenario+"/"+f.Checks[ci].ID] = &f.Checks[ci]
			}
		}
	}
	for _, p := range rep.Papers {
		for _, f := range p.Figures {
			for _, c := range f.Checks {
				if c.Robust == nil || c.Class != scenario.ClassRobustness {
					continue
				}
				claim := claims[c.Robust.Judges]
				if claim == nil || c.Verdict == NA {
					continue
				}
				claim.Robust = &results.RobustRepro{Held: c.Robust.Held, Draws: c.Robust.Draws, Holds: c.Robust.Holds, By: f.Scenario + "/" + c.ID}
				if !c.Robust.Holds && claim.Verdict == Pass {
					claim.Verdict = Fail
					claim.Why = strings.TrimSpace(fmt.Sprintf("%s: it holds in %d of %d draws of the unpublished inputs (%s). %s",
						experiment.NotRobust, c.Robust.Held, c.Robust.Draws, f.Scenario, claim.Why))
				}
			}
		}
	}
}

// Tally counts a report's verdicts by class (results.Tally).
type Tally = results.Tally

// Count tallies the checks of figures (results.Count).
func Count(figs ...results.FigureRepro) Tally { return results.Count(figs...) }

// class is a reported check's class (results.CheckRepro.CountedClass).
func class(c results.CheckRepro) string { return c.CountedClass() }
