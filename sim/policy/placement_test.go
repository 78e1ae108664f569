package policy_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// probe runs one decision at t=0 on a cluster where the given GPUs are
// already taken, and hands the state to check with the IDs of the jobs
// asked about (each 10 s long; a 1-GPU job when none is given). Later
// decisions start whatever fits, so that the run ends.
func probe(t *testing.T, spec cluster.Spec, taken []cluster.GPUID, check func(s *engine.State, ids []workload.JobID), asked ...workload.Job) {
	t.Helper()
	probeWith(t, spec, perf.NewConstant(perf.ConstantParams{}), taken, check, asked...)
}

// probeWith is probe under perf model m.
func probeWith(t *testing.T, spec cluster.Spec, m perf.Model, taken []cluster.GPUID, check func(s *engine.State, ids []workload.JobID), asked ...workload.Job) {
	t.Helper()
	c, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) == 0 {
		asked = []workload.Job{{GPUs: 1}}
	}
	filler := workload.Job{Name: "filler", GPUs: max(len(taken), 1), DurationS: 10, Model: "m"}
	if asked[0].Model != "" { // a model the perf model knows
		filler.Model, filler.BatchSize = asked[0].Model, asked[0].BatchSize
	}
	jobs := []workload.Job{filler}
	var ids []workload.JobID
	for i, j := range asked {
		j.Name, j.DurationS = fmt.Sprintf("probe%d", i), 10
		if j.Model == "" {
			j.Model = "m"
		}
		jobs = append(jobs, j)
		ids = append(ids, workload.JobID(i+1))
	}
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := perf.Prepare(m, c, jobs); err != nil {
		t.Fatal(err)
	}
	p := &decider{fn: func(s *engine.State) error {
		if len(taken) > 0 {
			if err := s.Start(0, taken, engine.ActionOptions{}); err != nil {
				return err
			}
		}
		check(s, ids)
		return nil
	}}
	if _, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p}); err != nil {
		t.Fatal(err)
	}
}

type decider struct {
	fn   func(s *engine.State) error
	done bool
}

func (d *decider) Options() engine.Options { return engine.Options{} }
func (d *decider) Decide(s *engine.State, _ []engine.Trigger) error {
	if !d.done {
		d.done = true
		if err := d.fn(s); err != nil {
			return err
		}
	}
	place, _ := policy.PlacementByName("consolidated")
	var err error
	s.EachPending(func(id workload.JobID) bool {
		if gpus := place.Pick(policy.RequestFor(s, id)); gpus != nil {
			err = s.Start(id, gpus, engine.ActionOptions{})
		}
		return err == nil
	})
	return err
}

func servers(s *engine.State, gpus []cluster.GPUID) []cluster.ServerID {
	var out []cluster.ServerID
	for _, g := range gpus {
		id := s.Cluster().GPUs[g].Server
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
	}
	return out
}

// placeWith picks for job id with the named preset, with best fit if
// asked.
func placeWith(t *testing.T, s *engine.State, name string, bestFit bool, id workload.JobID) []cluster.GPUID {
	t.Helper()
	p, err := policy.PlacementParams{Placement: name}.Build(bestFit)
	if err != nil {
		t.Fatal(err)
	}
	return p.Pick(policy.RequestFor(s, id))
}

func TestConsolidated(t *testing.T) {
	four := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 3, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16}}}
	// Server 0 has 1 free GPU, server 1 has 3, server 2 has 4.
	taken := []cluster.GPUID{0, 1, 2, 4}
	cases := []struct {
		name    string
		n       int
		bestFit bool
		want    []cluster.ServerID
	}{
		{"emptiest server first", 2, false, []cluster.ServerID{2}},
		{"best fit keeps the empty server", 2, true, []cluster.ServerID{1}},
		{"best fit, exact", 1, true, []cluster.ServerID{0}},
		{"spans as few servers as possible", 7, false, []cluster.ServerID{1, 2}},
		{"all free GPUs", 8, false, []cluster.ServerID{0, 1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			probe(t, four, taken, func(s *engine.State, ids []workload.JobID) {
				got := placeWith(t, s, "consolidated", tc.bestFit, ids[0])
				if len(got) != tc.n {
					t.Fatalf("got %d GPUs, want %d", len(got), tc.n)
				}
				if srv := servers(s, got); !sameServers(srv, tc.want) {
					t.Fatalf("servers %v, want %v", srv, tc.want)
				}
			}, workload.Job{GPUs: tc.n})
		})
	}
	probe(t, four, taken, func(s *engine.State, ids []workload.JobID) {
		if got := placeWith(t, s, "consolidated", false, ids[0]); got != nil {
			t.Errorf("9 of 8 free GPUs: got %v", got)
		}
	}, workload.Job{GPUs: 9})
}

// sameServers says whether got and want hold the same servers.
func sameServers(got, want []cluster.ServerID) bool {
	if len(got) != len(want) {
		return false
	}
	for _, id := range want {
		if !slices.Contains(got, id) {
			return false
		}
	}
	return true
}

func TestConsolidatedTypesAndMemory(t *testing.T) {
	mixed := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 2, GPUType: "K80", GPUMemoryGB: 12},
		{Count: 1, GPUs: 4, GPUType: "V100", GPUMemoryGB: 32},
	}}
	probe(t, mixed, nil, func(s *engine.State, ids []workload.JobID) {
		if got := placeWith(t, s, "consolidated", false, ids[0]); len(got) != 2 || s.Cluster().GPUs[got[0]].Type != "K80" {
			t.Errorf("K80 pick %v", got)
		}
		if got := placeWith(t, s, "consolidated", false, ids[1]); len(got) != 3 || s.Cluster().GPUs[got[0]].Type != "V100" {
			t.Errorf("a 3-GPU job must stay on one type: %v", got)
		}
		if got := placeWith(t, s, "consolidated", false, ids[2]); len(got) != 1 || s.Cluster().GPUs[got[0]].Type != "V100" {
			t.Errorf("20 GB fits only a V100: %v", got)
		}
		if got := placeWith(t, s, "consolidated", false, ids[3]); got != nil {
			t.Errorf("3 K80s do not exist: %v", got)
		}
	}, workload.Job{GPUs: 2, GPUType: "K80"}, workload.Job{GPUs: 3}, workload.Job{GPUs: 1, MemoryGB: 20}, workload.Job{GPUs: 3, GPUType: "K80"})
}

