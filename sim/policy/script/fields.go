//go:build !noscript

package script

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// A field is one attribute a script reads, of a job, the state or a
// server. The tables below are the only place a field is defined: the
// values' Attr and AttrNames read them, and so does FieldTable, which
// writes the documentation.
type field[T any] struct {
	name, typ, doc string
	// varies marks a value that changes while a job waits or runs; a
	// priority that reads one is recomputed at every decision.
	varies bool
	// oracle marks knowledge a real scheduler lacks, readable only when
	// the policy's oracle parameter is on.
	oracle bool
	get    func(T) starlark.Value
}

// source is what a script's values read: the engine's state in a run,
// a made-up one in the check (check.go). The check must not run the
// engine: the page validates scripts as they are typed, and a call of
// the engine there would link every policy's code into the page.
type source interface {
	Now() float64
	NumJobs() int
	Job(id workload.JobID) *workload.Job
	Status(id workload.JobID) engine.Status
	Info(id workload.JobID) engine.JobInfo
	Remaining(id workload.JobID) float64
	MemoryGB(id workload.JobID, subBatch int) float64
	GPUsOf(id workload.JobID) []cluster.GPUID
	Cluster() *cluster.Cluster
	Pending() []workload.JobID
	Running() []workload.JobID
	FreeGPUs() int
	FreeGPUsOfType(t string) int
	ServerFree(id cluster.ServerID) int
	NumJobsOn(g cluster.GPUID) int
}

var _ source = (*engine.State)(nil)

// view is what a script's values read, shared by every value of one
// call.
type view struct {
	s      source
	oracle bool
	// varied is set when a call reads a field that changes over time.
	varied bool
	solo   []float64 // solo time by job, 0 until computed
	// soloOf computes a job's solo time; see bind.
	soloOf func(id workload.JobID) float64
}

func newView(oracle bool) *view { return &view{oracle: oracle} }

// bind points the view at the state of the current decision.
func (v *view) bind(s *engine.State) {
	v.use(s, func(id workload.JobID) float64 { return policy.SoloDuration(s, id) })
}

// use points the view at any source, with how to compute solo times.
func (v *view) use(s source, soloOf func(workload.JobID) float64) {
	v.s, v.soloOf = s, soloOf
	if n := s.NumJobs(); len(v.solo) < n {
		v.solo = append(v.solo, make([]float64, n-len(v.solo))...)
	}
}

// soloS is policy.SoloDuration, computed once per job: it depends only
// on the job, the cluster and the policy's perf model.
func (v *view) soloS(id workload.JobID) float64 {
	if d := v.solo[id]; d > 0 {
		return d
	}
	d := v.soloOf(id)
	v.solo[id] = d
	return d
}

// job is a job as a script sees it.
type job struct {
	v  *view
	id workload.JobID
}

