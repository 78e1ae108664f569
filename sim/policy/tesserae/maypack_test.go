package tesserae

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// A round whose waiting jobs cannot pack (models the pair table lacks, or
// multi-GPU jobs under packing single) skips the matching, and decides
// exactly as when it runs the matching: the same records, intervals and
// decision log, on a queue where some rounds have jobs that may pack
// waiting (the table's models) and others do not (a model it lacks).
func TestSkippedMatchingDecidesTheSame(t *testing.T) {
	jobs := overloaded(300, 16, 5)
	for i := range jobs {
		if i%3 != 0 || i > 200 {
			jobs[i].Model = "imagenet" // not in Blox's table
		}
	}
	for _, v := range variants {
		p := DefaultParams()
		v.set(&p)
		if p.Packing == "none" {
			continue
		}
		run := func(every bool) (*engine.Result, *placer) {
			pol, err := New(p)
			if err != nil {
				t.Fatal(err)
			}
			pl := pol.(*placer)
			pl.packEvery = every
			return policytest.Run(t, policytest.Servers(t, 4, 4, "A100", 0), bloxModel(t), pol, jobs, policytest.FullLog()).Result, pl
		}
		skip, ps := run(false)
		every, pe := run(true)
		if !reflect.DeepEqual(skip.Jobs, every.Jobs) || !reflect.DeepEqual(skip.Intervals, every.Intervals) || !reflect.DeepEqual(logLines(skip), logLines(every)) {
			t.Errorf("%s: skipping the matching changed the decisions", v.name)
		}
		if ps.skipped == 0 || ps.skipped == ps.rounds || pe.skipped != 0 || ps.pairs == 0 {
			t.Errorf("%s: %d of %d rounds skipped the matching, %d pairs (the other run skipped %d): the queue does not test both cases",
				v.name, ps.skipped, ps.rounds, ps.pairs, pe.skipped)
		}
	}
}

// mayPack: a model the table lacks never packs, nor a multi-GPU job under
// packing single; pair_rates perf may pack any job.
func TestMayPack(t *testing.T) {
	jobs := []workload.Job{{Name: "a", Model: "resnet50", GPUs: 1, DurationS: 10}, {Name: "b", Model: "imagenet", GPUs: 1, DurationS: 10},
		{Name: "c", Model: "resnet50", GPUs: 2, DurationS: 10}}
	for _, tc := range []struct {
		packing, rates string
		want           []bool
	}{
		{"all", "", []bool{true, false, true}},
		{"single", "", []bool{true, false, false}},
		{"all", "perf", []bool{true, true, true}},
	} {
		p := DefaultParams()
		p.Packing, p.PairRates = tc.packing, tc.rates
		pol, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		pl := pol.(*placer)
		var got []bool
		probe := &probe{Policy: pol, fn: func(s *engine.State) {
			if got == nil {
				for id := range jobs {
					got = append(got, pl.mayPack(s, workload.JobID(id)))
				}
			}
		}}
		policytest.Run(t, policytest.Servers(t, 1, 4, "A100", 0), bloxModel(t), probe, jobs)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("packing %s, pair_rates %q: mayPack %v, want %v", tc.packing, tc.rates, got, tc.want)
		}
	}
}

// probe calls fn before each decision of the policy it wraps.
type probe struct {
	engine.Policy
	fn func(*engine.State)
}

func (p *probe) Decide(s *engine.State, tr []engine.Trigger) error {
	p.fn(s)
	return p.Policy.Decide(s, tr)
}