// PickInto writes into the scratch slice it is given and picks what Pick
// picks. Three types, tried in name order, compete for a 3-GPU job of no
// type: the As need two servers, the Bs one (they win), the Cs two
// again; the Bs' pick must survive the Cs' try, which reuses an array.
// By hand: the B server's GPUs are 4 to 7.
func TestPickIntoKeepsTheBestType(t *testing.T) {
	three := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 2, GPUs: 2, GPUType: "A"},
		{Count: 1, GPUs: 4, GPUType: "B"},
		{Count: 2, GPUs: 2, GPUType: "C"},
	}}
	for _, name := range policy.PlacementNames() {
		probe(t, three, nil, func(s *engine.State, ids []workload.JobID) {
			p, err := policy.PlacementParams{Placement: name}.Build(false)
			if err != nil {
				t.Fatal(err)
			}
			want := []cluster.GPUID{4, 5, 6}
			if got := p.Pick(policy.RequestFor(s, ids[0])); !slices.Equal(got, want) {
				t.Errorf("%s: Pick gives %v, want %v", name, got, want)
			}
			scratch := []cluster.GPUID{9, 9, 9, 9, 9, 9, 9, 9}
			if got := p.PickInto(scratch, policy.RequestFor(s, ids[0])); !slices.Equal(got, want) {
				t.Errorf("%s: PickInto gives %v, want %v", name, got, want)
			}
		}, workload.Job{GPUs: 3})
	}
}

func TestSizeQueuesBestFitsAndOrders(t *testing.T) {
	q := policy.NewSizeQueues()
	q.Push(1, 8, 5)
	q.Push(2, 1, 9)
	q.Push(3, 2, 3)
	q.Push(4, 1, 1)
	if id, size, _, _ := q.Best(100); id != 4 || size != 1 {
		t.Fatalf("best overall %d/%d", id, size)
	}
	if id, _, _, _ := q.Best(2); id != 4 {
		t.Fatalf("best of size <= 2: %d", id)
	}
	q.Pop(1)
	if id, _, key, _ := q.Best(2); id != 3 || key != 3 {
		t.Fatalf("after pop: %d (key %v)", id, key)
	}
	if _, _, _, ok := q.Best(0); ok {
		t.Fatal("nothing needs 0 GPUs")
	}
	if q.Len() != 3 {
		t.Fatalf("len %d", q.Len())
	}
}

// scatterer starts its pending jobs on free GPUs drawn at random, so
// that servers are left with every count of free GPUs in every slot
// pattern, and before each decision asks, for every pending job, that
// PickInto's direct case (the emptiest server on a cluster of one type)
// gives the GPUs consolidatedPick gives.
type scatterer struct {
	t      *testing.T
	r      *rand.Rand
	place  *policy.Placement
	checks int
	direct int // of them, jobs the direct case placed
}

func (d *scatterer) Options() engine.Options { return engine.Options{} }
func (d *scatterer) Decide(s *engine.State, _ []engine.Trigger) error {
	s.EachPending(func(id workload.JobID) bool {
		req := policy.RequestFor(s, id)
		got, want := d.place.PickInto(nil, req), policy.GeneralPick(d.place, req)
		if !slices.Equal(got, want) {
			d.t.Fatalf("at %g job %d (%d GPUs): PickInto %v, consolidated %v", s.Now(), id, req.GPUs(), got, want)
		}
		d.checks++
		if policy.EmptiestPlaces(s, req.GPUs()) {
			d.direct++
		}
		return true
	})
	var err error
	s.EachPending(func(id workload.JobID) bool {
		var free []cluster.GPUID
		for _, srv := range s.Cluster().Servers {
			mask, _ := s.FreeSlots(srv.ID)
			for i := 0; i < srv.NumGPUs; i++ {
				if mask&(1<<i) != 0 {
					free = append(free, srv.FirstGPU+cluster.GPUID(i))
				}
			}
		}
		n := s.Job(id).GPUs
		if len(free) < n || d.r.IntN(4) == 0 {
			return true
		}
		d.r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		err = s.Start(id, free[:n], engine.ActionOptions{})
		return err == nil
	})
	return err
}

func TestEmptiestPickAgreesWithConsolidated(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 6, GPUs: 8, GPUType: "V100", GPUMemoryGB: 32}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 7))
	var jobs []workload.Job
	for i := range 400 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: "m", ArrivalS: float64(i * 60),
			GPUs: []int{1, 1, 2, 3, 4, 5, 8, 12}[r.IntN(8)], DurationS: float64(60 + r.IntN(3000))})
	}
	if jobs, err = workload.Finalize(jobs); err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := perf.Prepare(m, c, jobs); err != nil {
		t.Fatal(err)
	}
	place, _ := policy.PlacementByName("consolidated")
	d := &scatterer{t: t, r: r, place: place}
	if _, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: d}); err != nil {
		t.Fatal(err)
	}
	if d.checks < 1000 || d.direct < 200 {
		t.Fatalf("%d picks compared, %d of them by the direct case", d.checks, d.direct)
	}
}
