package policy_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// probe runs one decision at t=0 on a cluster where the given GPUs are
// already taken, and hands the state to check.
func probe(t *testing.T, spec cluster.Spec, taken []cluster.GPUID, check func(s *engine.State)) {
	t.Helper()
	c, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	jobs := []workload.Job{{Name: "filler", GPUs: max(len(taken), 1), DurationS: 10, Model: "m"}, {Name: "probe", GPUs: 1, DurationS: 10, Model: "m"}}
	jobs, _ = workload.Finalize(jobs)
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p := &decider{fn: func(s *engine.State) error {
		if len(taken) > 0 {
			if err := s.Start(0, taken, engine.ActionOptions{}); err != nil {
				return err
			}
		}
		check(s)
		if len(taken) == 0 { // let the run end
			if err := s.Start(0, policy.Consolidated(s, 1, "", 0, false), engine.ActionOptions{}); err != nil {
				return err
			}
		}
		return s.Start(1, policy.Consolidated(s, 1, "", 0, false), engine.ActionOptions{})
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
	if d.done {
		return nil
	}
	d.done = true
	return d.fn(s)
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
			probe(t, four, taken, func(s *engine.State) {
				got := policy.Consolidated(s, tc.n, "", 0, tc.bestFit)
				if len(got) != tc.n {
					t.Fatalf("got %d GPUs, want %d", len(got), tc.n)
				}
				srv := servers(s, got)
				if len(srv) != len(tc.want) {
					t.Fatalf("servers %v, want %v", srv, tc.want)
				}
				for _, id := range tc.want {
					found := false
					for _, x := range srv {
						found = found || x == id
					}
					if !found {
						t.Fatalf("servers %v, want %v", srv, tc.want)
					}
				}
			})
		})
	}
	probe(t, four, taken, func(s *engine.State) {
		if got := policy.Consolidated(s, 9, "", 0, false); got != nil {
			t.Errorf("9 of 8 free GPUs: got %v", got)
		}
	})
}

func TestConsolidatedTypesAndMemory(t *testing.T) {
	mixed := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 2, GPUType: "K80", GPUMemoryGB: 12},
		{Count: 1, GPUs: 4, GPUType: "V100", GPUMemoryGB: 32},
	}}
	probe(t, mixed, nil, func(s *engine.State) {
		if got := policy.Consolidated(s, 2, "K80", 0, false); len(got) != 2 || s.Cluster().GPUs[got[0]].Type != "K80" {
			t.Errorf("K80 pick %v", got)
		}
		if got := policy.Consolidated(s, 3, "", 0, false); len(got) != 3 || s.Cluster().GPUs[got[0]].Type != "V100" {
			t.Errorf("a 3-GPU job must stay on one type: %v", got)
		}
		if got := policy.Consolidated(s, 1, "", 20, false); len(got) != 1 || s.Cluster().GPUs[got[0]].Type != "V100" {
			t.Errorf("20 GB fits only a V100: %v", got)
		}
		if got := policy.Consolidated(s, 3, "K80", 0, false); got != nil {
			t.Errorf("3 K80s do not exist: %v", got)
		}
	})
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
