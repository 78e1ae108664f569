package policy_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// presets are the named placements with and without best fit.
func presets(t *testing.T) []*policy.Placement {
	t.Helper()
	var out []*policy.Placement
	for _, name := range policy.PlacementNames() {
		for _, bestFit := range []bool{false, true} {
			p, err := policy.PlacementParams{Placement: name}.Build(bestFit)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// randomCase is a cluster of two GPU types (one server size and memory
// per type), some GPUs taken, and jobs of random sizes, types and memory.
func randomCase(r *rand.Rand) (cluster.Spec, []cluster.GPUID, []workload.Job) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1 + r.IntN(4), GPUs: []int{1, 2, 4, 8}[r.IntN(4)], GPUType: "V100", GPUMemoryGB: 16},
		{Count: 1 + r.IntN(4), GPUs: []int{1, 2, 4, 8}[r.IntN(4)], GPUType: "K80", GPUMemoryGB: 12},
	}}
	n := 0
	for _, g := range spec.Servers {
		n += g.Count * g.GPUs
	}
	var taken []cluster.GPUID
	for g := range n {
		if r.IntN(3) == 0 {
			taken = append(taken, cluster.GPUID(g))
		}
	}
	var jobs []workload.Job
	for range 6 {
		jobs = append(jobs, workload.Job{GPUs: 1 + r.IntN(min(n, 12)), GPUType: []string{"", "", "V100", "K80"}[r.IntN(4)],
			MemoryGB: []float64{0, 0, 8, 14}[r.IntN(4)]})
	}
	return spec, taken, jobs
}

// An explanation tells the decision Pick makes: its chosen GPUs are
// Pick's, every one of them on a server no filter refused, and the scores
// it shows rank the chosen server first among those that could hold a
// one-server job; when the job waits, the filters leave too few usable
// GPUs. Checked on random clusters and jobs, for every preset.
func TestExplanationTellsTheDecision(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 32))
	checked, waits, one := 0, 0, 0
	for round := range 60 {
		spec, taken, jobs := randomCase(r)
		probe(t, spec, taken, func(s *engine.State, ids []workload.JobID) {
			for _, id := range ids {
				req := policy.RequestFor(s, id)
				for _, p := range presets(t) {
					ex := p.Explain(req)
					where := fmt.Sprintf("case %d, job %d (%d GPUs, type %q, %g GB), %s scored by %v", round, id, req.GPUs(), s.Job(id).GPUType, req.MemoryGB(), p.Name(), scoreNames(p))
					got := p.Pick(req)
					if !slices.Equal(ex.Chosen, got) {
						t.Fatalf("%s: explanation chose %v, Pick %v", where, ex.Chosen, got)
					}
					checked++
					if got == nil {
						waits++
						checkWait(t, where, s, ex, p)
						continue
					}
					if checkChosen(t, where, s, ex) {
						one++
					}
				}
			}
		}, jobs...)
	}
	if waits < 50 || one < 50 || checked-waits-one < 20 {
		t.Errorf("the cases are too alike: %d checked, %d wait, %d on one server", checked, waits, one)
	}
}

// checkChosen checks a placement that chose GPUs and reports whether they
// are on one server.
func checkChosen(t *testing.T, where string, s *engine.State, ex policy.Explanation) bool {
	t.Helper()
	taken, chosenServer := 0, -1
	for _, v := range ex.Servers {
		taken += v.Taken
		if v.Taken > 0 && v.Filter != "" {
			t.Fatalf("%s: %d GPUs taken on server %d, which %s refused: %s", where, v.Taken, v.Server, v.Filter, v.Reason)
		}
		if v.Taken == ex.GPUs {
			chosenServer = int(v.Server)
		}
	}
	if taken != len(ex.Chosen) {
		t.Fatalf("%s: %d GPUs taken in the rows, %d chosen", where, taken, len(ex.Chosen))
	}
	if chosenServer < 0 {
		return false
	}
	chosen := ex.Servers[chosenServer]
	types := s.Cluster().Types()
	for _, v := range ex.Servers {
		if v.Filter != "" || v.Usable < ex.GPUs || v.Server == chosen.Server {
			continue
		}
		earlier := slices.Index(types, v.Type) < slices.Index(types, chosen.Type)
		same := v.Type == chosen.Type
		if earlier || (same && outranks(v, chosen)) {
			t.Fatalf("%s: chose server %d (%s, scores %v), but server %d (%s, scores %v) holds the job and ranks first", where,
				chosen.Server, chosen.Type, chosen.Scores, v.Server, v.Type, v.Scores)
		}
	}
	return true
}

