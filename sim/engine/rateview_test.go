package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// sharer starts each pending job on random GPUs, up to two jobs a GPU,
// and at every decision checks RateView against the methods it stands
// for, for every job (not arrived, pending, running, finished).
type sharer struct {
	t                    *testing.T
	r                    *rand.Rand
	checked, alone, busy *int
}

func (p sharer) Options() Options { return Options{MaxJobsPerGPU: 2} }

func (p sharer) Decide(s *State, _ []Trigger) error {
	for id := range workload.JobID(s.NumJobs()) {
		c, j, gpus, alone := s.RateView(id)
		want := s.Placement(id).GPUs
		wantAlone := true
		for _, g := range want {
			wantAlone = wantAlone && s.NumJobsOn(g) == 1
		}
		if c != s.Cluster() || j != s.Job(id) || !slices.Equal(gpus, want) || (gpus == nil) != (want == nil) || alone != wantAlone {
			p.t.Fatalf("t=%v, job %d: RateView gives %p %p %v %v, want %p %p %v %v", s.Now(), id, c, j, gpus, alone, s.Cluster(), s.Job(id), want, wantAlone)
		}
		*p.checked++
		if len(gpus) > 0 && alone {
			*p.alone++
		} else if len(gpus) > 0 {
			*p.busy++
		}
	}
	for _, id := range s.Pending() {
		n := s.Job(id).GPUs
		limit := 1 + p.r.IntN(2) // half the jobs only on free GPUs
		var gpus []cluster.GPUID
		for _, g := range p.r.Perm(s.Cluster().NumGPUs()) {
			if len(gpus) < n && s.NumJobsOn(cluster.GPUID(g)) < limit {
				gpus = append(gpus, cluster.GPUID(g))
			}
		}
		if len(gpus) == n {
			if err := s.Start(id, gpus, ActionOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestRateViewIsTheMethods: RateView answers what Cluster, Job,
// Placement and NumJobsOn answer, on GPUs held by one job and by two.
func TestRateViewIsTheMethods(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 64}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 9))
	var in []workload.Job
	for i := range 60 {
		in = append(in, workload.Job{Name: "j" + string(rune('a'+i%26)) + string(rune('a'+i/26)), ArrivalS: float64(r.IntN(2000)),
			GPUs: []int{1, 1, 2, 4}[r.IntN(4)], DurationS: float64(100 + r.IntN(1000)), Model: "m", MemoryGB: 4})
	}
	jobs, err := workload.Finalize(in)
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	checked, alone, busy := 0, 0, 0
	p := sharer{t: t, r: r, checked: &checked, alone: &alone, busy: &busy}
	if _, err := Run(context.Background(), Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p}); err != nil {
		t.Fatal(err)
	}
	if alone < 20 || busy < 100 {
		t.Fatalf("%d checks, only %d of a job alone and %d of a job sharing", checked, alone, busy)
	}
}