var jobFields = []field[job]{
	{name: "id", typ: "string", doc: "the job's name, as in the scenario and the results",
		get: func(j job) starlark.Value { return starlark.String(j.v.s.Job(j.id).Name) }},
	{name: "arrival_s", typ: "float", doc: "when the job was submitted, in seconds",
		get: func(j job) starlark.Value { return starlark.Float(j.v.s.Job(j.id).ArrivalS) }},
	{name: "gpus", typ: "int", doc: "how many GPUs it needs, all at once (gang scheduling)",
		get: func(j job) starlark.Value { return starlark.MakeInt(j.v.s.Job(j.id).GPUs) }},
	{name: "model", typ: "string", doc: "the model it trains, e.g. resnet50",
		get: func(j job) starlark.Value { return starlark.String(j.v.s.Job(j.id).Model) }},
	{name: "weight", typ: "float", doc: "its priority weight for fair sharing; 1 when the scenario gives none",
		get: func(j job) starlark.Value {
			w := j.v.s.Job(j.id).Weight
			if w == 0 {
				w = 1
			}
			return starlark.Float(w)
		}},
	{name: "entity", typ: "string", doc: "its owner (a team or user), \"\" when the scenario gives none",
		get: func(j job) starlark.Value { return starlark.String(j.v.s.Job(j.id).Entity) }},
	{name: "gpu_type", typ: "string", doc: "the GPU type it must run on, \"\" for any",
		get: func(j job) starlark.Value { return starlark.String(j.v.s.Job(j.id).GPUType) }},
	{name: "memory_gb", typ: "float", doc: "GPU memory it holds on each of its GPUs, 0 when memory is not modelled",
		get: func(j job) starlark.Value { return starlark.Float(j.v.s.MemoryGB(j.id, 0)) }},
	{name: "solo_s", typ: "float", doc: "how long it would run alone on its GPUs, from start to end: the perf model's estimate (what SJF sorts by)",
		get: func(j job) starlark.Value { return starlark.Float(j.v.soloS(j.id)) }},
	{name: "attained_s", typ: "float", varies: true, doc: "seconds it has held GPUs so far (its attained service)",
		get: func(j job) starlark.Value { return starlark.Float(j.v.s.Info(j.id).RunTime) }},
	{name: "attained_gpu_s", typ: "float", varies: true, doc: "GPU-seconds it has held so far: GPUs × seconds, what Tiresias' 2D-LAS sorts by",
		get: func(j job) starlark.Value { return starlark.Float(j.v.s.Info(j.id).AttainedGPU) }},
	{name: "waited_s", typ: "float", varies: true, doc: "seconds since its arrival without GPUs (before its first start and after each preemption)",
		get: func(j job) starlark.Value {
			job := j.v.s.Job(j.id)
			return starlark.Float(max(0, j.v.s.Now()-job.ArrivalS-j.v.s.Info(j.id).RunTime))
		}},
	{name: "running", typ: "bool", varies: true, doc: "whether it holds GPUs now",
		get: func(j job) starlark.Value { return starlark.Bool(j.v.s.Status(j.id) == engine.Running) }},
	{name: "preemptions", typ: "int", varies: true, doc: "how many times it has been preempted",
		get: func(j job) starlark.Value { return starlark.MakeInt(j.v.s.Info(j.id).Preemptions) }},
	{name: "gpu_ids", typ: "list of int", varies: true, doc: "the GPUs it holds now (numbers as in state.servers), empty while it waits",
		get: func(j job) starlark.Value { return gpuList(j.v.s.GPUsOf(j.id)) }},
	{name: "remaining_s", typ: "float", varies: true, oracle: true, doc: "how long it has left to run alone on its GPUs (solo_s × the share of its work left); only with the policy's oracle parameter on, since a real scheduler does not know it",
		get: func(j job) starlark.Value {
			job := j.v.s.Job(j.id)
			left := 1.0
			if job.Iterations > 0 {
				left = j.v.s.Remaining(j.id) / job.Iterations
			}
			return starlark.Float(j.v.soloS(j.id) * left)
		}},
}

// state is the cluster and its jobs at one decision, for decide.
type state struct{ v *view }

var stateFields = []field[state]{
	{name: "now", typ: "float", varies: true, doc: "the current time, in seconds",
		get: func(st state) starlark.Value { return starlark.Float(st.v.s.Now()) }},
	{name: "pending", typ: "list of job", varies: true, doc: "the jobs waiting for GPUs, in arrival order",
		get: func(st state) starlark.Value { return jobList(st.v, st.v.s.Pending()) }},
	{name: "running", typ: "list of job", varies: true, doc: "the jobs holding GPUs, in arrival order",
		get: func(st state) starlark.Value { return jobList(st.v, st.v.s.Running()) }},
	{name: "free_gpus", typ: "int", varies: true, doc: "how many GPUs hold no job",
		get: func(st state) starlark.Value { return starlark.MakeInt(st.v.s.FreeGPUs()) }},
	{name: "total_gpus", typ: "int", doc: "how many GPUs the cluster has",
		get: func(st state) starlark.Value { return starlark.MakeInt(len(st.v.s.Cluster().GPUs)) }},
	{name: "types", typ: "list of string", doc: "the cluster's GPU types",
		get: func(st state) starlark.Value {
			var out []starlark.Value
			for _, t := range st.v.s.Cluster().Types() {
				out = append(out, starlark.String(t))
			}
			return starlark.NewList(out)
		}},
	{name: "free_by_type", typ: "dict of string to int", varies: true, doc: "free GPUs of each type",
		get: func(st state) starlark.Value {
			d := starlark.NewDict(4)
			for _, t := range st.v.s.Cluster().Types() {
				_ = d.SetKey(starlark.String(t), starlark.MakeInt(st.v.s.FreeGPUsOfType(t)))
			}
			return d
		}},
	{name: "servers", typ: "list of server", varies: true, doc: "the cluster's servers, in order",
		get: func(st state) starlark.Value {
			c := st.v.s.Cluster()
			out := make([]starlark.Value, len(c.Servers))
			for i := range c.Servers {
				out[i] = server{v: st.v, id: cluster.ServerID(i)}
			}
			return starlark.NewList(out)
		}},
}

