package tesserae

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/tesserae/migrate"
	"github.com/schedlab/schedlab/sim/workload"
)

// apply turns the final plan into engine actions: preempt the running
// jobs it leaves out, move the running jobs whose GPUs changed, start
// the others. Moves go in an order where each target has room; a cycle of
// moves between full GPUs is broken by stopping one job of it and
// starting it on its new GPUs afterwards, charged the migration cost
// (counted as a forced restart).
func (t *placer) apply(s *engine.State, prev, final migrate.Plan) error {
	c := s.Cluster()
	want := map[workload.JobID][]cluster.GPUID{}
	var order []workload.JobID
	for n := range final.Nodes {
		for g, js := range final.Nodes[n] {
			for _, id := range js {
				if _, ok := want[id]; !ok {
					order = append(order, id)
				}
				want[id] = append(want[id], c.Servers[n].FirstGPU+cluster.GPUID(g))
			}
		}
	}
	for _, id := range s.Running() {
		if _, ok := want[id]; !ok {
			if err := s.Preempt(id); err != nil {
				return err
			}
			if s.Telling() {
				s.TellWhy(id, "round %d: the plan leaves it out; jobs ahead of it in the order (%s) take the GPUs", t.rounds, t.orderWords())
			}
			t.preempted = append(t.preempted, id)
		}
	}
	var moves, starts []workload.JobID
	for _, id := range order {
		switch {
		case s.Status(id) == engine.Pending:
			starts = append(starts, id)
		case !same(s.GPUsOf(id), want[id]):
			moves = append(moves, id)
		}
	}
	mig := engine.ActionOptions{OverheadS: t.p.MigrationS, NoOverhead: t.p.MigrationS == 0}
	var stopped []workload.JobID
	for len(moves) > 0 {
		var left []workload.JobID
		for _, id := range moves {
			err := s.Migrate(id, want[id], mig)
			var ae *engine.ActionError
			if errors.As(err, &ae) {
				left = append(left, id)
				continue
			}
			if err != nil {
				return err
			}
			if s.Telling() {
				s.TellWhy(id, "round %d: the plan is renamed GPU by GPU so that few running jobs move, and this one moves to make room", t.rounds)
			}
			t.migrated++
		}
		if len(left) == len(moves) { // a cycle: stop one, start it later
			if err := s.Preempt(left[0]); err != nil {
				return err
			}
			stopped = append(stopped, left[0])
			if s.Logging() {
				s.Log(left[0], "round %d: %s stops and restarts on its new GPUs: its move is part of a cycle between full GPUs", t.rounds, s.Job(left[0]).Name)
			}
			left = left[1:]
			t.forced++
		}
		moves = left
	}
	for _, id := range stopped {
		if err := s.Start(id, want[id], mig); err != nil {
			return err
		}
		if s.Telling() {
			s.TellWhy(id, "round %d: it restarts on its new GPUs, its move being part of a cycle between full GPUs", t.rounds)
		}
	}
	restart := engine.ActionOptions{OverheadS: t.p.RestartS, NoOverhead: t.p.RestartS == 0}
	for _, id := range starts {
		o := restart
		if s.Info(id).Starts == 0 {
			o = engine.ActionOptions{} // a first start costs the engine's first_start_s
		}
		if err := s.Start(id, want[id], o); err != nil {
			return err
		}
		if s.Telling() {
			t.tellStart(s, id, want[id])
		}
	}
	return nil
}

// tellStart says why the round's plan starts job id on gpus: its place in
// the order, and whether it shares them.
func (t *placer) tellStart(s *engine.State, id workload.JobID, gpus []cluster.GPUID) {
	shares := false
	for _, g := range gpus {
		shares = shares || s.NumJobsOn(g) > 1
	}
	how := "GPUs of its own"
	if shares {
		how = "GPUs it shares with a placed job: the pair's throughput makes sharing worth it"
	}
	rank := "-"
	if int(id) < len(t.rank) {
		rank = fmt.Sprint(t.rank[id] + 1)
	}
	s.TellWhy(id, "round %d: number %s in the order (%s), the plan gives it %s", t.rounds, rank, t.orderWords(), how)
}

// orderWords names the scheduling order in plain words.
func (t *placer) orderWords() string {
	switch t.p.Order {
	case "las":
		return "least attained GPU-time first"
	case "ftf":
		return "furthest behind its fair finish time first"
	case "fifo":
		return "arrival order"
	}
	return t.p.Order
}

func same(a, b []cluster.GPUID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
