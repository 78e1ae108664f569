package policy_test

import (
	"context"
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// once calls fn at the first decision of a run, then starts nothing.
type once struct{ fn func(s *engine.State) error }

func (o *once) Options() engine.Options { return engine.Options{} }
func (o *once) Decide(s *engine.State, _ []engine.Trigger) error {
	if o.fn == nil {
		return nil
	}
	fn := o.fn
	o.fn = nil
	return fn(s)
}

// Where does a 2-GPU job of 14 GB per GPU go on three 4-GPU servers
// (two with 16 GB V100s, one with 12 GB K80s), when 3 GPUs of server 0
// and 1 of server 1 are taken? Consolidated placement takes the emptiest
// server that passes its filters; strict placement says the same here,
// and refuses server 0 by its shape. The explanation gives every server's
// row.
func ExamplePlacement_Explain() {
	c, _ := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16},
		{Count: 1, GPUs: 4, GPUType: "K80", GPUMemoryGB: 12},
	}})
	jobs, _ := workload.Finalize([]workload.Job{
		{Name: "others", GPUs: 4, DurationS: 60, Model: "m"},
		{Name: "new", GPUs: 2, DurationS: 60, Model: "m", MemoryGB: 14},
	})
	m := perf.NewConstant(perf.ConstantParams{})
	_ = m.Prepare(c, jobs)
	explain := func(s *engine.State) error {
		if err := s.Start(0, []cluster.GPUID{0, 1, 2, 4}, engine.ActionOptions{}); err != nil {
			return err
		}
		for _, name := range policy.PlacementNames() {
			p, _ := policy.PlacementByName(name)
			fmt.Println(p.Explain(policy.RequestFor(s, 1)))
		}
		return s.Start(1, []cluster.GPUID{5, 6}, engine.ActionOptions{})
	}
	_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: &once{fn: explain}})
	fmt.Println(err)
	// Output:
	// consolidated placement of job 1 (2 GPUs, 14 GB each): GPUs [5 6]
	//   server 0 (V100, 1 free, 1 usable): passes; fewest-servers 1
	//   server 1 (V100, 3 free, 3 usable): passes; fewest-servers 3; takes 2
	//   server 2 (K80, 4 free, 0 usable): refused by free-memory: 4 GPUs free, none with 14 GB free
	// strict placement of job 1 (2 GPUs, 14 GB each): GPUs [5 6]
	//   server 0 (V100, 1 free, 1 usable): refused by strict-shape: 1 GPU usable; strict placement keeps the job's 2 on one server
	//   server 1 (V100, 3 free, 3 usable): passes; takes 2
	//   server 2 (K80, 4 free, 0 usable): refused by free-memory: 4 GPUs free, none with 14 GB free
	// <nil>
}
