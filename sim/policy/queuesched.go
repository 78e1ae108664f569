package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// QueueScheduler is a non-preemptive scheduler with exclusive GPUs and gang
// scheduling: at each arrival and completion it starts pending jobs in
// order of a key, each on a consolidated set of free GPUs. With Backfill,
// a job that does not fit is skipped and later ones may start; without it,
// the first job that does not fit blocks the queue.
type QueueScheduler struct {
	Name      string
	Key       func(s *engine.State, id workload.JobID) float64
	KeyName   string // what the key means, for the decision log
	KeyIsTime bool   // the key is a time or duration in seconds
	Backfill  bool
	BestFit   bool

	q *SizeQueues
}

// Options implements engine.Policy.
func (p *QueueScheduler) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion)}
}

// Decide implements engine.Policy.
func (p *QueueScheduler) Decide(s *engine.State, triggers []engine.Trigger) error {
	if p.q == nil {
		p.q = NewSizeQueues()
	}
	for _, t := range triggers {
		if t.Kind == engine.Arrival {
			p.q.Push(t.Job, s.Job(t.Job).GPUs, p.Key(s, t.Job))
		}
	}
	var blocked []blockedJob
	for s.FreeGPUs() > 0 && p.q.Len() > 0 {
		limit := s.FreeGPUs()
		if !p.Backfill {
			limit = int(^uint(0) >> 1)
		}
		id, size, key, ok := p.q.Best(limit)
		if !ok {
			break
		}
		if size > s.FreeGPUs() {
			break // strict order: the head waits, and so does everyone behind it
		}
		job := s.Job(id)
		gpus := Consolidated(s, size, job.GPUType, s.MemoryGB(id, 0), p.BestFit)
		p.q.Pop(size)
		if gpus == nil {
			blocked = append(blocked, blockedJob{id, size, key})
			if !p.Backfill {
				break
			}
			continue
		}
		if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil {
			return err
		}
		s.Log(id, "%s: started %s on %s; %s %s, waited %s",
			p.Name, job.Name, describeGPUs(s.Cluster(), gpus), p.KeyName, p.fmtKey(key), fmtSeconds(s.Now()-job.ArrivalS))
	}
	for _, b := range blocked {
		p.q.Push(b.id, b.size, b.key)
	}
	return nil
}

type blockedJob struct {
	id   workload.JobID
	size int
	key  float64
}

// describeGPUs names a GPU set briefly, e.g. "4 GPUs on server 2".
func describeGPUs(c *cluster.Cluster, gpus []cluster.GPUID) string {
	n := c.ServersSpanned(gpus)
	first := c.GPUs[gpus[0]].Server
	switch {
	case len(gpus) == 1:
		return fmt.Sprintf("GPU %d (server %d)", gpus[0], first)
	case n == 1:
		return fmt.Sprintf("%d GPUs on server %d", len(gpus), first)
	}
	return fmt.Sprintf("%d GPUs on %d servers", len(gpus), n)
}

func (p *QueueScheduler) fmtKey(k float64) string {
	if p.KeyIsTime {
		return fmtSeconds(k)
	}
	return fmt.Sprintf("%.6g", k)
}

// fmtSeconds writes a time as every decision log and the page do:
// 4.5 s, 42 s, 12.5 min, 3.20 h, 2.1 d.
func fmtSeconds(s float64) string { return results.Duration(s) }