// server is one server of the cluster, for decide.
type server struct {
	v  *view
	id cluster.ServerID
}

var serverFields = []field[server]{
	{name: "id", typ: "int", doc: "its number, from 0",
		get: func(sv server) starlark.Value { return starlark.MakeInt(int(sv.id)) }},
	{name: "gpu_type", typ: "string", doc: "the type of its GPUs",
		get: func(sv server) starlark.Value { return starlark.String(sv.v.s.Cluster().Servers[sv.id].Type) }},
	{name: "gpus", typ: "int", doc: "how many GPUs it has",
		get: func(sv server) starlark.Value { return starlark.MakeInt(sv.v.s.Cluster().Servers[sv.id].NumGPUs) }},
	{name: "gpu_ids", typ: "list of int", doc: "the numbers of its GPUs",
		get: func(sv server) starlark.Value { return gpuList(sv.v.s.Cluster().Servers[sv.id].GPUs()) }},
	{name: "free", typ: "int", varies: true, doc: "how many of its GPUs hold no job",
		get: func(sv server) starlark.Value { return starlark.MakeInt(sv.v.s.ServerFree(sv.id)) }},
	{name: "free_gpu_ids", typ: "list of int", varies: true, doc: "the numbers of its GPUs that hold no job",
		get: func(sv server) starlark.Value {
			srv := &sv.v.s.Cluster().Servers[sv.id]
			var out []starlark.Value
			for i := range srv.NumGPUs {
				if g := srv.FirstGPU + cluster.GPUID(i); sv.v.s.NumJobsOn(g) == 0 {
					out = append(out, starlark.MakeInt(int(g)))
				}
			}
			return starlark.NewList(out)
		}},
}

func gpuList(gpus []cluster.GPUID) *starlark.List {
	out := make([]starlark.Value, len(gpus))
	for i, g := range gpus {
		out[i] = starlark.MakeInt(int(g))
	}
	return starlark.NewList(out)
}

func jobList(v *view, ids []workload.JobID) *starlark.List {
	out := make([]starlark.Value, len(ids))
	for i, id := range ids {
		out[i] = job{v: v, id: id}
	}
	return starlark.NewList(out)
}

// index maps a table's names to its fields.
type index[T any] struct {
	byName map[string]*field[T]
	names  []string // sorted, for AttrNames
	open   []string // sorted, without the oracle fields
}

func newIndex[T any](fields []field[T]) index[T] {
	ix := index[T]{byName: map[string]*field[T]{}}
	for i := range fields {
		f := &fields[i]
		ix.byName[f.name] = f
		ix.names = append(ix.names, f.name)
		if !f.oracle {
			ix.open = append(ix.open, f.name)
		}
	}
	slices.Sort(ix.names)
	slices.Sort(ix.open)
	return ix
}

var (
	jobIndex    = newIndex(jobFields)
	stateIndex  = newIndex(stateFields)
	serverIndex = newIndex(serverFields)
)

// attr reads field name of x, recording in v whether it varies over time.
func attr[T any](ix *index[T], v *view, x T, kind, name string) (starlark.Value, error) {
	f, ok := ix.byName[name]
	if !ok {
		return nil, nil // starlark says "has no .name field" and suggests a near name
	}
	if f.oracle && !v.oracle {
		return nil, starlark.NoSuchAttrError(fmt.Sprintf("%s.%s is hidden: a real scheduler does not know it; turn on the policy's oracle parameter to read it", kind, name))
	}
	if f.varies {
		v.varied = true
	}
	return f.get(x), nil
}

func (j job) String() string        { return "job(" + j.v.s.Job(j.id).Name + ")" }
func (j job) Type() string          { return "job" }
func (j job) Freeze()               {}
func (j job) Truth() starlark.Bool  { return true }
func (j job) Hash() (uint32, error) { return uint32(j.id), nil }
func (j job) Attr(name string) (starlark.Value, error) {
	return attr(&jobIndex, j.v, j, "job", name)
}
func (j job) AttrNames() []string {
	if j.v.oracle {
		return jobIndex.names
	}
	return jobIndex.open
}

