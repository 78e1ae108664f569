package plan

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of Gavel's effective throughput and its reference
// allocations (spec 001 §1.2, §1.4, §1.8) on a cluster of 2 V100 and 6
// K80.

// pairModel is a throughput oracle: solo throughputs by model and type
// index, and one pair's throughputs (each member's while they share).
type pairModel struct {
	types []string
	solo  map[string][]float64
	pa    string
	pb    string
	pair  [2][]float64 // pa's and pb's throughputs per type while sharing
}

func (m *pairModel) Rate(perf.State, workload.JobID) float64 { return 0 }
func (m *pairModel) Coupling() perf.Coupling                 { return perf.Independent }
func (m *pairModel) at(t string) int {
	for i, x := range m.types {
		if x == t {
			return i
		}
	}
	return -1
}
func (m *pairModel) SoloThroughput(j *workload.Job, t string) float64 {
	return m.solo[j.Model][m.at(t)]
}
func (m *pairModel) PairThroughput(a, b *workload.Job, t string) (float64, float64) {
	i := m.at(t)
	switch {
	case a.Model == m.pa && b.Model == m.pb:
		return m.pair[0][i], m.pair[1][i]
	case a.Model == m.pb && b.Model == m.pa:
		return m.pair[1][i], m.pair[0][i]
	}
	return 0, 0
}

func handInput() *Input {
	return &Input{Types: []string{"V100", "K80"}, Count: []float64{2, 6}}
}

// X^equal spreads a job's time over the devices, so its throughput is
// Σ_j T_j·n_j / Σ n_j: (8·2 + 2·6)/8 = 3.5.
func TestThrEqualByHand(t *testing.T) {
	if got := handInput().ThrEqual([]float64{8, 2}); got != 3.5 {
		t.Errorf("thr(X^equal) = %v, want (16 + 12)/8 = 3.5", got)
	}
}

// X^isolated gives each of m jobs 1/m of every type, divided by its scale
// factor, only where it can run, scaled to a row sum of at most 1.
func TestIsoRowByHand(t *testing.T) {
	in := handInput()
	for _, c := range []struct {
		name string
		sf   int
		thr  []float64
		m    int
		want []float64
	}{
		// 8 jobs, 2 GPUs each: (2/8/2, 6/8/2) = (0.125, 0.375), sum 0.5.
		{"a multi-GPU job's share", 2, []float64{8, 2}, 8, []float64{0.125, 0.375}},
		// 4 jobs of 1 GPU: (0.5, 1.5), sum 2, scaled to (0.25, 0.75).
		{"scaled to a full row", 1, []float64{8, 2}, 4, []float64{0.25, 0.75}},
		// Only V100s usable: 2/4 = 0.5, left as it is.
		{"one type usable", 1, []float64{8, 0}, 4, []float64{0.5, 0}},
	} {
		got := in.IsoRow(&Job{SF: c.sf, Thr: c.thr}, c.m)
		for j := range c.want {
			if math.Abs(got[j]-c.want[j]) > 1e-12 {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

// Effective throughput with space sharing (spec 001 §1.4): a job alone
// half the time on V100s (8 it/s) and a pair sharing K80s for a quarter
// of the time, where a runs at 1.5 and b at 0.5: a gets 0.5·8 + 0.25·1.5
// = 4.375, b 0.25·0.5 + b's own 0.5 on V100 at 3 = 1.625.
func TestEffectiveThroughputByHand(t *testing.T) {
	m := &pairModel{types: []string{"V100", "K80"}, solo: map[string][]float64{"a": {8, 2}, "b": {3, 1}},
		pa: "a", pb: "b", pair: [2][]float64{{5, 1.5}, {2, 0.5}}}
	in := handInput()
	in.Oracle = Oracle{Model: m}
	ja, jb := &workload.Job{Model: "a", GPUs: 1}, &workload.Job{Model: "b", GPUs: 1}
	in.Jobs = []Job{{Job: ja, SF: 1, Thr: []float64{8, 2}}, {Job: jb, SF: 1, Thr: []float64{3, 1}}}
	al := &Allocation{Combos: []Combo{{A: 0, B: -1, X: []float64{0.5, 0}}, {A: 0, B: 1, X: []float64{0, 0.25}}, {A: 1, B: -1, X: []float64{0.5, 0}}}}
	got := in.Effective(al, func(i int) []float64 { return in.Jobs[i].Thr })
	if math.Abs(got[0]-4.375) > 1e-12 || math.Abs(got[1]-1.625) > 1e-12 {
		t.Errorf("effective throughputs %v, want [4.375 1.625]", got)
	}
	// Each job's time per type adds its single and pair rows.
	rows := al.PerJob(2, 2)
	if rows[0][0] != 0.5 || rows[0][1] != 0.25 || rows[1][0] != 0.5 || rows[1][1] != 0.25 {
		t.Errorf("per-job time %v, want [[0.5 0.25] [0.5 0.25]]", rows)
	}
}
