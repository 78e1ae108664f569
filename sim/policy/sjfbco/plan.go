package sjfbco

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/workload"
)

// step is one θ of the bisection: the best κ there and its makespan.
type step struct {
	theta    float64
	kappa    int
	makespan float64 // T when no trial at θ was feasible
	improved bool
}

// plan is the offline schedule Algorithm 1 (or a baseline's bisection)
// chose: the rule the engine then follows, and how it was found.
type plan struct {
	rule     rule
	makespan float64 // predicted by the chosen trial
	feasible bool    // false: no θ ≤ T gave a schedule done by T
	trials   int
	steps    []step
	byKappa  []step // sjf-bco at the chosen θ: every κ's makespan
}

// planner runs the bisection over θ_u (spec 004 §2.2).
type planner struct {
	t       *trial
	order   []workload.JobID
	horizon float64
	literal bool // bisection on improvement (the paper) or on feasibility
}

// best runs one trial per κ at θ and returns the best (first strictly
// smallest makespan, T for an infeasible trial) with its κ.
func (p *planner) best(base rule, kappas []int, theta float64, trials *int) (float64, int) {
	m, kBest := p.horizon, kappas[0]
	for _, k := range kappas {
		r := base
		r.theta, r.kappa = theta, k
		res := p.t.run(&r, p.order, p.horizon, true, false, nil)
		*trials++
		mk := p.horizon
		if res.feasible {
			mk = res.makespan
		}
		if mk < m {
			m, kBest = mk, k
		}
	}
	return m, kBest
}

// bisect is Algorithm 1's outer loop: θ from ⌊(1+T)/2⌋, left when the
// best makespan at θ improved on every earlier θ (literal) or was
// feasible (the variant), right otherwise.
func (p *planner) bisect(base rule, kappas []int) plan {
	out := plan{rule: base, makespan: p.horizon}
	out.rule.theta, out.rule.kappa = math.Inf(1), kappas[0]
	left, right := 1.0, math.Floor(p.horizon)
	for left <= right {
		theta := math.Floor((left + right) / 2)
		m, k := p.best(base, kappas, theta, &out.trials)
		st := step{theta: theta, kappa: k, makespan: m}
		if m < out.makespan {
			out.makespan, out.rule.theta, out.rule.kappa, out.feasible = m, theta, k, true
			st.improved = true
		}
		out.steps = append(out.steps, st)
		goLeft := st.improved
		if !p.literal {
			goLeft = m < p.horizon
		}
		if goLeft {
			right = theta - 1
		} else {
			left = theta + 1
		}
	}
	if !out.feasible {
		p.uncapped(&out, base, kappas)
	}
	return out
}

// uncapped handles a batch no θ ≤ T schedules within T: the paper returns
// no schedule, the engine must still run the jobs, so the plan drops the
// cap and keeps the κ whose trial finishes first.
func (p *planner) uncapped(out *plan, base rule, kappas []int) {
	out.makespan = math.Inf(1)
	for _, k := range kappas {
		r := base
		r.theta, r.kappa = math.Inf(1), k
		res := p.t.run(&r, p.order, p.horizon, false, false, nil)
		out.trials++
		if res.makespan < out.makespan {
			out.makespan, out.rule = res.makespan, r
		}
	}
}

// byKappa records every κ's makespan at the chosen θ, for the log.
func (p *planner) byKappa(out *plan, kappas []int) {
	for _, k := range kappas {
		r := out.rule
		r.kappa = k
		res := p.t.run(&r, p.order, p.horizon, false, false, nil)
		out.byKappa = append(out.byKappa, step{theta: r.theta, kappa: k, makespan: res.makespan, improved: res.feasible})
	}
}

// kappaClasses returns the κ values Algorithm 1 tries: 1..n_g literally,
// or only the distinct job sizes (and 1), which split the jobs the same
// way and give the same result (spec 004 §2.2, κ deduplication).
func kappaClasses(jobs []workload.Job, literal bool) []int {
	ng := 1
	for i := range jobs {
		ng = max(ng, jobs[i].GPUs)
	}
	var out []int
	if literal {
		for k := 1; k <= ng; k++ {
			out = append(out, k)
		}
		return out
	}
	out = append(out, 1)
	for i := range jobs {
		out = append(out, jobs[i].GPUs)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sjfOrder sorts job IDs by GPUs, ties by index (Algorithm 1, line 1).
func sjfOrder(jobs []workload.Job) []workload.JobID {
	out := inputOrder(jobs)
	slices.SortStableFunc(out, func(a, b workload.JobID) int { return jobs[a].GPUs - jobs[b].GPUs })
	return out
}

// largestOrder sorts job IDs by GPUs, most first, ties by index.
func largestOrder(jobs []workload.Job) []workload.JobID {
	out := inputOrder(jobs)
	slices.SortStableFunc(out, func(a, b workload.JobID) int { return jobs[b].GPUs - jobs[a].GPUs })
	return out
}

func inputOrder(jobs []workload.Job) []workload.JobID {
	out := make([]workload.JobID, len(jobs))
	for i := range out {
		out[i] = workload.JobID(i)
	}
	return out
}

// describe summarises the plan for the decision log.
func (pl *plan) describe(name string) string {
	var b strings.Builder
	if pl.feasible {
		fmt.Fprintf(&b, "%s plan: θ̃_u = %g, κ = %d, predicted makespan %.2f slots, %d trials.", name, pl.rule.theta, pl.rule.kappa, pl.makespan, pl.trials)
	} else {
		fmt.Fprintf(&b, "%s plan: no θ_u ≤ T gives a schedule done by T (the paper reports makespan T); running without the cap, κ = %d, predicted makespan %.2f slots, %d trials.", name, pl.rule.kappa, pl.makespan, pl.trials)
	}
	if len(pl.steps) > 0 {
		b.WriteString(" Bisection:")
		for _, s := range pl.steps {
			mark := ""
			if s.improved {
				mark = " (better)"
			}
			fmt.Fprintf(&b, " θ=%g→%.1f%s;", s.theta, s.makespan, mark)
		}
	}
	if len(pl.byKappa) > 1 {
		b.WriteString(" At θ̃, makespan by κ:")
		for _, s := range pl.byKappa {
			fmt.Fprintf(&b, " κ=%d→%.1f;", s.kappa, s.makespan)
		}
	}
	return b.String()
}
