package engine

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// placedModel is crowdedModel declared perf.PlacementRated (its rate
// depends on the neighbours on a job's GPUs alone), scaled by scale,
// counting its queries.
type placedModel struct {
	crowdedModel
	scale float64
	calls *int
}

func (m *placedModel) Rate(s perf.State, id workload.JobID) float64 {
	*m.calls++
	return m.scale * m.crowdedModel.Rate(s, id)
}

func (*placedModel) RateByPlacement() bool { return true }

// plainModel is the same model not declared PlacementRated: the engine
// asks it at every recompute, as before BelievedRate kept answers.
type plainModel struct{ m *placedModel }

func (m plainModel) Rate(s perf.State, id workload.JobID) float64 { return m.m.Rate(s, id) }
func (plainModel) Coupling() perf.Coupling                        { return perf.SharedGPU }

// asker is sharer that also asks BelievedRate of random running jobs
// before it starts, stops and moves jobs (answers those actions make
// stale) and after (answers the recompute may read).
type asker struct {
	sharer
	r *rand.Rand
}

func (p asker) ask(s *State) {
	for _, id := range slices.Clone(s.Running()) {
		if p.r.IntN(2) == 0 {
			if r := s.BelievedRate(id); !(r > 0) {
				p.t.Fatalf("t=%v: job %d's believed rate %v", s.Now(), id, r)
			}
		}
	}
}

func (p asker) Decide(s *State, tr []Trigger) error {
	p.ask(s)
	if err := p.sharer.Decide(s, tr); err != nil {
		return err
	}
	p.ask(s)
	return nil
}

// TestBelievedRateKeptSameAsAsked: a run whose recomputes read the rates
// BelievedRate kept (the true model, declared PlacementRated, is the
// believed one) decides and records what a run that asks the model at
// every recompute does, under a model whose rates depend on the
// neighbours, with jobs sharing, leaving and moving between the
// questions; kept answers are read (fewer queries); and a believed model
// other than the true one is never read for it.
func TestBelievedRateKeptSameAsAsked(t *testing.T) {
	c, jobs, m := sharerBed(t, rand.New(rand.NewPCG(5, 8)), 80, 3000, nil)
	for seed := range uint64(6) {
		for _, other := range []bool{false, true} {
			var res [2]*Result
			var calls [2]int
			for k, plain := range []bool{false, true} {
				checked, alone, busy := 0, 0, 0
				p := asker{sharer{t: t, r: rand.New(rand.NewPCG(seed, 1)), checked: &checked, alone: &alone, busy: &busy, copies: seed%2 == 1},
					rand.New(rand.NewPCG(seed, 2))}
				pm := &placedModel{crowdedModel{m}, 1, &calls[k]}
				cfg := Config{Cluster: c, Jobs: jobs, Perf: pm, Policy: p, Paranoid: true}
				if plain {
					cfg.Perf = plainModel{pm}
				}
				if other {
					n := 0
					cfg.Believed = &placedModel{crowdedModel{m}, 2, &n} // another object, other rates
				}
				var err error
				res[k], err = Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("seed %d, other believed %v: the kept rates changed the run", seed, other)
			}
			if other && calls[0] != calls[1] {
				t.Fatalf("seed %d: %d queries of the true model, %d asked at every recompute: a believed model's answer was kept", seed, calls[0], calls[1])
			}
			if !other && calls[0] >= calls[1] {
				t.Fatalf("seed %d: %d queries with answers kept, %d without: none read", seed, calls[0], calls[1])
			}
		}
	}
}