func scoreNames(p *policy.Placement) []string {
	var out []string
	for _, sc := range p.Scores() {
		out = append(out, sc.Name())
	}
	return out
}

// outranks says whether server row a ranks before b: higher scores, then
// the lower ID.
func outranks(a, b policy.ServerVerdict) bool {
	for i := range a.Scores {
		if a.Scores[i] != b.Scores[i] {
			return a.Scores[i] > b.Scores[i]
		}
	}
	return a.Server < b.Server
}

// checkWait checks a placement that made the job wait: consolidated when
// no type the job may use has enough usable GPUs on servers no filter
// refused; strict, for a job no larger than a server, when no server
// passes every filter.
func checkWait(t *testing.T, where string, s *engine.State, ex policy.Explanation, p *policy.Placement) {
	t.Helper()
	if ex.Why == "" {
		t.Fatalf("%s: waits without a reason", where)
	}
	usable := map[string]int{}
	passed := 0
	for _, v := range ex.Servers {
		if v.Filter == "" {
			usable[v.Type] += v.Usable
			passed++
		}
	}
	strict := slices.ContainsFunc(p.Filters(), func(f policy.Filter) bool { return f.Name() == "strict-shape" })
	if !strict {
		for typ, n := range usable {
			if n >= ex.GPUs {
				t.Fatalf("%s: waits, but the filters leave %d usable %s GPUs", where, n, typ)
			}
		}
		return
	}
	if ex.GPUs <= s.Cluster().MaxGPUsPerServer() && passed > 0 && ex.GPUs <= minLargest(s) {
		t.Fatalf("%s: waits, but %d servers pass every filter:\n%s", where, passed, ex)
	}
}

// minLargest is the smallest over the types of their largest server.
func minLargest(s *engine.State) int {
	out := s.Cluster().MaxGPUsPerServer()
	for _, typ := range s.Cluster().Types() {
		big := 0
		for _, id := range s.Cluster().ServersOfType(typ) {
			big = max(big, s.Cluster().Servers[id].NumGPUs)
		}
		out = min(out, big)
	}
	return out
}

// wrapped hides a score's type, so that a placement ranks servers by
// scoring each one instead of walking the engine's buckets.
type wrapped struct{ inner policy.Score }

func (w wrapped) Name() string                                        { return w.inner.Name() }
func (w wrapped) Score(r policy.Request, srv *cluster.Server) float64 { return w.inner.Score(r, srv) }

// The presets' fast walks through the engine's free-GPU buckets choose
// what scoring every server with the same scores chooses.
func TestFastWalksMatchScoring(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 32))
	compared := 0
	for range 60 {
		spec, taken, jobs := randomCase(r)
		probe(t, spec, taken, func(s *engine.State, ids []workload.JobID) {
			for _, id := range ids {
				req := policy.RequestFor(s, id)
				for _, p := range presets(t) {
					var scores []policy.Score
					for _, sc := range p.Scores() {
						scores = append(scores, wrapped{sc})
					}
					if len(scores) == 0 { // first fit: the ID is the only rank
						scores = []policy.Score{wrapped{zero{}}}
					}
					strict := slices.ContainsFunc(p.Filters(), func(f policy.Filter) bool { return f.Name() == "strict-shape" })
					slow := policy.NewPlacement(policy.PlacementSpec{Name: "scored", Strict: strict, Scores: scores})
					if fast, scored := p.Pick(req), slow.Pick(req); !slices.Equal(fast, scored) {
						t.Fatalf("%s scored by %v, job %d: fast %v, scored %v", p.Name(), scoreNames(p), id, fast, scored)
					}
					compared++
				}
			}
		}, jobs...)
	}
	if compared < 1000 {
		t.Errorf("only %d comparisons", compared)
	}
}

type zero struct{}

func (zero) Name() string                                  { return "zero" }
func (zero) Score(policy.Request, *cluster.Server) float64 { return 0 }

// The GPU-type filter is in every placement, first, and a request can only
// be made from a job: a zero Request places nothing.
func TestEveryPlacementFiltersGPUTypes(t *testing.T) {
	for _, p := range append(presets(t), policy.NewPlacement(policy.PlacementSpec{Name: "mine", Scores: []policy.Score{policy.Interference{}}})) {
		if fs := p.Filters(); len(fs) < 2 || fs[0].Name() != "gpu-type" || fs[1].Name() != "free-memory" {
			t.Errorf("%s: filters %v", p.Name(), fs)
		}
		if got := p.Pick(policy.Request{}); got != nil {
			t.Errorf("%s placed a request made from no job: %v", p.Name(), got)
		}
	}
}

