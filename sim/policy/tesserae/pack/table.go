// Package pack is Tesserae's packing step (spec 003 §3): the jobs that
// got GPUs in the exclusive pass (hosts) and those that did not (guests)
// form a bipartite graph, with an edge where two jobs ask for the same
// number of GPUs and their pair was profiled; a maximum-weight matching
// on the pair's normalised throughput puts each matched guest on its
// host's GPUs. The pair table comes from the Blox measurements
// (norm_speed.csv, MIT licence, see LICENSE.blox), the calibration source
// the spec names (§5.6).
package pack

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/perf"
)

//go:embed norm_speed.csv
var bloxCSV string

// Rates answer the one question packing asks: the normalised throughputs
// of two jobs, named by their Job.Model keys, while they share k GPUs
// each, and whether the pair may share at all. A Table (measured pairs) is
// one; the tesserae package also derives them from a scenario's perf model.
type Rates interface {
	Pair(a, b string, k int) (ta, tb float64, ok bool)
}

// Table holds, per GPU count and ordered pair of models, the normalised
// throughput of the first while it shares its GPUs with the second (1 =
// as fast as alone; 0 = no usable measurement or out of memory).
type Table struct {
	GPUs   []int // measured GPU counts, ascending
	Models []string
	T      [][][]float64 // [count index][model][partner]
	// Source says where each value comes from, for the learner.
	Source [][][]string
}

// Pair returns model a's and model b's normalised throughputs when two
// jobs of k GPUs each share their GPUs; ok is false when the pair has no
// measurement. A count that was not measured uses the largest measured
// one below it (the linear model of spec §4.2: a data-parallel pair's
// normalised throughputs do not depend on the GPU count).
func (t *Table) Pair(a, b string, k int) (ta, tb float64, ok bool) {
	c := -1
	for x, g := range t.GPUs {
		if g <= k {
			c = x
		}
	}
	i, j := slices.Index(t.Models, a), slices.Index(t.Models, b)
	if c < 0 || i < 0 || j < 0 || t.T[c][i][j] <= 0 || t.T[c][j][i] <= 0 {
		return 0, 0, false
	}
	return t.T[c][i][j], t.T[c][j][i], true
}

type meas struct {
	a, b, strategy string
	gpus           int
	ta, tb         float64
}

// Blox derives the model-pair table from the Blox measurements [ext] by
// the rule of spec §5.6 made concrete [ours]: a value is the mean over
// every measured batch size (32/64/128) of that pair at that GPU count
// (1/2/4), ignoring out-of-memory rows (0.0); for a pipeline-parallel
// language model it is taken under the split with the highest mean
// combined throughput for that partner (Tesserae's "best strategy",
// §4.1). Pairs of two language models were not measured and get no edge.
func Blox() (*Table, error) {
	rows, err := csv.NewReader(strings.NewReader(bloxCSV)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("pack: blox table: %w", err)
	}
	var ms []meas
	for i, r := range rows[1:] {
		if len(r) != 13 {
			return nil, fmt.Errorf("pack: blox table row %d has %d fields", i+2, len(r))
		}
		if r[8] == "Empty" {
			continue // a model alone under one split, not a pair
		}
		ta, err1 := strconv.ParseFloat(r[5], 64)
		tb, err2 := strconv.ParseFloat(r[12], 64)
		k, err3 := strconv.Atoi(r[3])
		if err1 != nil || err2 != nil || err3 != nil || k < 1 {
			return nil, fmt.Errorf("pack: blox table row %d: bad speed %q or %q or GPU count %q", i+2, r[5], r[12], r[3])
		}
		ms = append(ms, meas{a: r[1], b: r[8], strategy: r[7], gpus: k, ta: ta, tb: tb})
	}
	return build(ms), nil
}

