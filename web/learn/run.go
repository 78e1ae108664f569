package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// Run is what a lesson reads of the student's last run of its scenario:
// one comparison (Policies) or a curve (Sweep), or both.
type Run struct {
	// Scenario is the scenario as run: the curve's when there is one,
	// else the comparison's; Single is the comparison's (a sweep lesson
	// runs one value once for the Timeline).
	Scenario *scenario.Scenario
	Single   *scenario.Scenario
	// Base is the lesson's built-in scenario, Edited set when the run's
	// differs from it.
	Base   *scenario.Scenario
	Edited bool
	// Servers are the cluster's servers; GPU ids run through them in
	// order (server 0's GPUs first).
	Servers  []Server
	Policies []*Policy
	Sweep    *Sweep

	facts   map[string]string // Lesson.Text's, of lesson factsOf
	factsOf *Lesson
}

// Server is one server of the cluster.
type Server struct {
	GPUs int
	Type string
}

// Policy is one policy's run.
type Policy struct {
	Label, Name string
	// Params are the policy's parameters as the scenario writes them.
	Params    map[string]any
	Out       results.PolicyOutput
	Log       []protocol.LogEntry
	Intervals []protocol.Interval
}

// Sweep is a curve: a metric of each policy against a swept value.
type Sweep struct {
	XLabel, YLabel string
	Series         []Series
	// Complete is set when every point is in.
	Complete bool
	// Checks are the scenario's checks of a paper's claims, with their
	// verdicts on this run.
	Checks []Check
}

// Check is one check of a paper's claim and its verdict on a run, as the
// reproduction report words it: "pass", "fail", "n/a" (it could not be
// made here, e.g. its load was not run) or another label; Calibrated
// marks a number the set-up was tuned to.
type Check struct {
	ID, Claim, Verdict, Observed, Why string
	Calibrated                        bool
}