// CompareSameType makes jobs comparable: == is the same job, < the
// earlier arrival (jobs are numbered in arrival order).
func (j job) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return threeway(op, int(j.id), int(y.(job).id))
}

func threeway(op syntax.Token, a, b int) (bool, error) {
	switch op {
	case syntax.EQL:
		return a == b, nil
	case syntax.NEQ:
		return a != b, nil
	case syntax.LT:
		return a < b, nil
	case syntax.LE:
		return a <= b, nil
	case syntax.GT:
		return a > b, nil
	case syntax.GE:
		return a >= b, nil
	}
	return false, fmt.Errorf("%s is not a comparison", op)
}

func (st state) String() string        { return "state" }
func (st state) Type() string          { return "state" }
func (st state) Freeze()               {}
func (st state) Truth() starlark.Bool  { return true }
func (st state) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: state") }
func (st state) Attr(name string) (starlark.Value, error) {
	return attr(&stateIndex, st.v, st, "state", name)
}
func (st state) AttrNames() []string { return stateIndex.names }

func (sv server) String() string        { return fmt.Sprintf("server(%d)", sv.id) }
func (sv server) Type() string          { return "server" }
func (sv server) Freeze()               {}
func (sv server) Truth() starlark.Bool  { return true }
func (sv server) Hash() (uint32, error) { return uint32(sv.id), nil }
func (sv server) Attr(name string) (starlark.Value, error) {
	return attr(&serverIndex, sv.v, sv, "server", name)
}
func (sv server) AttrNames() []string { return serverIndex.names }

// FieldDoc documents one thing a script reads.
type FieldDoc struct {
	Name, Type, Doc string
	Varies          bool // it changes over time
}

// Fields documents everything a script reads, in the order of the
// documentation: the job, the state, a server, the math module.
func Fields() []FieldDoc {
	var out []FieldDoc
	for _, f := range jobFields {
		out = append(out, FieldDoc{"job." + f.name, f.typ, f.doc, f.varies})
	}
	for _, f := range stateFields {
		out = append(out, FieldDoc{"state." + f.name, f.typ, f.doc, f.varies})
	}
	for _, f := range serverFields {
		out = append(out, FieldDoc{"server." + f.name, f.typ, f.doc, f.varies})
	}
	for _, f := range mathFuncs {
		out = append(out, FieldDoc{"math." + f.name, f.typ, f.doc, false})
	}
	return out
}

// FieldTable is the documentation of everything a script reads, as a
// Markdown table: docs/scripts.md holds it (a test keeps it current).
func FieldTable() string {
	var b strings.Builder
	b.WriteString("| name | type | what it is |\n|---|---|---|\n")
	for _, f := range Fields() {
		doc := f.Doc
		if f.Varies {
			doc += " (changes over time)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, f.Type, doc)
	}
	return b.String()
}

// Settings documents the module-level settings of a script.
func Settings() []FieldDoc {
	out := make([]FieldDoc, len(settingNames))
	for i, s := range settingNames {
		out[i] = FieldDoc{Name: s.name, Doc: s.doc}
	}
	return out
}

// Reference is the guide to the language of scripts in plain text, for
// `schedlab policies`: the two forms, the settings, and every field.
func Reference() string {
	var b strings.Builder
	b.WriteString("A script defines one of:\n" +
		"  def priority(job, now):  return a number; the smallest starts first, on GPUs of its own\n" +
		"  def decide(state):       return {\"start\": [job or (job, [GPU numbers]), ...], \"preempt\": [job, ...]} or None\n" +
		"Settings, assigned at the top level:\n")
	for _, s := range Settings() {
		fmt.Fprintf(&b, "  %-10s %s\n", s.Name, s.Doc)
	}
	b.WriteString("What a script reads (* changes over time):\n")
	for _, f := range Fields() {
		mark := " "
		if f.Varies {
			mark = "*"
		}
		fmt.Fprintf(&b, "  %s %-22s %-22s %s\n", mark, f.Name, f.Type, f.Doc)
	}
	return b.String()
}
