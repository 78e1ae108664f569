package perf

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// ConstantParams configure the constant-duration model.
type ConstantParams struct {
	TypeSpeed []TypeSpeed `json:"type_speed,omitempty" help:"speed of each GPU type relative to the reference type (1); unlisted types run at 1"`
}

// TypeSpeed is the relative speed of one GPU type.
type TypeSpeed struct {
	GPUType string  `json:"gpu_type"`
	Speed   float64 `json:"speed" min:"0.000001" max:"1000" help:"how many times faster than the reference type"`
}

// Constant is the simplest base model: a job alone on its GPUs finishes in
// exactly its duration_s, whatever its placement; on a GPU type with speed
// k it runs k times faster. A job with only duration_s runs one iteration
// per second; with iterations too, iterations/duration_s per second.
type Constant struct {
	speed map[string]float64
}

// NewConstant builds the constant model.
func NewConstant(p ConstantParams) *Constant {
	c := &Constant{speed: map[string]float64{}}
	for _, ts := range p.TypeSpeed {
		c.speed[ts.GPUType] = ts.Speed
	}
	return c
}

// Prepare gives every job iterations: its duration in seconds when it has
// none. A job without duration_s cannot be timed by this model.
func (c *Constant) Prepare(_ *cluster.Cluster, jobs []workload.Job) error {
	for i := range jobs {
		j := &jobs[i]
		if !(j.DurationS > 0) {
			return fmt.Errorf("job %s: the constant perf model needs duration_s", j.Name)
		}
		if j.Iterations == 0 {
			j.Iterations = j.DurationS
		}
	}
	return nil
}

// Rate implements Model. A gang on mixed GPU types runs at its slowest.
func (c *Constant) Rate(s State, id workload.JobID) float64 {
	j := s.Job(id)
	base := j.Iterations / j.DurationS
	if len(c.speed) == 0 {
		return base
	}
	cl := s.Cluster()
	slowest := 0.0
	for i, g := range s.Placement(id).GPUs {
		sp, ok := c.speed[cl.GPUs[g].Type]
		if !ok {
			sp = 1
		}
		if i == 0 || sp < slowest {
			slowest = sp
		}
	}
	return base * slowest
}

// Coupling implements Model.
func (c *Constant) Coupling() Coupling { return Independent }
