package policy

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// A Placement chooses the free GPUs a job starts on, alone: the
// "where" of a scheduler, kept apart from the "who first" (its queue
// order). Each is a named choice (see PlacementNames) that any policy
// starting whole jobs on free GPUs can offer through PlacementParams;
// a new rule (packing by matching, interference-aware) plugs in as one
// more entry of placementChoices.
type Placement interface {
	// Pick returns r.GPUs free GPUs for the job, or nil when it must wait.
	Pick(s *engine.State, r Request) []cluster.GPUID
	// WhyNot says, for the decision log, why Pick returned nil, e.g. "6
	// GPUs free but no server has 4".
	WhyNot(s *engine.State, r Request) string
}

// Request is what a placement needs to know about a job.
type Request struct {
	GPUs     int
	GPUType  string  // "" lets the placement choose one type
	MemoryGB float64 // per GPU; 0 when memory is not modelled
	// BestFit puts a job that fits on one server on the fullest server
	// that still holds it, which keeps large holes for large jobs.
	BestFit bool
	// Types, when not nil, are the only GPU types the job can run on (see
	// RunsOn); a placement chooses among them when GPUType is "".
	Types []string
}

// RequestFor describes job id at its full batch, with the GPU types it can
// run on when it cannot run on every type of the cluster.
func RequestFor(s *engine.State, id workload.JobID, bestFit bool) Request {
	job := s.Job(id)
	return Request{GPUs: job.GPUs, GPUType: job.GPUType, MemoryGB: s.MemoryGB(id, 0), BestFit: bestFit, Types: RunsOn(s, job)}
}

// RunsOn returns the GPU types of the cluster job runs on at its size under
// the policy's believed model, or nil when that is every type (or the
// model does not say, as only a table of throughputs per type does): in
// Gavel's table, for one, a 2-GPU ResNet-50 has no throughput on K80s, and
// a job started there never progresses.
func RunsOn(s *engine.State, job *workload.Job) []string {
	tp, ok := perf.As[perf.Throughputs](s.Perf()) // a wrapper's factors slow a job down, they never make it run
	if !ok {
		return nil
	}
	types := s.Cluster().Types()
	var out []string
	for _, t := range types {
		if tp.SoloThroughput(job, t) > 0 {
			out = append(out, t)
		}
	}
	if len(out) == len(types) {
		return nil
	}
	return out
}

// bestOfTypes runs pick on each of types and keeps the placement on the
// fewest servers, the first type on a tie, as Consolidated does over all
// types.
func bestOfTypes(s *engine.State, types []string, pick func(t string) []cluster.GPUID) []cluster.GPUID {
	var best []cluster.GPUID
	bestServers := 0
	for _, t := range types {
		if g := pick(t); g != nil {
			if k := s.Cluster().ServersSpanned(g); best == nil || k < bestServers {
				best, bestServers = g, k
			}
		}
	}
	return best
}

// placementChoices lists the placements by name, in the order the
// documentation shows them; the first is the default.
var placementChoices = []struct {
	name string
	p    Placement
}{
	{"consolidated", consolidated{}},
	{"strict", strict{}},
}

// PlacementNames lists the placements a policy may be given.
func PlacementNames() []string {
	out := make([]string, len(placementChoices))
	for i, c := range placementChoices {
		out[i] = c.name
	}
	return out
}

// DefaultPlacement is the placement a policy uses unless told otherwise.
const DefaultPlacement = "consolidated"

// PlacementByName returns the named placement; "" is the default.
func PlacementByName(name string) (Placement, error) {
	if name == "" {
		name = DefaultPlacement
	}
	for _, c := range placementChoices {
		if c.name == name {
			return c.p, nil
		}
	}
	return nil, fmt.Errorf("placement: must be one of %s, got %q", strings.Join(PlacementNames(), ", "), name)
}

// PlacementParams is the placement knob, embedded in the parameters of
// every policy that starts whole jobs on free GPUs, so that all of them
// describe and check it the same way. Its enum tag must list
// PlacementNames (a test keeps them in step).
type PlacementParams struct {
	Placement string `json:"placement" enum:"consolidated,strict" help:"where a job's GPUs go. consolidated: on as few servers as possible, but spread over several when no one server has room, so a job never waits while enough GPUs are free somewhere. strict (Tiresias' simulator, 'yarn'): a job that fits on one server waits until one server has room for all of it, and a larger job takes whole free servers (the rest on one more) or waits; jobs then wait when the free GPUs are scattered over servers (fragmentation), but never run split over more servers than they need"`
}

