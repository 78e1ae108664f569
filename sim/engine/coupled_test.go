package engine

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// crowdedModel slows a job down by the number of other jobs on its
// GPUs: under SharedGPU, a rate left stale by a start or an end that
// should have marked it changes the run.
type crowdedModel struct{ perf.Model }

func (m crowdedModel) Rate(s perf.State, id workload.JobID) float64 {
	others := 0
	for _, g := range s.Placement(id).GPUs {
		others += len(s.JobsOn(g)) - 1
	}
	return m.Model.Rate(s, id) / float64(1+others)
}

func (crowdedModel) Coupling() perf.Coupling { return perf.SharedGPU }

// TestCoupledSkipsAloneSameAsPlain: a run that skips markCoupled for a
// job alone on its GPUs (coupled) decides and records what the plain
// path, which always looks, does, under a model whose rates depend on
// the neighbours; jobs share GPUs and leave them in every way (sharer),
// with and without copies of a GPU.
func TestCoupledSkipsAloneSameAsPlain(t *testing.T) {
	c, jobs, m := sharerBed(t, rand.New(rand.NewPCG(7, 3)), 80, 3000, nil)
	defer func() { markAlone = false }()
	for seed := range uint64(6) {
		for _, copies := range []bool{false, true} {
			var res [2]*Result
			alone := 0
			for k, plain := range []bool{false, true} {
				markAlone = plain
				checked, busy := 0, 0
				p := sharer{t: t, r: rand.New(rand.NewPCG(seed, 1)), checked: &checked, alone: &alone, busy: &busy, copies: copies}
				var err error
				res[k], err = Run(context.Background(), Config{Cluster: c, Jobs: jobs, Perf: crowdedModel{m}, Policy: p, Paranoid: true})
				if err != nil {
					t.Fatal(err)
				}
			}
			if alone == 0 {
				t.Fatalf("seed %d: no job ever held its GPUs alone", seed)
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("seed %d, copies %v: skipping jobs alone on their GPUs changed the run", seed, copies)
			}
		}
	}
}