// Under Gavel's table a 2-GPU ResNet-50 (batch 128) has no throughput on
// K80s: the GPU-type filter refuses the K80 server, says why, and every
// placement puts the job on the V100s, even when the K80s hold it on one
// server and the V100s do not.
func TestGPUTypeFilterRefusesRateZero(t *testing.T) {
	m, err := perf.NewThroughput(perf.ThroughputParams{})
	if err != nil {
		t.Fatal(err)
	}
	spec := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 4, GPUType: "K80", GPUMemoryGB: 12},
		{Count: 2, GPUs: 2, GPUType: "V100", GPUMemoryGB: 16},
	}}
	probeWith(t, spec, m, []cluster.GPUID{4}, func(s *engine.State, ids []workload.JobID) {
		req := policy.RequestFor(s, ids[0])
		if got := req.Types(); !slices.Equal(got, []string{"V100"}) {
			t.Errorf("types %v", got)
		}
		for _, p := range presets(t) {
			ex := p.Explain(req)
			if v := ex.Servers[0]; v.Filter != "gpu-type" || !strings.Contains(v.Reason, "no throughput on K80") {
				t.Errorf("%s: the K80 server's row %+v", p.Name(), v)
			}
			if got := p.Pick(req); !slices.Equal(got, []cluster.GPUID{6, 7}) {
				t.Errorf("%s placed the job on %v, want the free V100 server (GPUs 6, 7)\n%s", p.Name(), got, ex)
			}
		}
	}, workload.Job{Model: "ResNet-50", BatchSize: 128, GPUs: 2})
}

// The filters' reasons, by hand: on two 4-GPU V100 servers (16 GB), server
// 0 with 3 GPUs taken and server 1 with 1, a 2-GPU job of 14 GB: server 0
// has 1 usable GPU; strict refuses it ("1 GPU usable; strict placement
// keeps the job's 2 on one server"); a job asking for K80s is refused by
// type on both; a 20 GB job by memory ("none with 20 GB free").
func TestFilterReasons(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16}}}
	probe(t, spec, []cluster.GPUID{0, 1, 2, 4}, func(s *engine.State, ids []workload.JobID) {
		strict, _ := policy.PlacementByName("strict")
		ex := strict.Explain(policy.RequestFor(s, ids[0]))
		want := []string{"strict-shape: 1 GPU usable; strict placement keeps the job's 2 on one server", ":"}
		for i, v := range ex.Servers {
			if got := v.Filter + ": " + v.Reason; strings.TrimSpace(got) != want[i] {
				t.Errorf("server %d: %q, want %q", i, got, want[i])
			}
		}
		if ex.Servers[1].Taken != 2 || ex.Servers[1].Usable != 3 || ex.Servers[1].Free != 3 {
			t.Errorf("server 1's row %+v", ex.Servers[1])
		}
		gpuType := policy.GPUTypeFilter{}.Refuse(policy.RequestFor(s, ids[1]), &s.Cluster().Servers[1])
		if gpuType != "V100 GPUs; the job runs only on K80" {
			t.Errorf("type: %q", gpuType)
		}
		mem := policy.FreeMemoryFilter{}.Refuse(policy.RequestFor(s, ids[2]), &s.Cluster().Servers[1])
		if mem != "3 GPUs free, none with 20 GB free" {
			t.Errorf("memory: %q", mem)
		}
		if busy := (policy.FreeMemoryFilter{}).Refuse(policy.RequestFor(s, ids[0]), &s.Cluster().Servers[0]); busy != "" {
			t.Errorf("server 0 has a free GPU: %q", busy)
		}
	}, workload.Job{GPUs: 2, MemoryGB: 14}, workload.Job{GPUs: 1, GPUType: "K80"}, workload.Job{GPUs: 1, MemoryGB: 20})
}

