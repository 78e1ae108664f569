package ojpp

import (
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// SnapshotKind names OJPP's per-GPU snapshots in a run's output.
const SnapshotKind = "ojpp/gpus"

// Snapshot is the placement after one decision as the page's per-GPU view
// shows it: every GPU holding workers, with the planner's memory and
// collision figures (the ones its constraints bound) and each worker's
// slowdown under the true model (the one the run's rates use).
type Snapshot struct {
	GPUs []GPUState `json:"gpus"`
}

// GPUState is one GPU: its workers (one entry per worker, a job's siblings
// repeated), Memory M_k of Eq. 3 as the policy counts it (Σγ plus the
// largest peak, of PeakJob), the collision probability Tau, and Theta, the
// worst true worker slowdown on it. Capacity is 1.
type GPUState struct {
	GPU     int           `json:"gpu"`
	Workers []WorkerState `json:"workers"`
	Memory  float64       `json:"memory"`
	Peak    float64       `json:"peak"`
	PeakJob int           `json:"peak_job"`
	Tau     float64       `json:"tau"`
	Theta   float64       `json:"theta"`
}

// WorkerState is one worker: its job, memory base γ, peak δ with its
// probability p, and its true slowdown s_w = Interference + Collision
// (spec 002 §1.6), with each co-runner's matrix cell in From.
type WorkerState struct {
	Job          int         `json:"job"`
	Gamma        float64     `json:"gamma"`
	Delta        float64     `json:"delta"`
	P            float64     `json:"p"`
	Slowdown     float64     `json:"slowdown"`
	Interference float64     `json:"interference"`
	Collision    float64     `json:"collision"`
	From         []BlameCell `json:"from,omitempty"`
}

// BlameCell is the slowdown one co-runner's worker adds before composing.
type BlameCell struct {
	Job  int     `json:"job"`
	Cell float64 `json:"cell"`
}

// snapshot records the placement after a decision when it differs from the
// last one recorded.
func (o *Policy) snapshot(s *engine.State) error {
	if !s.Snapshotting() {
		return nil
	}
	pl := o.planFrom(s)
	var key strings.Builder
	for g := range pl.dev {
		for _, j := range pl.dev[g].w {
			key.WriteString(strconv.Itoa(int(j)))
			key.WriteByte(',')
		}
		key.WriteByte(';')
	}
	if key.String() == o.lastSnap {
		return nil
	}
	o.lastSnap = key.String()
	snap := Snapshot{GPUs: []GPUState{}}
	for g := range pl.dev {
		if ws := pl.dev[g].w; len(ws) > 0 {
			snap.GPUs = append(snap.GPUs, o.gpuState(s, pl, g, ws))
		}
	}
	return s.Snapshot(SnapshotKind, snap)
}

// gpuState describes device g holding workers ws.
func (o *Policy) gpuState(s *engine.State, pl *planner, g int, ws []workload.JobID) GPUState {
	st := GPUState{GPU: g, Memory: pl.memory(ws), Tau: pl.tau(ws), PeakJob: -1}
	base, bestPeak := 0.0, -1.0
	residents := s.JobsOn(cluster.GPUID(g))
	for i, j := range ws {
		in := &pl.info[j]
		base += in.gamma
		peak := in.delta
		if pl.sync {
			peak *= float64(count(ws, j))
		}
		if firstIndex(ws, j) == i && peak > bestPeak {
			bestPeak, st.PeakJob = peak, int(j)
		}
		inter, coll, from := o.truth.WorkerBreakdown(s, j, residents)
		w := WorkerState{Job: int(j), Gamma: in.gamma, Delta: in.delta, P: in.p,
			Slowdown: inter + coll, Interference: inter, Collision: coll}
		for _, b := range from {
			w.From = append(w.From, BlameCell{Job: int(b.Job), Cell: b.Cell})
		}
		st.Theta = max(st.Theta, w.Slowdown)
		st.Workers = append(st.Workers, w)
	}
	st.Peak = st.Memory - base
	return st
}
