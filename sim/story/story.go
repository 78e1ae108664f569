// Package story keeps the structured records of what happened to each job
// of a run and why, and tells one job's story from them: it arrived,
// waited because of what and behind whom, started where and why there,
// was preempted or moved and by whom, and finished.
//
// The engine records the facts (each start, preemption, move and resize,
// with its GPUs) and the policies that know why add reasons: the queue
// and priority schedulers of sim/policy say which job blocked the queue,
// which one skipped ahead by backfilling, and lay out each placement
// decision server by server (a Placement, as kube-scheduler-simulator
// shows a pod's filters and scores per node). Nothing is recorded unless
// a run asks for stories (engine.Config.Stories), so batch runs pay
// nothing for them.
package story

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Kind says what a Note records.
type Kind uint8

// The facts, recorded by the engine at each action.
const (
	// Start: the job started (or restarted) on GPUs.
	Start Kind = iota + 1
	// Preempt: the job was stopped, keeping its progress, and waits again.
	Preempt
	// Pause: the job was stopped until the policy's next round, which the
	// policy does not count as a preemption (a Gavel lease ending).
	Pause
	// Migrate: the running job moved to GPUs (as many as before).
	Migrate
	// Resize: the running job of an elastic policy now holds GPUs (a
	// different number).
	Resize
)

// The reasons, recorded by the policies that know them.
const (
	// Blocks: the job is first in the queue's order and cannot start:
	// it needs Need GPUs and Free are free (or, with Text, the placement
	// found no set of them). The queue keeps strict order, so no job
	// behind it starts: head-of-line blocking.
	Blocks Kind = iota + 16
	// Backfill: the job starts ahead of Other, which is earlier in the
	// queue's order but cannot start (it needs Need GPUs and Free are
	// free): backfilling lets later jobs use GPUs the first cannot.
	Backfill
	// Waits: the job's turn came with Free GPUs left for it and it needs
	// Need; the scheduler goes on to later jobs, which may take them.
	Waits
	// Unplaced: Free GPUs were enough for the job's Need, but the
	// placement found no set of them it accepts; Text says why and Table
	// lays the decision out.
	Unplaced
	// Placed: why the job started where it did: Key is its place in the
	// order ("arrived at 12.5 min", "priority 2") and Table the placement
	// decision, server by server.
	Placed
	// Evicted: why the job was preempted: Key is its place in the order
	// when the scheduler chose others before it.
	Evicted
	// Round: the job arrived between the policy's rounds, and the policy
	// decides who runs only at its rounds: Key names the policy and Text
	// says when the next round is.
	Round
	// Why: the policy's own reason, in Text, for what happened to the job
	// at this instant (a start, a stop, a move) or for its wait, from a
	// policy that does not lay its decisions out in tables.
	Why
)

var kindNames = map[Kind]string{
	Start: "start", Preempt: "preempt", Pause: "pause", Migrate: "migrate", Resize: "resize",
	Blocks: "blocks", Backfill: "backfill", Waits: "waits", Unplaced: "unplaced", Placed: "placed", Evicted: "evicted", Round: "round", Why: "why",
}

func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Fact reports whether the engine records notes of this kind (the policy
// records the others).
func (k Kind) Fact() bool { return k >= Start && k <= Resize }

// Note is one record: at time T, about job Job, something of Kind.
type Note struct {
	T    float64        `json:"t"`
	Job  workload.JobID `json:"job"`
	Kind Kind           `json:"kind"`
	// Other is the second job the note is about (the job a backfilled
	// one skipped ahead of), or -1.
	Other workload.JobID `json:"other"`
	// GPUs are the GPUs a fact's job holds after it (nil for Preempt
	// and Pause).
	GPUs []cluster.GPUID `json:"gpus,omitempty"`
	// Need and Free are the GPUs the job (Backfill: Other) needs and the
	// GPUs free when the decision was made.
	Need int `json:"need,omitempty"`
	Free int `json:"free,omitempty"`
	// Key is the job's place in the order, as the decision log says it.
	Key string `json:"key,omitempty"`
	// Text says why, in a short plain phrase (a placement's refusal).
	Text string `json:"text,omitempty"`
	// Table is the index of the note's placement decision in the run's
	// tables, or -1.
	Table int `json:"table"`
}

// Placement lays a placement decision out server by server, as
// kube-scheduler-simulator shows a pod's: for each server, the first
// filter that refused it and why, or else what each score gave it, and
// how many of the chosen GPUs are there.
type Placement struct {
	Placement string          `json:"placement"`
	Job       workload.JobID  `json:"job"`
	GPUs      int             `json:"gpus"`
	MemoryGB  float64         `json:"memory_gb,omitempty"` // per GPU; 0 when memory is not modelled
	Filters   []string        `json:"filters"`             // the filters' names, in the order they run
	Scores    []string        `json:"scores"`              // the scores' names, first deciding
	Servers   []ServerVerdict `json:"servers"`
	Chosen    []cluster.GPUID `json:"chosen"` // the GPUs picked; nil: the job waits
	Why       string          `json:"why,omitempty"`
}

// ServerVerdict is one server's row of a Placement.
type ServerVerdict struct {
	Server cluster.ServerID `json:"server"`
	Type   string           `json:"type"`
	Free   int              `json:"free"`   // GPUs holding no job
	Usable int              `json:"usable"` // free GPUs with the job's memory free
	Filter string           `json:"filter,omitempty"`
	Reason string           `json:"reason,omitempty"`
	// Scores holds one value per Placement.Scores, for a server no
	// filter refused.
	Scores []float64 `json:"scores,omitempty"`
	Taken  int       `json:"taken,omitempty"` // how many of Chosen are on this server
}

// String renders the decision as a plain-text table, one server a line.
func (e Placement) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s placement of job %d (%d GPUs", e.Placement, e.Job, e.GPUs)
	if e.MemoryGB > 0 {
		fmt.Fprintf(&b, ", %.3g GB each", e.MemoryGB)
	}
	b.WriteString("): ")
	if e.Chosen == nil {
		b.WriteString("waits: " + e.Why)
	} else {
		fmt.Fprintf(&b, "GPUs %v", e.Chosen)
	}
	for _, v := range e.Servers {
		fmt.Fprintf(&b, "\n  server %d (%s, %d free, %d usable): ", v.Server, v.Type, v.Free, v.Usable)
		if v.Filter != "" {
			fmt.Fprintf(&b, "refused by %s: %s", v.Filter, v.Reason)
			continue
		}
		parts := make([]string, len(v.Scores))
		for i, x := range v.Scores {
			parts[i] = fmt.Sprintf("%s %.4g", e.Scores[i], x)
		}
		b.WriteString("passes")
		if len(parts) > 0 {
			b.WriteString("; " + strings.Join(parts, ", "))
		}
		if v.Taken > 0 {
			fmt.Fprintf(&b, "; takes %d", v.Taken)
		}
	}
	return b.String()
}