// The interference and pair-match scores, by hand: two 2-GPU servers, a
// job of model a on GPU 0 and one of model b on GPU 2; slowdowns a|a 2,
// a|b 1.25, b|a 1.6. A new job of model a would suffer 2 on server 0 and
// 1.25 on server 1 (scores −2 and −1.25); paired on its neighbour's GPU it
// would make 1/2 + 1/2 = 1 on server 0 and 1/1.25 + 1/1.6 = 1.425 on
// server 1. A placement ranking by interference puts it on server 1.
func TestInterferenceAndPairMatch(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 2, GPUType: "V100"}}}
	m := &perf.Composite{Base: perf.NewConstant(perf.ConstantParams{}), Factors: []perf.Factor{perf.NewInterference(perf.InterferenceSpec{
		Models: []string{"a", "b"}, Matrix: [][]float64{{2, 1.25}, {1.6, 1}}})}}
	probeWith(t, spec, m, nil, func(s *engine.State, ids []workload.JobID) {
		if err := s.Start(ids[1], []cluster.GPUID{0}, engine.ActionOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ids[2], []cluster.GPUID{2}, engine.ActionOptions{}); err != nil {
			t.Fatal(err)
		}
		req := policy.RequestFor(s, ids[0])
		c := s.Cluster()
		for i, want := range [][2]float64{{-2, 1}, {-1.25, 1/1.25 + 1/1.6}} {
			srv := &c.Servers[i]
			if got := (policy.Interference{}).Score(req, srv); math.Abs(got-want[0]) > 1e-12 {
				t.Errorf("server %d: interference %v, want %v", i, got, want[0])
			}
			if got := (policy.PairMatch{}).Score(req, srv); math.Abs(got-want[1]) > 1e-12 {
				t.Errorf("server %d: pair match %v, want %v", i, got, want[1])
			}
		}
		quiet := policy.NewPlacement(policy.PlacementSpec{Name: "quiet", Scores: []policy.Score{policy.Interference{}}})
		if got := quiet.Pick(req); !slices.Equal(got, []cluster.GPUID{3}) {
			t.Errorf("quiet placement: %v, want GPU 3\n%s", got, quiet.Explain(req))
		}
		if got := placeWith(t, s, "consolidated", false, ids[0]); !slices.Equal(got, []cluster.GPUID{1}) {
			t.Errorf("consolidated (the emptiest, then the lowest ID): %v, want GPU 1", got)
		}
	}, workload.Job{GPUs: 1, Model: "a"}, workload.Job{GPUs: 1, Model: "a"}, workload.Job{GPUs: 1, Model: "b"})
}

// A scheduler hands out the explanation of each placement decision when
// asked: FIFO with strict placement on two 4-GPU servers, A and B (3 GPUs
// each) start at 0, C (2 GPUs, at 10) waits, both servers refused by the
// strict shape, until A ends at 1000. Asking changes no decision.
func TestSchedulerExplains(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 3, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 3, DurationS: 2000, Model: "m"},
		{Name: "C", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 10},
	}
	order := policy.Order{Key: func(s *engine.State, id workload.JobID) float64 { return s.Job(id).ArrivalS }}
	var got []string
	explained := &policy.QueueScheduler{Name: "FIFO", Order: order, Label: policy.TimeLabel("arrived at"), Backfill: true, Placement: "strict",
		Explained: func(s *engine.State, ex policy.Explanation) {
			line := fmt.Sprintf("%g %s %v", s.Now(), s.Job(ex.Job).Name, ex.Chosen)
			for _, v := range ex.Servers {
				if v.Filter == "" {
					line += " | passes"
				} else {
					line += fmt.Sprintf(" | %s: %s", v.Filter, v.Reason)
				}
			}
			got = append(got, line)
		}}
	plain := &policy.QueueScheduler{Name: "FIFO", Order: order, Label: policy.TimeLabel("arrived at"), Backfill: true, Placement: "strict"}
	a, err := runOnGPUs(t, 8, jobs, explained)
	if err != nil {
		t.Fatal(err)
	}
	b, err := runOnGPUs(t, 8, jobs, plain)
	if err != nil {
		t.Fatal(err)
	}
	refused := "strict-shape: 1 GPU usable; strict placement keeps the job's 2 on one server"
	want := []string{"0 A [0 1 2] | passes | passes", "0 B [4 5 6] | strict-shape: 1 GPU usable; strict placement keeps the job's 3 on one server | passes",
		"10 C [] | " + refused + " | " + refused, "1000 C [0 1] | passes | " + refused}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explanations\n%q\nwant\n%q", got, want)
	}
	if !reflect.DeepEqual(a.Jobs, b.Jobs) || !engine.SameLog(a.Log, b.Log) {
		t.Error("asking for explanations changed the run")
	}
}
