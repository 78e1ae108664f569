package sharing

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// describe names a GPU set briefly, e.g. "4 GPUs on server 2".
func describe(s *engine.State, gpus []cluster.GPUID) string {
	c := s.Cluster()
	n := c.ServersSpanned(gpus)
	switch {
	case len(gpus) == 1:
		// named as the Gantt chart's rows and the timeline's grid name it
		return fmt.Sprintf("GPU s%d/g%d", c.GPUs[gpus[0]].Server, c.GPUs[gpus[0]].Slot)
	case n == 1:
		return fmt.Sprintf("%d GPUs on server %d", len(gpus), c.GPUs[gpus[0]].Server)
	}
	return fmt.Sprintf("%d GPUs on %d servers", len(gpus), n)
}

// describeShared says where a job started and whom it shares with.
func describeShared(s *engine.State, id workload.JobID, gpus []cluster.GPUID) string {
	var partners []string
	shared := 0
	for _, g := range gpus {
		others := 0
		for _, r := range s.JobsOn(g) {
			if r == id {
				continue
			}
			others++
			if name := s.Job(r).Name; !containsString(partners, name) {
				partners = append(partners, name)
			}
		}
		if others > 0 {
			shared++
		}
	}
	if shared == 0 {
		return describe(s, gpus)
	}
	return fmt.Sprintf("%s, sharing %d of them with %s", describe(s, gpus), shared, strings.Join(partners, ", "))
}

func describeSub(batch, sub int) string {
	if sub <= 0 || sub >= batch {
		return ""
	}
	return fmt.Sprintf(", sub-batch %d of %d (%d accumulation steps)", sub, batch, Accumulation(batch, sub))
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fmtS prints seconds, in hours when long.
func fmtS(x float64) string {
	if x >= 3600 {
		return fmt.Sprintf("%.2f h", x/3600)
	}
	return fmt.Sprintf("%.1f s", x)
}
