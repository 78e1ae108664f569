package policy

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// A Placement chooses the free GPUs a job starts on, alone: the "where"
// of a scheduler, kept apart from the "who first" (its queue order). As
// in the Kubernetes scheduler framework it is made of filters, which
// refuse the servers a job cannot use, and scores, which rank the servers
// left. Every placement has the GPU-type filter (the job's own type, and
// only types where the believed perf model gives it a rate above 0) and
// the free-memory filter; a preset adds its own (strict adds the strict
// shape). consolidated and strict are the named presets any policy can
// offer through PlacementParams; NewPlacement builds others.
//
// A placement works on a job (RequestFor), never on a bare GPU count, so
// the GPU-type filter cannot be left out.
type Placement struct {
	name   string
	strict bool     // the strict shape: one server, or whole servers and one more
	extra  []Filter // filters beyond GPU type, free memory and strict shape
	scores []Score  // rank the servers a job that fits on one may take
	order  freeOrder
}

// PlacementSpec describes a placement for NewPlacement.
type PlacementSpec struct {
	Name string
	// Strict adds the strict shape filter: a job that fits on one server
	// runs on one server or waits; a larger one takes whole free servers
	// and one more for the rest. Otherwise a job spreads over the
	// emptiest servers when no one server holds it.
	Strict bool
	// Filters refuse more servers, after the GPU-type and free-memory
	// filters every placement has.
	Filters []Filter
	// Scores rank the servers a job that fits on one server may take:
	// the highest first score wins, the next scores break its ties, then
	// the lowest server ID. None: the lowest server ID (first fit).
	Scores []Score
}

// NewPlacement builds a placement from filters and scores.
func NewPlacement(spec PlacementSpec) *Placement {
	p := &Placement{name: spec.Name, strict: spec.Strict, extra: spec.Filters, scores: spec.Scores}
	p.order = orderOf(p.scores)
	return p
}

// Name is the placement's name.
func (p *Placement) Name() string { return p.name }

// BestFit returns the placement with its one-server ranking replaced by
// best fit: a job that fits on one server goes to the fullest server that
// still holds it, which keeps large holes for large jobs.
func (p *Placement) BestFit() *Placement {
	q := *p
	q.scores = []Score{BestFit{}}
	q.order = orderOf(q.scores)
	return &q
}

// Filters lists the placement's filters in the order they run.
func (p *Placement) Filters() []Filter {
	fs := []Filter{GPUTypeFilter{}, FreeMemoryFilter{}}
	if p.strict {
		fs = append(fs, StrictShapeFilter{})
	}
	return append(fs, p.extra...)
}

// Scores lists the scores that rank the servers a one-server job may take.
func (p *Placement) Scores() []Score { return p.scores }

// Pick returns the GPUs job r starts on, or nil when it must wait.
func (p *Placement) Pick(r Request) []cluster.GPUID { return p.PickInto(nil, r) }

// PickInto is Pick writing the GPUs into dst's array when it has room
// (whatever dst held is overwritten), so that a scheduler that starts a
// job at every event and passes the same scratch slice allocates nothing
// per start: at a million jobs the small slices Pick allocated were a
// tenth of the engine's time, and more in WebAssembly, where allocation
// costs more. The result shares dst's array: it is valid until dst is
// used again.
func (p *Placement) PickInto(dst []cluster.GPUID, r Request) []cluster.GPUID {
	if p.strict {
		return strictPick(p, r, dst)
	}
	if p.order == mostFree && p.extra == nil && r.gpuType == "" && r.types == nil && r.mem == 0 && r.gpus > 0 {
		if gpus, ok := emptiestPick(r.s, r.gpus, dst); ok {
			return gpus
		}
	}
	return consolidatedPick(p, &r, dst) // by pointer: a request is ten words
}