// DefaultPlacementParams returns the default placement knob.
func DefaultPlacementParams() PlacementParams { return PlacementParams{Placement: DefaultPlacement} }

// consolidated is schedlab's historical placement: Consolidated.
type consolidated struct{}

func (consolidated) Pick(s *engine.State, r Request) []cluster.GPUID {
	if r.Types != nil && r.GPUType == "" {
		return bestOfTypes(s, r.Types, func(t string) []cluster.GPUID {
			return Consolidated(s, r.GPUs, t, r.MemoryGB, r.BestFit)
		})
	}
	return Consolidated(s, r.GPUs, r.GPUType, r.MemoryGB, r.BestFit)
}

func (consolidated) WhyNot(s *engine.State, r Request) string {
	free, _ := freeStats(s, r)
	return tooFew(s, r, free)
}

// tooFew says that fewer GPUs than the job needs are free.
func tooFew(s *engine.State, r Request, free int) string {
	if r.GPUType == "" && len(s.Cluster().Types()) > 1 {
		return fmt.Sprintf("needs %d %s of one type, at most %d free of any type", r.GPUs, gpuWords(r), free)
	}
	return fmt.Sprintf("needs %d %s, %d free", r.GPUs, gpuWords(r), free)
}

// freeStats counts the free GPUs the job could use (of its type, with its
// memory) and the most of them on one server, over the type with the
// most when the job has none.
func freeStats(s *engine.State, r Request) (free, onOne int) {
	c := s.Cluster()
	fits := fitsFree(s, r.MemoryGB)
	for _, t := range c.Types() {
		if r.GPUType != "" && t != r.GPUType {
			continue
		}
		n := 0
		for _, id := range c.ServersOfType(t) {
			k := countFree(&c.Servers[id], fits)
			n += k
			onOne = max(onOne, k)
		}
		free = max(free, n)
	}
	return free, onOne
}

// gpuWords names the GPUs a request asks for: "GPUs", "V100 GPUs",
// "GPUs with 20 GB free".
func gpuWords(r Request) string {
	w := "GPUs"
	if r.GPUType != "" {
		w = r.GPUType + " GPUs"
	}
	if r.MemoryGB > 0 {
		w += fmt.Sprintf(" with %.3g GB free", r.MemoryGB)
	}
	return w
}

// fitsFree reports whether a GPU holds no job and has mem GB free.
func fitsFree(s *engine.State, mem float64) func(cluster.GPUID) bool {
	return func(g cluster.GPUID) bool {
		return s.NumJobsOn(g) == 0 && (mem == 0 || s.MemoryFreeGB(g) >= mem)
	}
}

func countFree(srv *cluster.Server, fits func(cluster.GPUID) bool) int {
	n := 0
	for i := 0; i < srv.NumGPUs; i++ {
		if fits(srv.FirstGPU + cluster.GPUID(i)) {
			n++
		}
	}
	return n
}

// WaitNotes writes why a job waits into the decision log once per wait,
// not at every event where the scheduler tries it again, which would
// flood the log during a long wait.
type WaitNotes struct{ noted []bool }

// Note logs "<who>: <job> waits: <why>" unless this wait is already
// explained; why is only computed when the entry is written.
func (w *WaitNotes) Note(s *engine.State, id workload.JobID, who string, why func() string) {
	if len(w.noted) < s.NumJobs() {
		w.noted = append(w.noted, make([]bool, s.NumJobs()-len(w.noted))...)
	}
	if w.noted[id] || !s.Logging() {
		return
	}
	w.noted[id] = true
	s.Log(id, "%s: %s waits: %s", who, s.Job(id).Name, why())
}

// Clear ends job id's wait (it started), so that a later wait is logged.
func (w *WaitNotes) Clear(id workload.JobID) {
	if int(id) < len(w.noted) {
		w.noted[id] = false
	}
}
