package perf

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// countingState is fakeState with the engine's NumJobsOn, so that the
// bound model's shortcut for GPUs holding one job is taken.
type countingState struct{ *fakeState }

func (c countingState) NumJobsOn(g cluster.GPUID) int { return len(c.JobsOn(g)) }

// viewingState is fakeState with the engine's RateView, so that the bound
// model reads a query's placement in one call.
type viewingState struct{ *fakeState }

func (v viewingState) RateView(id workload.JobID) (*cluster.Cluster, *workload.Job, []cluster.GPUID, bool) {
	gpus := v.Placement(id).GPUs
	return v.Cluster(), v.Job(id), gpus, alone(countingState(v), gpus)
}

// TestBoundThroughputSameRates checks the bound model's rates against the
// model's own, bit for bit, over random placements: jobs alone and in
// pairs, gangs over one or several types and servers, GPUs listed twice,
// more than two jobs on a GPU, scale factors other than the job's own, a
// type the table lacks, states whose jobs are not the bound run's
// (which must not leave their rows in the bound model's memo), and states
// that answer in one call (RateView), of the bound cluster or another.
func TestBoundThroughputSameRates(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 2, GPUs: 2, GPUType: "V100"}, {Count: 1, GPUs: 4, GPUType: "K80"},
		{Count: 2, GPUs: 1, GPUType: "P100"}, {Count: 1, GPUs: 2, GPUType: "T4"}}}
	c, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	twin2, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	zoo := workload.GavelZoo
	newJobs := func() []workload.Job {
		jobs := make([]workload.Job, 12)
		for i := range jobs {
			tm := zoo[rng.IntN(len(zoo))]
			jobs[i] = workload.Job{ID: workload.JobID(i), Name: tm.Model, Model: tm.Model, BatchSize: tm.BatchSize,
				GPUs: []int{1, 1, 2, 4}[rng.IntN(4)], Iterations: 1}
		}
		jobs[3].Model = "no such model"
		return jobs
	}
	for _, placement := range []string{"", "servers"} {
		m, err := NewThroughput(ThroughputParams{Placement: placement})
		if err != nil {
			t.Fatal(err)
		}
		jobs := newJobs()
		b := Bind(m, c, jobs)
		if _, ok := b.(*boundThroughput); !ok {
			t.Fatalf("Bind gave %T", b)
		}
		queries, solo, pairs := 0, 0, 0
		for round := 0; round < 400; round++ {
			own := &fakeState{c: c, jobs: jobs, at: map[workload.JobID][]cluster.GPUID{}}
			foreign := &fakeState{c: c, jobs: newJobs(), at: own.at} // other jobs, same ids
			for id := range jobs {
				if rng.IntN(4) == 0 {
					continue // not placed
				}
				n := jobs[id].GPUs
				if rng.IntN(8) == 0 {
					n = 1 + rng.IntN(4) // not its own scale factor
				}
				gpus := make([]cluster.GPUID, n)
				first := rng.IntN(c.NumGPUs())
				for k := range gpus {
					gpus[k] = cluster.GPUID((first + k) % c.NumGPUs())
					if rng.IntN(10) == 0 {
						gpus[k] = cluster.GPUID(rng.IntN(c.NumGPUs()))
					}
				}
				own.at[workload.JobID(id)] = gpus
			}
			twin := *own
			twin.c = twin2 // the same GPUs in another cluster: not the bound one
			states := []State{foreign, countingState{own}, own, countingState{foreign},
				viewingState{own}, viewingState{foreign}, viewingState{&twin}}
			for _, s := range states {
				for id := range jobs {
					got, want := b.Rate(s, workload.JobID(id)), m.Rate(s, workload.JobID(id))
					if got != want {
						t.Fatalf("placement %q, round %d, job %d on %v: bound rate %v, model's %v", placement, round, id, own.at[workload.JobID(id)], got, want)
					}
					queries++
					if got > 0 && len(s.JobsOn(own.at[workload.JobID(id)][0])) == 1 {
						solo++
					} else if got > 0 {
						pairs++
					}
				}
			}
		}
		if solo < 100 || pairs < 20 {
			t.Fatalf("placement %q: %d queries, only %d solo and %d pair rates above 0", placement, queries, solo, pairs)
		}
		checkBoundThroughputs(t, m, b.(*boundThroughput), jobs, newJobs(), rng)
	}
}

// checkBoundThroughputs compares the bound model's SoloThroughput and
// PairThroughput with the model's own, bit for bit: the run's jobs and
// copies or other jobs with the same ids (which must not be answered from
// the memo), the cluster's type names, other spellings of them and types
// the cluster or the table lacks.
func checkBoundThroughputs(t *testing.T, m *Throughput, b *boundThroughput, jobs, foreign []workload.Job, rng *rand.Rand) {
	t.Helper()
	types := []string{"V100", "K80", "P100", "T4", "v100", "k80", "A100", "", "Ｖ100"}
	pick := func() *workload.Job {
		switch rng.IntN(3) {
		case 0:
			return &foreign[rng.IntN(len(foreign))]
		case 1:
			c := jobs[rng.IntN(len(jobs))] // a copy: not the run's record
			c.GPUs = 1 + rng.IntN(4)
			return &c
		}
		return &jobs[rng.IntN(len(jobs))]
	}
	positive := 0
	for range 4000 {
		x, y, typ := pick(), pick(), types[rng.IntN(len(types))]
		if got, want := b.SoloThroughput(x, typ), m.SoloThroughput(x, typ); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("SoloThroughput(%+v, %q): bound %v, model's %v", *x, typ, got, want)
		}
		ga, gb := b.PairThroughput(x, y, typ)
		wa, wb := m.PairThroughput(x, y, typ)
		if math.Float64bits(ga) != math.Float64bits(wa) || math.Float64bits(gb) != math.Float64bits(wb) {
			t.Fatalf("PairThroughput(%+v, %+v, %q): bound %v, %v, model's %v, %v", *x, *y, typ, ga, gb, wa, wb)
		}
		if ga > 0 {
			positive++
		}
	}
	if positive < 100 {
		t.Fatalf("only %d pair throughputs above 0", positive)
	}
}

// TestBindComposite binds a Composite's base and keeps its factors; a
// model that is no Binder comes back as it is.
func TestBindComposite(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 2, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewThroughput(ThroughputParams{})
	if err != nil {
		t.Fatal(err)
	}
	factors := []Factor{NewInterference(InterferenceSpec{})}
	b, ok := Bind(&Composite{Base: m, Factors: factors}, c, nil).(*Composite)
	if !ok || len(b.Factors) != 1 {
		t.Fatalf("bound composite %#v", b)
	}
	if _, ok := b.Base.(*boundThroughput); !ok {
		t.Fatalf("base bound to %T", b.Base)
	}
	if _, ok := b.Base.(Throughputs); !ok {
		t.Fatal("the bound model lost the Throughputs interface")
	}
	if got, ok := As[*Throughput](b); !ok || got != m {
		t.Fatalf("As[*Throughput] of the bound composite: %v, %v", got, ok)
	}
	k := NewConstant(ConstantParams{})
	if Bind(k, c, nil) != Model(k) {
		t.Fatal("a model that is no Binder was replaced")
	}
}