// build averages the measurements per GPU count, model pair and split.
func build(ms []meas) *Table {
	type key struct {
		k       int
		a, b, s string
	}
	type acc struct {
		ta, tb float64
		n, oom int
	}
	sums := map[key]*acc{}
	var keys []key
	t := &Table{}
	for _, m := range ms {
		for _, x := range []string{m.a, m.b} {
			if !slices.Contains(t.Models, x) {
				t.Models = append(t.Models, x)
			}
		}
		if !slices.Contains(t.GPUs, m.gpus) {
			t.GPUs = append(t.GPUs, m.gpus)
		}
		k := key{m.gpus, m.a, m.b, m.strategy}
		s, ok := sums[k]
		if !ok {
			s = &acc{}
			sums[k] = s
			keys = append(keys, k)
		}
		if m.ta <= 0 || m.tb <= 0 {
			s.oom++
			continue
		}
		s.ta += m.ta
		s.tb += m.tb
		s.n++
	}
	slices.Sort(t.Models)
	slices.Sort(t.GPUs)
	n := len(t.Models)
	t.T, t.Source = make([][][]float64, len(t.GPUs)), make([][][]string, len(t.GPUs))
	for c := range t.GPUs {
		t.T[c], t.Source[c] = make([][]float64, n), make([][]string, n)
		for i := range n {
			t.T[c][i], t.Source[c][i] = make([]float64, n), make([]string, n)
		}
	}
	best := map[[3]int]float64{}
	for _, k := range keys { // keys in file order: deterministic
		s := sums[k]
		c := slices.Index(t.GPUs, k.k)
		i, j := slices.Index(t.Models, k.a), slices.Index(t.Models, k.b)
		T, src := t.T[c], t.Source[c]
		if s.n == 0 {
			if src[i][j] == "" {
				src[i][j] = fmt.Sprintf("Blox norm_speed.csv: %d rows at %d GPUs, all out of memory", s.oom, k.k)
				src[j][i] = src[i][j]
			}
			continue
		}
		ta, tb := s.ta/float64(s.n), s.tb/float64(s.n)
		if prev, ok := best[[3]int{c, i, j}]; ok && ta+tb <= prev {
			continue
		}
		best[[3]int{c, i, j}], best[[3]int{c, j, i}] = ta+tb, ta+tb
		T[i][j], T[j][i] = ta, tb
		if i == j { // a model with itself: either side is the same job kind
			T[i][i] = (ta + tb) / 2
		}
		why := fmt.Sprintf("Blox norm_speed.csv: mean of %d rows at %d GPUs (%d out of memory)", s.n, k.k, s.oom)
		if k.s != "NA" && k.s != "" {
			why += fmt.Sprintf(", split %q, the best for this partner", k.s)
		}
		src[i][j], src[j][i] = why, why
	}
	return t
}

// Interference writes the table as the engine's pairwise slowdown matrix
// (slowdown = 1 / normalised throughput), the "true" model of a scenario.
// The engine's matrix is per model, not per GPU count: a pair takes its
// value at k GPUs, else at the smallest count where it was measured. A
// pair never measured gets the largest slowdown the engine accepts (100):
// packing never forms it, and a run that did would show it.
func (t *Table) Interference(k int) perf.InterferenceSpec {
	n := len(t.Models)
	spec := perf.InterferenceSpec{Models: slices.Clone(t.Models), Matrix: make([][]float64, n), Default: 100}
	tries := append([]int{k}, t.GPUs...)
	for i := range n {
		spec.Matrix[i] = make([]float64, n)
		for j := range n {
			spec.Matrix[i][j] = 100
			for _, kk := range tries {
				if a, _, ok := t.Pair(t.Models[i], t.Models[j], kk); ok && t.measured(kk) {
					spec.Matrix[i][j] = math.Round(min(100, max(1, 1/a))*1e4) / 1e4
					break
				}
			}
		}
	}
	return spec
}

func (t *Table) measured(k int) bool { return slices.Contains(t.GPUs, k) }
