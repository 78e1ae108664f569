package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A split study runs a study's sweep points and seeds apart (the page
// hands each to its own engine worker) and evaluates the checks over the
// values they return with the same code as a study run in one piece:
// RunSplitPart runs one point and seed, AssembleStudy builds a Study whose
// Value reads those parts.

// SplitPlan is the quick plan of a scenario that is already in its quick
// form (the quick changes applied, as the page opens a paper figure): the
// quick seeds and sweep values, without applying the quick changes again,
// so that what a student edits is what runs.
func SplitPlan(sc *scenario.Scenario) (seeds []uint64, xs []float64) {
	seeds = sc.RunSeeds()
	xs = []float64{math.NaN()}
	if sc.Sweep != nil {
		xs = sc.Sweep.Values
	}
	if q := sc.Quick; q != nil {
		if len(q.Seeds) > 0 {
			seeds = q.Seeds
		}
		if len(q.Values) > 0 && sc.Sweep != nil {
			xs = q.Values
		}
	}
	return seeds, xs
}

// SplitsByPolicy reports whether each policy of sc can run apart: none of
// the metrics its study names compares a policy's run with the others'.
func SplitsByPolicy(sc *scenario.Scenario) bool {
	if sc.SweepSetsPolicies() {
		return false
	}
	names, _ := sc.StudyQuantities()
	for _, m := range names {
		if metrics.NeedsPeers(m) {
			return false
		}
	}
	return true
}

// RunSplitPart runs sc at sweep value x (ignored without a sweep) and one
// seed, every policy or, when policy is not negative, only that one (see
// SplitsByPolicy), and returns the values of the quantities the study's
// checks may ask for.
func RunSplitPart(ctx context.Context, sc *scenario.Scenario, x float64, seed uint64, policy int, progress func(Progress)) (*results.StudyValues, error) {
	vals, _, err := runSplit(ctx, sc, x, seed, policy, progress)
	return vals, err
}

// RunSplitPoint runs sc at sweep value x and one seed, as RunSplitPart
// does, and also returns the runs' summaries as a whole study's output
// lists them: what a remote sweep point sends back.
func RunSplitPoint(ctx context.Context, sc *scenario.Scenario, x float64, seed uint64, policy int) (*results.StudyValues, []StudyRunOutput, error) {
	vals, st, err := runSplit(ctx, sc, x, seed, policy, nil)
	if err != nil {
		return nil, nil, err
	}
	return vals, st.runOutputs(), nil
}

func runSplit(ctx context.Context, sc *scenario.Scenario, x float64, seed uint64, policy int, progress func(Progress)) (*results.StudyValues, *Study, error) {
	one := *sc
	if policy >= 0 {
		p, err := sc.WithPolicy(policy)
		if err != nil {
			return nil, nil, err
		}
		one = *p
	}
	one.Quick = &scenario.Quick{Seeds: []uint64{seed}}
	if sc.Sweep != nil {
		one.Quick.Values = []float64{x}
	}
	st, err := RunStudy(ctx, &one, StudyOptions{Quick: true, Workers: 1, Progress: progress})
	if err != nil {
		return nil, nil, err
	}
	p := st.Points[0]
	out := &results.StudyValues{X: p.X, Swept: p.Swept, Seed: seed, Values: []results.QuantityValue{}}
	if !p.Swept {
		out.X = 0
	}
	for _, r := range p.Report.Runs {
		if r.Err != nil && !r.Saturated {
			out.Failed = append(out.Failed, r.Policy+": "+r.Err.Error())
		}
	}
	metricNames, groups := splitQuantities(sc)
	for i := range one.Policies {
		label := one.PolicyLabel(i)
		for _, m := range metricNames {
			for _, g := range groups {
				v := st.Value(scenario.Quantity{Policy: label, Metric: m, Group: g})
				qv := results.QuantityValue{Policy: label, Metric: m, Group: g, Saturated: v.Saturated}
				switch {
				case v.Err != nil:
					qv.Err = v.Err.Error()
				case !v.Saturated && !math.IsNaN(v.Mean):
					mean := v.Mean
					qv.Value = &mean
				}
				out.Values = append(out.Values, qv)
			}
		}
	}
	return out, st, nil
}

// splitQuantities are the metrics and groups a split study computes.
func splitQuantities(sc *scenario.Scenario) (metricNames, groups []string) {
	return sc.StudyQuantities()
}

// splitKey names a quantity at one point in a split study's table.
type splitKey struct {
	x                     float64
	policy, metric, group string
}

// splitTable holds the parts of a split study, in seed order per key.
type splitTable struct {
	seeds  []uint64
	values map[splitKey][]slot
	labels map[string]bool
}

// slot is one seed's value of a quantity; in is false until it came.
type slot struct {
	in bool
	v  results.QuantityValue
}

// ErrNotRun is the error of a quantity whose runs have not all come in.
var ErrNotRun = errors.New("not run yet")

// AssembleStudy builds the study of sc (in its quick form, see SplitPlan)
// from the parts RunSplitPart returned, in any order. Quantities whose
// point and seeds are not all there evaluate to an error, so checks on
// them fail with ErrNotRun until the last part is in.
func AssembleStudy(sc *scenario.Scenario, parts []*results.StudyValues) *Study {
	seeds, xs := SplitPlan(sc)
	st := &Study{Scenario: sc, Quick: sc.Quick != nil}
	for _, x := range xs {
		st.Points = append(st.Points, &Point{X: x, Swept: sc.Sweep != nil, Scenario: sc, Report: &Report{Scenario: sc}})
	}
	t := &splitTable{seeds: seeds, values: map[splitKey][]slot{}, labels: map[string]bool{}}
	for i := range sc.Policies {
		t.labels[sc.PolicyLabel(i)] = true
	}
	rank := map[uint64]int{}
	for i, s := range seeds {
		rank[s] = i
	}
	for _, p := range parts {
		i, ok := rank[p.Seed]
		if !ok {
			continue
		}
		x := p.X
		if !p.Swept {
			x = math.NaN()
		}
		for _, v := range p.Values {
			k := t.key(x, v.Policy, v.Metric, v.Group)
			if t.values[k] == nil {
				t.values[k] = make([]slot, len(seeds))
			}
			t.values[k][i] = slot{in: true, v: v}
		}
	}
	st.split = t
	return st
}

