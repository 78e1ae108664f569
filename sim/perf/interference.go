package perf

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// InterferenceSpec is a pairwise slowdown table by model, as written in a
// scenario. Matrix[i][k] is how many times longer an iteration of a job of
// Models[i] takes while a job of Models[k] shares one of its GPUs.
type InterferenceSpec struct {
	Uniform float64     `json:"uniform,omitempty" min:"0" max:"100" help:"one slowdown for every pair; overrides the matrix"`
	Models  []string    `json:"models,omitempty" help:"row and column labels of the matrix"`
	Matrix  [][]float64 `json:"matrix,omitempty" help:"slowdown of the row model next to the column model (≥ 1)"`
	Default float64     `json:"default,omitempty" min:"0" max:"100" help:"slowdown for pairs outside the matrix; 0 means 1"`
	Combine string      `json:"combine,omitempty" enum:",max,product,sum" help:"how slowdowns from several co-runners combine: max (the worst partner sets the pace), product, or sum of the excesses"`
}

// Check enforces the rules that span fields.
func (s *InterferenceSpec) Check() []schema.Problem {
	var ps []schema.Problem
	if s.Uniform != 0 && s.Uniform < 1 {
		ps = append(ps, schema.Problem{Path: "uniform", Msg: fmt.Sprintf("must be at least 1 (a slowdown), got %v", s.Uniform)})
	}
	if s.Default != 0 && s.Default < 1 {
		ps = append(ps, schema.Problem{Path: "default", Msg: fmt.Sprintf("must be at least 1 (a slowdown), got %v", s.Default)})
	}
	if len(s.Matrix) != len(s.Models) {
		ps = append(ps, schema.Problem{Path: "matrix", Msg: fmt.Sprintf("has %d rows but there are %d models", len(s.Matrix), len(s.Models))})
		return ps
	}
	seen := map[string]bool{}
	for i, m := range s.Models {
		if m == "" {
			ps = append(ps, schema.Problem{Path: schema.Index("models", i), Msg: "must not be empty"})
		}
		if seen[m] {
			ps = append(ps, schema.Problem{Path: schema.Index("models", i), Msg: fmt.Sprintf("%q is listed twice", m)})
		}
		seen[m] = true
	}
	for i, row := range s.Matrix {
		rp := schema.Index("matrix", i)
		if len(row) != len(s.Models) {
			ps = append(ps, schema.Problem{Path: rp, Msg: fmt.Sprintf("has %d values but there are %d models", len(row), len(s.Models))})
			continue
		}
		for k, v := range row {
			if !(v >= 1) || math.IsInf(v, 0) {
				ps = append(ps, schema.Problem{Path: schema.Index(rp, k), Msg: fmt.Sprintf("must be a slowdown of at least 1, got %v", v)})
			} else if v > 100 {
				ps = append(ps, schema.Problem{Path: schema.Index(rp, k), Msg: fmt.Sprintf("must be a slowdown of at most 100 (so that rates stay finite), got %v", v)})
			}
		}
	}
	return ps
}

// Empty reports whether the spec slows nothing down.
func (s *InterferenceSpec) Empty() bool {
	return s.Uniform == 0 && len(s.Models) == 0 && (s.Default == 0 || s.Default == 1)
}

// Interference slows a job down by the jobs that share its GPUs.
type Interference struct {
	uniform float64
	index   map[string]int
	matrix  [][]float64
	def     float64
	combine string
}

// NewInterference builds the factor from a checked spec.
func NewInterference(s InterferenceSpec) *Interference {
	f := &Interference{uniform: s.Uniform, index: map[string]int{}, matrix: s.Matrix, def: s.Default, combine: s.Combine}
	if f.def == 0 {
		f.def = 1
	}
	if f.combine == "" {
		f.combine = "max"
	}
	for i, m := range s.Models {
		f.index[m] = i
	}
	return f
}

// Pair returns the slowdown of a job of model a while a job of model b
// shares one of its GPUs.
func (f *Interference) Pair(a, b string) float64 {
	if f.uniform != 0 {
		return f.uniform
	}
	i, ok1 := f.index[a]
	k, ok2 := f.index[b]
	if !ok1 || !ok2 {
		return f.def
	}
	return f.matrix[i][k]
}

// Slowdown implements Factor. Each co-runner counts once, however many
// GPUs it shares with the job.
func (f *Interference) Slowdown(s State, id workload.JobID) float64 {
	me := s.Job(id).Model
	var seen [8]workload.JobID
	partners := seen[:0]
	result := 1.0
	for _, g := range s.Placement(id).GPUs {
		for _, p := range s.JobsOn(g) {
			if p == id || containsJob(partners, p) {
				continue
			}
			partners = append(partners, p)
			x := f.Pair(me, s.Job(p).Model)
			switch f.combine {
			case "product":
				result *= x
			case "sum":
				result += x - 1
			default:
				result = max(result, x)
			}
		}
	}
	return result
}

func containsJob(list []workload.JobID, id workload.JobID) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// Coupling implements Factor.
func (f *Interference) Coupling() Coupling { return SharedGPU }