// emptiestPick is consolidatedPick's usual case written directly: a job
// of no named type, with a rate on every type and no memory to check, on
// a cluster of one GPU type, under the emptiest-server order with no
// extra filter. It takes the lowest free slots of the server with the
// most free GPUs (the lowest ID on a tie) that holds the whole job, as
// pickOfType's first step does, without its calls, closures and type
// comparisons: about 270 instructions a start. It reports false when
// that step would not settle the pick (no server holds the job, several
// types, no slot masks), for consolidatedPick to decide; nil, true when
// too few GPUs are free, as consolidatedPick says.
func emptiestPick(s *engine.State, n int, dst []cluster.GPUID) ([]cluster.GPUID, bool) {
	if s.FreeGPUs() < n {
		return nil, true
	}
	c := s.Cluster()
	if len(c.Types()) != 1 {
		return nil, false
	}
	id, _, ok := s.EmptiestServer(n)
	if !ok {
		return nil, false
	}
	free, masks := s.FreeSlots(id)
	if !masks {
		return nil, false
	}
	first := c.Servers[id].FirstGPU
	out := gpuBuffer(dst, n)
	for ; free != 0 && len(out) < n; free &= free - 1 {
		out = append(out, first+cluster.GPUID(bits.TrailingZeros64(free)))
	}
	if len(out) < n {
		return nil, false
	}
	return out, true
}

// WhyNot says, for the decision log, why Pick returned nil, e.g. "6 GPUs
// free but no server has 4".
func (p *Placement) WhyNot(r Request) string {
	if p.strict {
		return strictWhyNot(r)
	}
	free, _ := freeStats(r)
	return tooFew(r, free)
}

// Request is what a placement knows of one job: how many GPUs it needs,
// of which types, and how much memory on each. It is made from the job
// (RequestFor, RequestAt), so that the GPU-type filter always applies.
type Request struct {
	s       *engine.State
	id      workload.JobID
	gpus    int
	gpuType string   // the job's own type; "" lets the placement choose
	mem     float64  // GB per GPU; 0 when memory is not modelled
	types   []string // the types it has a rate on (RunsOn); nil: every type
}

// RequestFor describes job id at its own GPU count and full batch.
func RequestFor(s *engine.State, id workload.JobID) Request {
	job := s.Job(id)
	return Request{s: s, id: id, gpus: job.GPUs, gpuType: job.GPUType, mem: s.MemoryGB(id, 0), types: RunsOn(s, job)}
}

// RequestAt describes job id on n GPUs, for policies that resize jobs
// (its GPU types are those it has a rate on at n GPUs).
func RequestAt(s *engine.State, id workload.JobID, n int) Request {
	r := RequestFor(s, id)
	if n != r.gpus {
		job := *s.Job(id)
		job.GPUs = n
		r.gpus, r.types = n, RunsOn(s, &job)
	}
	return r
}

// Job is the job the request is for.
func (r Request) Job() workload.JobID { return r.id }

// GPUs is how many GPUs it needs.
func (r Request) GPUs() int { return r.gpus }

// MemoryGB is the memory it needs on each GPU (0: not modelled).
func (r Request) MemoryGB() float64 { return r.mem }

// TypeOK is the GPU-type filter: whether the job may run on GPUs of type
// t, which must be its own type if it names one, and one the believed
// perf model gives it a rate above 0 on.
func (r Request) TypeOK(t string) bool {
	if r.gpuType != "" && t != r.gpuType {
		return false
	}
	if r.types == nil {
		return true
	}
	for _, x := range r.types {
		if x == t {
			return true
		}
	}
	return false
}

// Types lists the cluster's GPU types that pass the GPU-type filter, in
// the cluster's order.
func (r Request) Types() []string {
	var out []string
	for _, t := range r.s.Cluster().Types() {
		if r.TypeOK(t) {
			out = append(out, t)
		}
	}
	return out
}

// fitter tells the GPUs a job could take now: free, with its memory
// free. It is a small value, so that checking a GPU costs no call through
// a function value.
type fitter struct {
	s   *engine.State
	mem float64
}

func (f fitter) ok(g cluster.GPUID) bool {
	return f.s.NumJobsOn(g) == 0 && f.memOK(g)
}

// memOK is ok's memory test alone, for a GPU known to be free.
func (f fitter) memOK(g cluster.GPUID) bool { return f.mem == 0 || f.s.MemoryFreeGB(g) >= f.mem }

// fit is the job's fitter.
func (r *Request) fit() fitter { return fitter{r.s, r.mem} }

