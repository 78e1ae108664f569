package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Notices are what the author of a valid scenario should hear but what
// does not stop it from running, each at the JSON path it is about (the
// CLI prints them as warnings, the page beside the field):
//
//   - a generator that makes jobs bigger than the cluster. Only some of
//     its jobs are concerned and which ones depends on the seed; the run
//     reports them unschedulable, and the conformance suite makes such
//     jobs on purpose to test that path, so refusing the scenario would be
//     wrong. The first seed's jobs are checked when the workload is small
//     enough to be built at parse time (dryBuildJobs).
//   - a short model name (under four letters) that is not known but close
//     to a known one ("bet", "vgg"): too short to refuse as a typo (see
//     nearMiss), yet it silently makes a model of the scenario's own.
//
// Listed jobs bigger than the cluster and longer near-miss names are
// problems, not notices (see checkNames).
func (sc *Scenario) Notices() []schema.Problem {
	return append([]schema.Problem(nil), sc.notices...)
}

// capNotices keeps the first schema.MaxProblems notices and counts the rest.
func capNotices(ps []schema.Problem) []schema.Problem {
	if len(ps) <= schema.MaxProblems {
		return ps
	}
	more := len(ps) - schema.MaxProblems
	return append(ps[:schema.MaxProblems:schema.MaxProblems], schema.Problem{Msg: fmt.Sprintf("... and %d more notices", more)})
}

// nameNotices finds the short model names that resemble a known one.
func (sc *Scenario) nameNotices() []schema.Problem {
	var ps []schema.Problem
	models := sc.modelVocabulary()
	for i, j := range sc.Workload.Jobs {
		ps = append(ps, shortName(schema.Index("workload.jobs", i)+".model", j.Model, models)...)
	}
	if p, ok := sc.genParams.(*workload.PoissonParams); ok {
		for i, m := range p.Models {
			ps = append(ps, shortName(schema.Index("workload.generator.models", i)+".model", m.Model, models)...)
		}
	}
	return ps
}

// shortName notes a name under four letters that is not known but is a
// known one in other case, one edit from a known one of three letters or
// more, or the start of a known one ("vgg" of "vgg19"). One- and
// two-letter names are often labels of one's own ("a", "m1"), so they are
// noted only when they equal a known name but for case.
func shortName(path, name string, known []string) []schema.Problem {
	if name == "" || len(name) >= 4 || slices.Contains(known, name) {
		return nil
	}
	near := ""
	for _, k := range known {
		if strings.EqualFold(k, name) {
			near = k
			break
		}
	}
	if near == "" && len(name) == 3 {
		near = schema.Nearest(name, known)
		if near == "" {
			near = shortestWithPrefix(name, known)
		}
	}
	if near == "" {
		return nil
	}
	return []schema.Problem{{Path: path, Msg: fmt.Sprintf(
		"%q is not a known model; did you mean %q? As it is, it runs as a model of its own", name, near)}}
}

// shortestWithPrefix is the shortest known name that starts with prefix,
// ignoring case; among equals, one that starts with it in the same case.
func shortestWithPrefix(prefix string, known []string) string {
	best := ""
	for _, k := range known {
		if len(k) <= len(prefix) || !strings.EqualFold(k[:len(prefix)], prefix) {
			continue
		}
		if best == "" || len(k) < len(best) || len(k) == len(best) && strings.HasPrefix(k, prefix) && !strings.HasPrefix(best, prefix) {
			best = k
		}
	}
	return best
}

// oversizeNotice notes the generated jobs of one seed that ask for more
// GPUs than the cluster has (of their GPU type when they name one).
func (sc *Scenario) oversizeNotice(jobs []workload.Job, seed uint64) []schema.Problem {
	if sc.generator == nil {
		return nil // listed jobs are refused at their fields
	}
	n, largest := 0, 0
	var have int64
	for k := range jobs {
		j := &jobs[k]
		if total, ok := sc.gpusOf(j.GPUType); ok && int64(j.GPUs) > total {
			n++
			if j.GPUs > largest {
				largest, have = j.GPUs, total
			}
		}
	}
	if n == 0 {
		return nil
	}
	return []schema.Problem{{Path: "workload.generator", Msg: fmt.Sprintf(
		"makes %d of %d jobs (seed %d) bigger than the cluster, up to %d GPUs where it has %s: they can never run and are reported unschedulable; give the cluster more GPUs or the generator smaller jobs",
		n, len(jobs), seed, largest, group(have))}}
}

// gpusOf is the number of GPUs of gpuType in the cluster (of every type
// when gpuType is ""); ok is false when a server group's size is not
// valid, so the total is unknown.
func (sc *Scenario) gpusOf(gpuType string) (total int64, ok bool) {
	for _, g := range sc.Cluster.Servers {
		if g.Count < 1 || g.GPUs < 1 {
			return 0, false
		}
		if gpuType == "" || strings.EqualFold(g.GPUType, gpuType) {
			total = satAdd(total, satMul(int64(g.Count), int64(g.GPUs)))
		}
	}
	return total, true
}
