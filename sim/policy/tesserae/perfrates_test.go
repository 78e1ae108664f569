package tesserae

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// runMemShare runs jobs of OJPP's memshare types, none of them in Blox's
// table, on one 4-GPU server of 11 GB, invariants checked at every change.
func runMemShare(t *testing.T, p Params, jobs []workload.Job) (*placer, *engine.Result) {
	t.Helper()
	m, err := perf.NewMemShare(*perf.DefaultMemShareParams())
	if err != nil {
		t.Fatal(err)
	}
	pol, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return pol.(*placer), policytest.Run(t, policytest.Servers(t, 1, 4, "1080Ti", 11), m, pol, jobs).Result
}

func memShareJobs() []workload.Job {
	var jobs []workload.Job
	for i, model := range []string{"CNN", "LeNet", "CNN", "AlexNet", "CNN", "LSTM", "CNN", "LeNet"} {
		jobs = append(jobs, workload.Job{Name: "m" + string(rune('a'+i)), Model: model, GPUs: 1})
	}
	return jobs
}

// With Blox's table Tesserae finds no pair among models it never
// measured; with pair_rates perf it packs the same jobs, and each pair's
// normalised throughputs are the memshare model's 1/ξ.
func TestPerfPairRatesPackOutsideBlox(t *testing.T) {
	blox, _ := runMemShare(t, DefaultParams(), memShareJobs())
	if blox.pairs != 0 {
		t.Fatalf("Blox's table packed %d pairs of models it does not know", blox.pairs)
	}
	p := DefaultParams()
	p.PairRates = "perf"
	pl, res := runMemShare(t, p, memShareJobs())
	if pl.pairs == 0 {
		t.Fatal("pair_rates perf packed nothing")
	}
	if len(res.Jobs) != 8 {
		t.Fatalf("%d jobs finished, want 8", len(res.Jobs))
	}
	m, _ := perf.NewMemShare(*perf.DefaultMemShareParams())
	a, b := &workload.Job{Model: "CNN", GPUs: 1}, &workload.Job{Model: "LeNet", GPUs: 1}
	ta, tb, ok := pl.perf.Pair(packKey(a), packKey(b), 1)
	if !ok {
		t.Fatal("no rate for CNN beside LeNet")
	}
	if wa, wb := 1/m.PairSlowdown(a, b), 1/m.PairSlowdown(b, a); math.Abs(ta-wa) > 1e-9 || math.Abs(tb-wb) > 1e-9 {
		t.Errorf("CNN+LeNet normalised throughputs %.6f, %.6f; want 1/ξ = %.6f, %.6f", ta, tb, wa, wb)
	}
	if _, _, ok := pl.perf.Pair(packKey(a), "GPT/b0/g1", 1); ok {
		t.Error("a key no job has must have no rate")
	}
}

// pair_rates perf replaces Blox's table, so the knobs that alter that
// table are refused with it, by name.
func TestPerfPairRatesRefusesTableKnobs(t *testing.T) {
	for _, set := range []func(*Params){
		func(p *Params) { p.Noise = 0.1 },
		func(p *Params) { p.Profile = "linear" },
		func(p *Params) { p.PairRates = "measured" },
	} {
		p := DefaultParams()
		p.PairRates = "perf"
		set(&p)
		if _, err := New(p); err == nil || !strings.HasPrefix(err.Error(), "pair_rates: ") {
			t.Errorf("%+v: error %v, want one naming pair_rates", p, err)
		}
	}
}