// RunsOn returns the GPU types of the cluster job runs on at its size under
// the policy's believed model, or nil when that is every type (or the
// model does not say, as only a table of throughputs per type does): in
// Gavel's table, for one, a 2-GPU ResNet-50 has no throughput on K80s, and
// a job started there never progresses.
func RunsOn(s *engine.State, job *workload.Job) []string {
	// a wrapper's factors slow a job down, they never make it run
	if _, ok := s.BelievedThroughputs(); ok {
		return runsOn(s, job)
	}
	return nil
}

// runsOn is RunsOn under a model with throughputs per type (apart, so
// that RunsOn inlines: most models have no such table).
func runsOn(s *engine.State, job *workload.Job) []string {
	tp, _ := s.BelievedThroughputs()
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

// bestOfTypes runs pick on each type the job may use and keeps the
// placement on the fewest servers, the first type on a tie. pick writes
// into the array of the slice it is given (see PickInto): the first
// placement found goes into dst's, and a later type's into a second
// array, so that the better of the two is always kept.
func bestOfTypes(r Request, dst []cluster.GPUID, pick func(t string, dst []cluster.GPUID) []cluster.GPUID) []cluster.GPUID {
	c := r.s.Cluster()
	if r.gpuType != "" { // one type to try
		if !r.TypeOK(r.gpuType) || r.s.FreeGPUsOfType(r.gpuType) < r.gpus {
			return nil
		}
		return pick(r.gpuType, dst)
	}
	var best, spare []cluster.GPUID
	bestServers := -1 // counted only when another type competes
	for _, t := range c.Types() {
		if !r.TypeOK(t) || r.s.FreeGPUsOfType(t) < r.gpus {
			continue
		}
		buf := dst
		if best != nil {
			buf = spare // never the array best is in
		}
		g := pick(t, buf)
		switch {
		case g == nil:
		case best == nil:
			best = g
		default:
			if bestServers < 0 {
				bestServers = c.ServersSpanned(best)
			}
			if k := c.ServersSpanned(g); k < bestServers {
				best, spare, bestServers = g, best, k
			} else {
				spare = g
			}
		}
	}
	return best
}

// extraOK applies the placement's extra filters to server srv.
func (p *Placement) extraOK(r Request, srv *cluster.Server) bool {
	for _, f := range p.extra {
		if f.Refuse(r, srv) != "" {
			return false
		}
	}
	return true
}

// placementChoices lists the presets by name, in the order the
// documentation shows them; the first is the default.
var placementChoices = []*Placement{
	NewPlacement(PlacementSpec{Name: "consolidated", Scores: []Score{FewestServers{}}}),
	NewPlacement(PlacementSpec{Name: "strict", Strict: true}),
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

// PlacementByName returns the named preset; "" is the default.
func PlacementByName(name string) (*Placement, error) {
	if name == "" {
		name = DefaultPlacement
	}
	for _, c := range placementChoices {
		if c.name == name {
			return c, nil
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

// Build returns the named placement, with best fit if asked.
func (pp PlacementParams) Build(bestFit bool) (*Placement, error) {
	p, err := PlacementByName(pp.Placement)
	if err != nil || !bestFit {
		return p, err
	}
	return p.BestFit(), nil
}

// tooFew says that fewer GPUs than the job needs are free.
func tooFew(r Request, free int) string {
	if r.gpuType == "" && len(r.s.Cluster().Types()) > 1 {
		return fmt.Sprintf("needs %d %s of one type, at most %d free of any type", r.gpus, gpuWords(r), free)
	}
	return fmt.Sprintf("needs %d %s, %d free", r.gpus, gpuWords(r), free)
}

// freeStats counts the free GPUs the job could use (of its type, with its
// memory) and the most of them on one server, over the type with the
// most when the job has none.
func freeStats(r Request) (free, onOne int) {
	c := r.s.Cluster()
	for _, t := range c.Types() {
		if r.gpuType != "" && t != r.gpuType {
			continue
		}
		n := 0
		for _, id := range c.ServersOfType(t) {
			k := countFree(&c.Servers[id], r.fit())
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
	if r.gpuType != "" {
		w = r.gpuType + " GPUs"
	}
	if r.mem > 0 {
		w += fmt.Sprintf(" with %.3g GB free", r.mem)
	}
	return w
}

func countFree(srv *cluster.Server, f fitter) int {
	n := 0
	for i := 0; i < srv.NumGPUs; i++ {
		if f.ok(srv.FirstGPU + cluster.GPUID(i)) {
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
