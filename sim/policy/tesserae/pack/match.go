package pack

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/solver/match"
	"github.com/schedlab/schedlab/sim/workload"
)

// Job is what packing needs to know about one job.
type Job struct {
	ID    workload.JobID
	Model string
	GPUs  int
	// NoPack keeps the job out of packing (no edges): Tiresias (Single)
	// sets it for multi-GPU jobs, an operator for high-priority ones.
	NoPack bool
}

// Objective is what a matching maximises (spec §3.5).
type Objective string

const (
	// Combined (the paper's wording): the sum over pairs of the pair's
	// combined normalised throughput.
	Combined Objective = "combined"
	// Gain: the sum of (combined − 1), what a pair adds over the host
	// alone; pairs below 1 get no edge.
	Gain Objective = "gain"
)

// Options tune the matching.
type Options struct {
	Objective   Objective
	MinCombined float64 // drop edges below this combined throughput (0: none)
	Solver      Solver
	// Keep, when set, names host–guest pairs that share GPUs now: the
	// exact solver hands those out first among pairs of equal weight, so
	// that fewer guests move. The other solvers ignore it.
	Keep func(host, guest workload.JobID) bool
}

// Solver is how a matching is solved.
type Solver string

const (
	// Exact (the default, also ""): the job-level Hungarian's objective
	// exactly (the maximum weight, then guests earlier in priority order),
	// solved as a min-cost flow between model buckets (matchExact).
	Exact Solver = "exact"
	// Hungarian: the job-level Hungarian method of the paper on the
	// |hosts|×|guests| matrix, with the spec's tie-break toward earlier
	// guests folded into the weights (the reference).
	Hungarian Solver = "hungarian"
	// Buckets: the transportation problem between model buckets without
	// the tie-break (the same maximum weight, other guests on ties).
	Buckets Solver = "buckets"
)

// Pair is one matched host and guest.
type Pair struct {
	Host, Guest workload.JobID
	Combined    float64 // host's + guest's normalised throughput
	Score       float64 // the edge's weight under the objective
}

// scale turns throughputs into integer weights (1e-4 resolution).
const scale = 10_000

// Match is Algorithm 4: a maximum-weight matching between placed jobs
// (hosts, in the order given) and pending jobs (guests, in priority
// order), solved separately per GPU count since edges join only jobs of
// equal counts. Among equal-weight matchings the exact and hungarian
// solvers prefer guests earlier in pending [ours, spec §3.4]. Pairs come
// out in host order.
func Match(placed, pending []Job, t Rates, o Options) ([]Pair, error) {
	if o.Objective != Combined && o.Objective != Gain && o.Objective != "" {
		return nil, fmt.Errorf("pack: objective must be combined or gain, got %q", o.Objective)
	}
	switch o.Solver {
	case "", Exact, Hungarian, Buckets:
	default:
		return nil, fmt.Errorf("pack: solver must be exact, hungarian or buckets, got %q", o.Solver)
	}
	var out []Pair
	var sv match.Solver
	for _, k := range counts(placed) {
		hosts, guests := byCount(placed, k), byCount(pending, k)
		var pairs []Pair
		switch o.Solver {
		case Hungarian:
			var err error
			if pairs, err = matchClass(&sv, hosts, guests, t, o); err != nil {
				return nil, err
			}
		case Buckets:
			pairs = matchBuckets(hosts, guests, t, o)
		default:
			pairs = matchExact(hosts, guests, t, o)
		}
		out = append(out, pairs...)
	}
	order := map[workload.JobID]int{}
	for i, j := range placed {
		order[j.ID] = i
	}
	slices.SortFunc(out, func(a, b Pair) int { return order[a.Host] - order[b.Host] })
	return out, nil
}

// Score is an edge's weight under the options, and whether there is one.
func Score(a, b Job, t Rates, o Options) (combined, score float64, ok bool) {
	if a.GPUs != b.GPUs || a.NoPack || b.NoPack {
		return 0, 0, false
	}
	ta, tb, ok := t.Pair(a.Model, b.Model, a.GPUs)
	if !ok {
		return 0, 0, false
	}
	combined = ta + tb
	score = combined
	if o.Objective == Gain {
		score = combined - 1
	}
	if combined < o.MinCombined || score <= 0 {
		return 0, 0, false
	}
	return combined, score, true
}

func matchClass(sv *match.Solver, hosts, guests []Job, t Rates, o Options) ([]Pair, error) {
	n, m := len(hosts), len(guests)
	if n == 0 || m == 0 {
		return nil, nil
	}
	// Weight = score·scale·B + tie-break (see tieBase). Scores depend on
	// the models only, so they are looked up once per pair of buckets.
	B := tieBase(n, m)
	hb, gb := bucket(hosts), bucket(guests)
	w := make([]int64, n*m)
	for _, hs := range hb {
		for _, gs := range gb {
			_, s, ok := Score(hosts[hs[0]], guests[gs[0]], t, o)
			if !ok {
				continue
			}
			ws := int64(math.Round(s*scale)) * B
			for _, i := range hs {
				for _, k := range gs {
					w[i*m+k] = ws
					if B > 1 {
						w[i*m+k] += int64(m - k)
					}
				}
			}
		}
	}
	rowCol, _, err := sv.MaxWeight(n, m, w)
	if err != nil {
		return nil, err
	}
	var out []Pair
	for i, k := range rowCol {
		if k < 0 || w[i*m+k] <= 0 {
			continue // padding: no edge
		}
		c, s, _ := Score(hosts[i], guests[k], t, o)
		out = append(out, Pair{Host: hosts[i].ID, Guest: guests[k].ID, Combined: c, Score: s})
	}
	return out, nil
}

func counts(js []Job) []int {
	var out []int
	for _, j := range js {
		if !slices.Contains(out, j.GPUs) {
			out = append(out, j.GPUs)
		}
	}
	slices.Sort(out)
	return out
}

func byCount(js []Job, k int) []Job {
	var out []Job
	for _, j := range js {
		if j.GPUs == k {
			out = append(out, j)
		}
	}
	return out
}
