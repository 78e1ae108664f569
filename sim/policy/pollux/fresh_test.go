package pollux

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// longQueue is a queue far longer than the GPUs: jobs of the six models,
// of one to eight GPUs, some arriving at the same instant (ties on the
// arrival, broken by the id), so that rounds have tens of jobs waiting;
// the first round gives every GPU to a job that never ran.
func longQueue(seed uint64, n int) []workload.Job {
	rng := rand.New(rand.NewPCG(seed, 3))
	models := []string{"cifar10", "ncf", "imagenet", "deepspeech2", "yolov3", "bert"}
	var jobs []workload.Job
	at := 0.0
	for i := range n {
		if i > 20 && rng.IntN(3) > 0 { // the first 20 together, more than the GPUs
			at += float64(rng.IntN(90)) + rng.Float64()
		}
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: models[rng.IntN(len(models))],
			GPUs: 1 << rng.IntN(4), DurationS: float64(200 + rng.IntN(4000)), ArrivalS: at})
	}
	return jobs
}

// countingPollux counts the rounds at which fresh left waiting jobs out.
// With rng, it also preempts a running job at random after some rounds,
// filing it as Pollux files the jobs it preempts, so that jobs that ran
// before wait among those that never ran (Pollux itself rarely leaves a
// running job without GPUs).
type countingPollux struct {
	*pollux
	rng         *rand.Rand
	rounds, cut int
	ranWaiting  int // rounds with a waiting job that ran before
}

func (c *countingPollux) Decide(s *engine.State, triggers []engine.Trigger) error {
	round := c.roundDue(s, triggers)
	active := s.NumRunning() + s.NumPending()
	if err := c.pollux.Decide(s, triggers); err != nil {
		return err
	}
	if round && c.rng != nil && s.NumRunning() > 0 && c.rng.IntN(3) == 0 {
		id := s.Running()[c.rng.IntN(s.NumRunning())]
		if err := s.Preempt(id); err != nil {
			return err
		}
		c.ran.file(s, id)
	}
	if round {
		for _, id := range s.Pending() {
			if s.Info(id).Starts > 0 {
				c.ranWaiting++
				break
			}
		}
		c.rounds++
		if len(c.jobs) < active {
			c.cut++
		}
	}
	return nil
}

// Leaving out the waiting jobs that never ran and cannot get a GPU (fresh)
// changes nothing: every job's record is the same, to the bit, as when
// every waiting job takes part in every round. Checked with the restart
// penalty (the costs of one GPU differ by arrival), without it (they are
// all equal, so only the tie-breaks decide), with restart_s 0, on servers
// of two memory sizes, and with a cap on the GPUs per request; in one run
// of each, running jobs are also preempted at random.
func TestFreshChangesNothing(t *testing.T) {
	uniform := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	mixed := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11},
		{Count: 1, GPUs: 2, GPUType: "V100", GPUMemoryGB: 32}}}
	variants := []struct {
		name string
		spec cluster.Spec
		set  func(*Params)
	}{
		{"defaults", uniform, func(*Params) {}},
		{"no restart penalty", uniform, func(p *Params) { p.RestartPenalty = false }},
		{"restart_s 0", uniform, func(p *Params) { p.RestartS = 0 }},
		{"mixed memory", mixed, func(*Params) {}},
		{"max_gpu_factor", uniform, func(p *Params) { p.MaxGPUFactor = 1; p.GrowthFactor = 4 }},
	}
	preempted := 0 // rounds with a preempted job waiting, over every run
	for vi, v := range variants {
		for seed := range uint64(3) {
			jobs := longQueue(seed+uint64(10*vi), 150)
			p := defaults()
			v.set(&p)
			c := policytest.Cluster(t, v.spec)
			m, err := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
			if err != nil {
				t.Fatal(err)
			}
			var rngAll, rngSome *rand.Rand
			if seed == 2 {
				rngAll, rngSome = rand.New(rand.NewPCG(seed, 9)), rand.New(rand.NewPCG(seed, 9))
			}
			all := policytest.Run(t, c, m, &countingPollux{pollux: &pollux{p: p, everyWaiting: true}, rng: rngAll}, jobs)
			w := &countingPollux{pollux: &pollux{p: p}, rng: rngSome}
			some := policytest.Run(t, c, m, w, jobs)
			if w.cut < 20 {
				t.Fatalf("%s, seed %d: %d of %d rounds left waiting jobs out: the queue never grew long", v.name, seed, w.cut, w.rounds)
			}
			preempted += w.ranWaiting
			if !reflect.DeepEqual(all.Jobs, some.Jobs) {
				for i := range all.Jobs {
					if !reflect.DeepEqual(all.Jobs[i], some.Jobs[i]) {
						t.Fatalf("%s, seed %d: job %s: with every waiting job %+v, with fresh %+v", v.name, seed, all.Jobs[i].Name, all.Jobs[i], some.Jobs[i])
					}
				}
				t.Fatalf("%s, seed %d: the records differ", v.name, seed)
			}
		}
	}
	if preempted < 50 {
		t.Errorf("%d rounds with a preempted job waiting: the jobs that ran before were hardly tried", preempted)
	}
}

// The heap of candidates holds the n best (least cost, then earliest),
// whatever order they come in.
func TestCandidatesKeepTheBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 200 {
		n := rng.IntN(6)
		var all []candidate
		var h candidates
		for i := range 1 + rng.IntN(30) {
			c := candidate{cost: float64(rng.IntN(5)), id: workload.JobID(i)}
			all = append(all, c)
			h = h.push(c, n)
		}
		// The n best by selection.
		var want []candidate
		for range min(n, len(all)) {
			b := -1
			for i, c := range all {
				if c.id >= 0 && (b < 0 || all[b].worse(c)) {
					b = i
				}
			}
			want = append(want, all[b])
			all[b].id = -1
		}
		got := map[workload.JobID]bool{}
		for _, c := range h {
			got[c.id] = true
		}
		for _, c := range want {
			if !got[c.id] || len(h) != len(want) {
				t.Fatalf("trial %d: kept %v, want %v", trial, h, want)
			}
		}
	}
}

// lowest bounds the cost of one GPU of every job at most as old as the
// one it is asked about, with or without the restart penalty, at ages
// near powers of two, where age + restart_s rounds.
func TestLowestBoundsYoungerJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, penalty := range []bool{true, false} {
		for _, delay := range []float64{0, 30, 0.1} {
			p := &pollux{p: defaults()}
			p.p.RestartPenalty, p.p.RestartS = penalty, delay
			scale := 0.25
			for range 20000 {
				age := math.Ldexp(1+rng.Float64()*1e-9, rng.IntN(60)-5)
				if rng.IntN(4) == 0 {
					age = float64(rng.IntN(1000))
				}
				restart := func(a float64) float64 {
					if !penalty {
						return 1
					}
					return factor(a, 0, delay)
				}
				low := p.lowest(&active{restart: restart(age)}, scale)
				for _, younger := range []float64{age, math.Nextafter(age, 0), age * (1 - 1e-15), age / 2, 0} {
					if c := term(scale * restart(younger)); c < low {
						t.Fatalf("penalty %v, restart_s %v: age %v costs %v, below the bound %v for age %v", penalty, delay, younger, c, low, age)
					}
				}
			}
		}
	}
}