// SplitComplete reports whether every policy, sweep point and seed of a
// study built by AssembleStudy is in.
func (st *Study) SplitComplete() bool {
	t := st.split
	if t == nil {
		return true
	}
	for _, p := range st.Points {
		x := p.X
		if !p.Swept {
			x = math.NaN()
		}
		for label := range t.labels {
			slots := t.values[t.key(x, label, "avg_jct_s", "all")]
			if len(slots) == 0 {
				return false
			}
			for _, s := range slots {
				if !s.in {
					return false
				}
			}
		}
	}
	return true
}

func (t *splitTable) key(x float64, policy, metric, group string) splitKey {
	if math.IsNaN(x) {
		x = math.Inf(-1) // NaN never equals itself
	}
	if group == "" {
		group = "all"
	}
	return splitKey{x: x, policy: policy, metric: metric, group: group}
}

// value combines a quantity's seeds as Study.Value does with runs: the
// first failed seed makes it an error, saturated seeds mark it saturated,
// the others are averaged.
func (t *splitTable) value(p *Point, q scenario.Quantity) Value {
	if !t.labels[q.Policy] {
		return Value{Err: fmt.Errorf("no runs of policy %q", q.Policy)}
	}
	x := p.X
	if !p.Swept {
		x = math.NaN()
	}
	slots := t.values[t.key(x, q.Policy, q.Metric, q.Group)]
	var xs []float64
	var v Value
	for i, sl := range slots {
		s := sl.v
		switch {
		case !sl.in:
			return Value{Err: fmt.Errorf("%s seed %d: %w", (&Run{Policy: q.Policy, X: p.X, Swept: p.Swept}).label(), t.seeds[i], ErrNotRun)}
		case s.Err != "":
			return Value{Err: errors.New(s.Err)}
		case s.Saturated:
			v.Saturated = true
		case s.Value == nil:
			xs = append(xs, math.NaN())
			v.Seeds = append(v.Seeds, t.seeds[i])
		default:
			xs = append(xs, *s.Value)
			v.Seeds = append(v.Seeds, t.seeds[i])
		}
	}
	if slots == nil {
		return Value{Err: fmt.Errorf("%s: %w", q.String(), ErrNotRun)}
	}
	v.N, v.Each = len(xs), xs
	v.Mean, v.SD = meanSD(xs)
	v.Min, v.Max = minMax(xs)
	if v.Saturated {
		v.Mean = math.Inf(1)
	}
	return v
}

// PaperPoints are the paper's reported values of the sweep's metric and
// group, by policy in order of first appearance, in the reference unit:
// what a figure overlays on our curve.
func (st *Study) PaperPoints() []SeriesOutput {
	sc := st.Scenario
	if sc.Sweep == nil || sc.Reference == nil || len(sc.Sweep.Ratios) > 0 {
		return nil
	}
	metric, group := sweepMetric(sc)
	var out []SeriesOutput
	at := map[string]int{}
	for _, v := range sc.Reference.Values {
		g := v.Group
		if g == "" {
			g = "all"
		}
		if v.Metric != metric || g != group || v.X == nil {
			continue
		}
		i, ok := at[v.Policy]
		if !ok {
			i = len(out)
			at[v.Policy] = i
			out = append(out, SeriesOutput{Policy: v.Policy, Metric: metric, Group: group, Unit: st.refUnit(metric)})
		}
		y := v.Value
		out[i].X = append(out[i].X, *v.X)
		out[i].Mean = append(out[i].Mean, &y)
	}
	return out
}

// MetricTable is a single-point study's metrics, a row per policy: the
// metrics its checks and reference name over all jobs, in the reference
// unit with the spread over seeds. Nil for a sweep.
func (st *Study) MetricTable() (cols []string, rows [][]string) {
	if len(st.Points) != 1 {
		return nil, nil
	}
	names, _ := splitQuantities(st.Scenario)
	for _, m := range names {
		d, err := metrics.Lookup(m)
		if err != nil {
			continue
		}
		title := d.Doc
		if title == "" {
			title = m
		}
		if u := st.refUnit(m); u != "" {
			title += " (" + u + ")"
		}
		cols = append(cols, title)
	}
	for i := range st.Scenario.Policies {
		label := st.Scenario.PolicyLabel(i)
		row := []string{label}
		for _, m := range names {
			if _, err := metrics.Lookup(m); err != nil {
				continue
			}
			v := st.Value(scenario.Quantity{Policy: label, Metric: m, Group: "all"})
			switch {
			case errors.Is(v.Err, ErrNotRun):
				row = append(row, "…")
			case v.Err != nil:
				row = append(row, "–")
			case v.Saturated:
				row = append(row, "saturated")
			default:
				cell := num3(st.inRefUnit(m, v.Mean))
				if v.N > 1 && !math.IsNaN(v.SD) {
					cell += " ± " + num3(st.inRefUnit(m, v.SD))
				}
				row = append(row, cell)
			}
		}
		rows = append(rows, row)
	}
	return cols, rows
}
