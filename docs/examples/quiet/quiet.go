// Package quiet starts jobs in arrival order (with backfilling) on a
// placement of its own: the filters every placement has (GPU type and
// rate, free memory), then the servers whose jobs would slow it down least
// (Interference), the fullest first among equals (BestFit). It is the
// placement example of docs/policies.md: a policy that implements
// engine.Policy itself.
package quiet

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

var place = policy.NewPlacement(policy.PlacementSpec{
	Name:   "quiet",
	Scores: []policy.Score{policy.Interference{}, policy.BestFit{}},
})

type quiet struct{ waits policy.WaitNotes }

// Options asks for exclusive GPUs and a decision at each arrival and
// completion.
func (q *quiet) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion)}
}

// Decide starts every waiting job the placement finds GPUs for, oldest
// first, and notes once why each other one waits.
func (q *quiet) Decide(s *engine.State, _ []engine.Trigger) error {
	var err error
	s.EachPending(func(id workload.JobID) bool {
		req := policy.RequestFor(s, id)
		if gpus := place.Pick(req); gpus != nil {
			q.waits.Clear(id)
			err = s.Start(id, gpus, engine.ActionOptions{})
		} else {
			q.waits.Note(s, id, "Quiet", func() string { return place.WhyNot(req) })
		}
		return err == nil && s.FreeGPUs() > 0
	})
	return err
}

func init() {
	policy.Register(policy.Family[policy.NoParams]{
		Name: "example-quiet", Title: "Quiet", Paper: "docs/policies.md",
		Doc: "First come, first served with backfilling, each job on the server whose jobs slow it down least.",
		New: func(policy.NoParams) (engine.Policy, error) { return &quiet{}, nil },
	})
}