// Check returns the check with this ID.
func (s *Sweep) Check(id string) (Check, bool) {
	for _, c := range s.Checks {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}

// Series is one policy's curve; Y is NaN where a point is missing (not
// in yet, or saturated).
type Series struct {
	Policy string
	X, Y   []float64
}

// PolicyParams decodes a policy's parameters from the scenario, with the
// policy's defaults for those the scenario leaves out, so that a lesson's
// text names the values the run used.
func PolicyParams(spec scenario.PolicySpec) map[string]any {
	m := map[string]any{}
	if f, ok := policy.Lookup(spec.Name); ok && f.NewParams != nil {
		p := f.NewParams()
		if len(spec.Params) == 0 || json.Unmarshal(spec.Params, p) == nil {
			if data, err := json.Marshal(p); err == nil && json.Unmarshal(data, &m) == nil {
				return m
			}
		}
		m = map[string]any{}
	}
	if len(spec.Params) > 0 {
		_ = json.Unmarshal(spec.Params, &m) // the scenario was validated
	}
	return m
}

// PolicyParamsOf decodes the parameters of the scenario's policy of this
// label, nil when it has none of that label.
func PolicyParamsOf(sc *scenario.Scenario, label string) *Policy {
	if sc == nil {
		return nil
	}
	for i, spec := range sc.Policies {
		if sc.PolicyLabel(i) == label {
			return &Policy{Label: label, Name: spec.Name, Params: PolicyParams(spec)}
		}
	}
	return nil
}

// GPUs is the cluster's number of GPUs.
func (r *Run) GPUs() int {
	n := 0
	for _, s := range r.Servers {
		n += s.GPUs
	}
	return n
}

// serverOf maps each GPU id to its server.
func (r *Run) serverOf() []int {
	var out []int
	for i, s := range r.Servers {
		for range s.GPUs {
			out = append(out, i)
		}
	}
	return out
}

// Labelled returns the policy with this label.
func (r *Run) Labelled(label string) (*Policy, error) {
	for _, p := range r.Policies {
		if p.Label == label {
			return p, nil
		}
	}
	return nil, fmt.Errorf("this lesson needs the policy “%s” in the run; bring it back in the Scenario view (or reset the lesson)", label)
}

// Index is the position of p among the run's policies.
func (r *Run) Index(p *Policy) int {
	for i, q := range r.Policies {
		if q == p {
			return i
		}
	}
	return -1
}

// Curve returns the series of a policy's label.
func (r *Run) Curve(label string) (*Series, error) {
	if r.Sweep == nil {
		return nil, ErrNoRun
	}
	for i := range r.Sweep.Series {
		if r.Sweep.Series[i].Policy == label {
			return &r.Sweep.Series[i], nil
		}
	}
	return nil, fmt.Errorf("this lesson needs the policy “%s” in the curve", label)
}

// At is the series' value at x, NaN when missing.
func (s *Series) At(x float64) float64 {
	for i, v := range s.X {
		if v == x && i < len(s.Y) {
			return s.Y[i]
		}
	}
	return math.NaN()
}

// Bool reads a boolean parameter, def when absent.
func (p *Policy) Bool(key string, def bool) bool {
	if v, ok := p.Params[key].(bool); ok {
		return v
	}
	return def
}

// String reads a string parameter, def when absent.
func (p *Policy) String(key, def string) string {
	if v, ok := p.Params[key].(string); ok {
		return v
	}
	return def
}

// Finished lists the jobs that finished, as indices.
func (p *Policy) Finished() []int {
	var out []int
	for i, j := range p.Out.Jobs {
		if j.FinishS != nil && j.JCTS != nil {
			out = append(out, i)
		}
	}
	return out
}

// JCT is job i's completion time (arrival to finish), NaN when it did
// not finish.
func (p *Policy) JCT(i int) float64 {
	if j := p.Out.Jobs[i]; j.JCTS != nil {
		return *j.JCTS
	}
	return math.NaN()
}

// Queue is job i's queuing delay (arrival to first start), NaN when it
// never started.
func (p *Policy) Queue(i int) float64 {
	if j := p.Out.Jobs[i]; j.QueueS != nil {
		return *j.QueueS
	}
	return math.NaN()
}

// Solo is job i's run time alone on its GPUs, NaN when unknown.
func (p *Policy) Solo(i int) float64 {
	if j := p.Out.Jobs[i]; j.SoloS != nil {
		return *j.SoloS
	}
	return math.NaN()
}

// ShareWithin is the share of all jobs that finished within d of
// arriving, and how many did.
func (p *Policy) ShareWithin(d float64) (float64, int) {
	n := 0
	for _, i := range p.Finished() {
		if p.JCT(i) <= d {
			n++
		}
	}
	if len(p.Out.Jobs) == 0 {
		return 0, 0
	}
	return float64(n) / float64(len(p.Out.Jobs)), n
}

// MeanRunning is the mean time finished jobs spent from their first
// start to their finish (running, and any pauses after a preemption).
func (p *Policy) MeanRunning() float64 {
	sum, n := 0.0, 0
	for _, i := range p.Finished() {
		j := p.Out.Jobs[i]
		if j.StartS != nil {
			sum += *j.FinishS - *j.StartS
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// Index returns the index of the job with this id, -1 if none.
func (p *Policy) Index(id string) int {
	for i, j := range p.Out.Jobs {
		if j.ID == id {
			return i
		}
	}
	return -1
}

// State is what the cluster looks like at an instant, as the Timeline
// shows it: a job runs at t when one of its GPU intervals covers t
// (start ≤ t < end); it waits when it has arrived, runs nowhere and has
// not finished.
type State struct {
	T       float64
	Running []int
	// Waiting are the waiting jobs, longest waiting first.
	Waiting []int
	// Free is each server's idle GPUs.
	Free []int
}

// FreeGPUs is the idle GPUs in all.
func (s State) FreeGPUs() int {
	n := 0
	for _, f := range s.Free {
		n += f
	}
	return n
}

// At returns the state of policy p's run at t.
func (r *Run) At(p *Policy, t float64) State {
	st := State{T: t, Free: make([]int, len(r.Servers))}
	for i, s := range r.Servers {
		st.Free[i] = s.GPUs
	}
	of := r.serverOf()
	holding := make([]bool, len(p.Out.Jobs))
	busy := map[int32]bool{}
	for _, iv := range p.Intervals {
		if iv.StartS <= t && t < iv.EndS {
			holding[iv.Job] = true
			if !busy[iv.GPU] && int(iv.GPU) < len(of) {
				st.Free[of[iv.GPU]]--
			}
			busy[iv.GPU] = true
		}
	}
	for i, j := range p.Out.Jobs {
		switch {
		case j.ArrivalS > t, j.FinishS != nil && *j.FinishS <= t:
		case holding[i]:
			st.Running = append(st.Running, i)
		default:
			st.Waiting = append(st.Waiting, i)
		}
	}
	sort.SliceStable(st.Waiting, func(a, b int) bool {
		return p.Out.Jobs[st.Waiting[a]].ArrivalS < p.Out.Jobs[st.Waiting[b]].ArrivalS
	})
	return st
}

// Events are the instants at which policy p's run changes: arrivals,
// finishes and the ends of GPU intervals, in order, without repeats.
func (p *Policy) Events() []float64 { return protocol.EventTimes(p.Out, p.Intervals) }

// Busiest is the first instant at which the most jobs wait in policy p's
// run, and its state.
func (r *Run) Busiest(p *Policy) (State, bool) {
	var best State
	found := false
	for _, t := range p.Events() {
		st := r.At(p, t)
		if len(st.Waiting) > len(best.Waiting) {
			best, found = st, true
		}
	}
	return best, found
}

// Blocked is an instant of head-of-line blocking: the oldest waiting job
// (Head) needs more GPUs than are free, while Behind jobs wait after it.
// Fit counts those of Behind that would fit in the free GPUs.
type Blocked struct {
	State
	Head   int
	Behind []int
	Fit    int
}

// FirstBlocked is the first instant of policy p's run at which the
// oldest waiting job does not fit in the free GPUs while a job behind it
// would (it is blocking it), preferring the instant at which the most
// jobs wait behind a blocked head.
func (r *Run) FirstBlocked(p *Policy) (Blocked, bool) {
	var best Blocked
	found := false
	for _, t := range p.Events() {
		st := r.At(p, t)
		if len(st.Waiting) < 2 {
			continue
		}
		head := st.Waiting[0]
		free := st.FreeGPUs()
		if p.Out.Jobs[head].GPUs <= free {
			continue
		}
		b := Blocked{State: st, Head: head, Behind: st.Waiting[1:]}
		for _, w := range b.Behind {
			if p.Out.Jobs[w].GPUs <= free {
				b.Fit++
			}
		}
		if b.Fit > 0 && (!found || b.Fit > best.Fit) {
			best, found = b, true
		}
	}
	return best, found
}

// Passed is an instant at which a policy started job Started while job
// Waiter, which arrived before it and runs longer alone, kept waiting.
type Passed struct {
	T       float64
	Started int
	Waiter  int
}

// LongestPassed finds, in policy p's run, the start of a job that
// overtook the job that had been waiting longest at that moment, choosing
// the moment at which the overtaken job had waited longest.
func (r *Run) LongestPassed(p *Policy) (Passed, bool) {
	var best Passed
	bestWait := -1.0
	for i, j := range p.Out.Jobs {
		if j.StartS == nil {
			continue
		}
		t := *j.StartS
		for _, w := range r.At(p, t).Waiting {
			wj := p.Out.Jobs[w]
			if wj.ArrivalS < j.ArrivalS && p.Solo(w) > p.Solo(i) && t-wj.ArrivalS > bestWait {
				best, bestWait = Passed{T: t, Started: i, Waiter: w}, t-wj.ArrivalS
			}
		}
	}
	return best, bestWait >= 0
}

// Generator is what lessons read of a Poisson generator's parameters.
type Generator struct {
	Kind        string  `json:"kind"`
	Jobs        int     `json:"jobs"`
	JobsPerHour float64 `json:"jobs_per_hour"`
	GPUMix      []struct {
		GPUs   float64 `json:"gpus"`
		Weight float64 `json:"weight"`
	} `json:"gpu_mix"`
	Duration struct {
		Dist  string  `json:"dist"`
		MeanS float64 `json:"mean_s"`
	} `json:"duration"`
}

// Generator reads the scenario's generator, nil for a job list.
func (r *Run) Generator() *Generator { return generatorOf(r.Scenario) }

// SingleGenerator reads the generator of the comparison's scenario.
func (r *Run) SingleGenerator() *Generator { return generatorOf(r.Single) }

func generatorOf(sc *scenario.Scenario) *Generator {
	if sc == nil || len(sc.Workload.Generator) == 0 {
		return nil
	}
	var g Generator
	if json.Unmarshal(sc.Workload.Generator, &g) != nil {
		return nil
	}
	return &g
}

// MeanGPUs is the mean GPUs a job of the mix asks for.
func (g *Generator) MeanGPUs() float64 {
	sum, w := 0.0, 0.0
	for _, m := range g.GPUMix {
		sum += m.GPUs * m.Weight
		w += m.Weight
	}
	if w == 0 {
		return math.NaN()
	}
	return sum / w
}

// Sizes lists the GPU counts of the mix: "1 or 2", "1, 2, 4 or 8".
func (g *Generator) Sizes() string {
	var ns []string
	for _, m := range g.GPUMix {
		if m.Weight > 0 {
			ns = append(ns, num(m.GPUs))
		}
	}
	return orWords(ns)
}

// Load is the share of the cluster's GPU time that jobs arriving at rate
// jobs per hour ask for: rate × mean GPUs × mean duration ÷ GPUs.
func (g *Generator) Load(rate float64, gpus int) float64 {
	return rate * g.MeanGPUs() * g.Duration.MeanS / 3600 / float64(gpus)
}

// JobCount is the number of jobs the scenario has.
func (r *Run) JobCount() int {
	if r.Scenario == nil {
		return 0
	}
	if g := r.Generator(); g != nil {
		return g.Jobs
	}
	return len(r.Scenario.Workload.Jobs)
}
