package engine

import (
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
)

// splitLog keeps, for models that split iteration times into parts
// (perf.Splitter, e.g. ring_allreduce), each job's current split, the
// split summed over the iterations it did, and the servers it ran on; the
// job records then carry the mean split and the servers. Other models
// leave it empty, so their records do not change.
type splitLog struct {
	m       perf.Splitter
	now     []perf.IterSplit
	sum     []perf.IterSplit
	servers [][]cluster.ServerID
}

func newSplitLog(m perf.Model, jobs int) *splitLog {
	sp, ok := perf.As[perf.Splitter](m)
	if !ok {
		return nil
	}
	return &splitLog{m: sp, now: make([]perf.IterSplit, jobs), sum: make([]perf.IterSplit, jobs), servers: make([][]cluster.ServerID, jobs)}
}

// progressed adds work iterations at the job's current split.
func (l *splitLog) progressed(j int, work float64) {
	if l != nil && work > 0 {
		l.sum[j].AddScaled(l.now[j], work)
	}
}

// placed notes the servers of a job's new GPUs.
func (l *splitLog) placed(c *cluster.Cluster, j int, gpus []cluster.GPUID) {
	if l != nil { // no splits (the usual model): a start calls nothing
		l.place(c, j, gpus)
	}
}

func (l *splitLog) place(c *cluster.Cluster, j int, gpus []cluster.GPUID) {
	for _, srv := range perf.Servers(c, gpus) {
		if i, found := slices.BinarySearch(l.servers[j], srv); !found {
			l.servers[j] = slices.Insert(l.servers[j], i, srv)
		}
	}
}

// update asks the model for the job's split at its current placement.
func (l *splitLog) update(s *State, j int) {
	if l != nil {
		l.now[j] = l.m.IterSplit(s, s.jobs[j].ID)
	}
}

// records returns each job's servers and mean split.
func (l *splitLog) records(js []jobRec) []JobSplit {
	if l == nil {
		return nil
	}
	out := make([]JobSplit, len(js))
	for j := range out {
		out[j].Servers = l.servers[j]
		if done := js[j].done; done > 0 {
			mean := perf.IterSplit{}
			mean.AddScaled(l.sum[j], 1/done)
			out[j].Split = &mean
		}
	}
	return out
}
