package alloc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
	"github.com/schedlab/schedlab/sim/workload"
)

// fakeThr is a throughput oracle from tables keyed by model name.
type fakeThr struct {
	types []string
	solo  map[string][]float64
	pair  map[[2]string][2][]float64 // per type: a's and b's throughputs
}

func (f *fakeThr) Rate(perf.State, workload.JobID) float64 { return 0 }

func (f *fakeThr) Coupling() perf.Coupling { return perf.Independent }

func (f *fakeThr) SoloThroughput(j *workload.Job, t string) float64 {
	for i, x := range f.types {
		if x == t {
			return f.solo[j.Model][i]
		}
	}
	return 0
}

func (f *fakeThr) PairThroughput(a, b *workload.Job, t string) (float64, float64) {
	if a.GPUs != b.GPUs {
		return 0, 0
	}
	for i, x := range f.types {
		if x != t {
			continue
		}
		if v, ok := f.pair[[2]string{a.Model, b.Model}]; ok {
			return v[0][i], v[1][i]
		}
		if v, ok := f.pair[[2]string{b.Model, a.Model}]; ok {
			return v[1][i], v[0][i]
		}
	}
	return 0, 0
}

// input builds a plan.Input over the fake oracle.
func input(f *fakeThr, count []float64, jobs []workload.Job) *plan.Input {
	in := &plan.Input{Types: f.types, Count: count, Rand: rand.New(rand.NewPCG(1, 2)), Oracle: plan.Oracle{Model: f}}
	for i := range jobs {
		j := &jobs[i]
		j.ID = workload.JobID(i)
		if j.Name == "" {
			j.Name = fmt.Sprintf("j%d", i)
		}
		if j.GPUs == 0 {
			j.GPUs = 1
		}
		thr := make([]float64, len(f.types))
		for k, t := range f.types {
			thr[k] = f.SoloThroughput(j, t)
		}
		in.Jobs = append(in.Jobs, plan.Job{ID: j.ID, Job: j, SF: j.GPUs, Weight: j.EffectiveWeight(), Thr: thr,
			Rem: j.Iterations, Elapsed: 3600, IsoTime: 1800})
	}
	return in
}

// The paper's §4.1 example (spec 001 §2.1): three jobs on one V100 and
// one K80; every job's normalised throughput is 8/11 ≈ 0.727 under
// Gavel's max-min fairness, against 2/3 with an isolated share.
func TestPaperThreeJobExample(t *testing.T) {
	f := &fakeThr{types: []string{"V100", "K80"}, solo: map[string][]float64{
		"a": {40, 10}, "b": {12, 4}, "c": {100, 50}}}
	in := input(f, []float64{1, 1}, []workload.Job{{Model: "a", Iterations: 1e6}, {Model: "b", Iterations: 1e6}, {Model: "c", Iterations: 1e6}})
	a := &Fair{Aware: true, TieBreak: true, PairThreshold: 1, LPs: &LPs{}}
	al, err := a.Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	rows := al.PerJob(3, 2)
	want := [][]float64{{5.0 / 11, 0}, {5.0 / 11, 1.0 / 11}, {1.0 / 11, 10.0 / 11}}
	for m := range rows {
		norm := plan.Dot(in.Jobs[m].Thr, rows[m]) / in.ThrEqual(in.Jobs[m].Thr)
		if !approx.Equal(norm, 8.0/11, 1e-6, 1e-6) {
			t.Errorf("job %d: normalised throughput %v, want 8/11", m, norm)
		}
		for j := range rows[m] {
			if !approx.Equal(rows[m][j], want[m][j], 1e-6, 1e-6) {
				t.Errorf("X[%d][%d] = %v, want %v", m, j, rows[m][j], want[m][j])
			}
		}
	}
	if !approx.Equal(al.Objective, 8.0/11, 1e-6, 1e-6) {
		t.Errorf("objective %v", al.Objective)
	}
	iso, _ := Isolated{}.Allocate(in)
	for m, row := range iso.PerJob(3, 2) {
		if norm := plan.Dot(in.Jobs[m].Thr, row) / in.ThrEqual(in.Jobs[m].Thr); !approx.Equal(norm, 2.0/3, 1e-9, 1e-9) {
			t.Errorf("isolated job %d: %v, want 2/3", m, norm)
		}
	}
}

// The water-filling example of spec 001 §2.9: four identical jobs on four
// GPUs, job 0 with weight 3. Plain max-min stops at job 0's cap (1 GPU)
// with the others at 1/3; water filling then raises them to 1 GPU each.
func TestWaterFillingFourJobExample(t *testing.T) {
	f := &fakeThr{types: []string{"V100"}, solo: map[string][]float64{"x": {10}}}
	jobs := []workload.Job{{Model: "x", Weight: 3, Iterations: 1e6}, {Model: "x", Iterations: 1e6}, {Model: "x", Iterations: 1e6}, {Model: "x", Iterations: 1e6}}
	in := input(f, []float64{4}, jobs)
	plain := &Fair{Aware: true, PairThreshold: 1, LPs: &LPs{}}
	al, err := plain.Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if !approx.Equal(al.Objective, 1.0/3, 1e-9, 1e-9) {
		t.Errorf("max-min level %v, want 1/3 (job 0 capped at one GPU = 3 × 1/3)", al.Objective)
	}
	wf := &Fair{Aware: true, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
	al, err = wf.Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	for m, row := range al.PerJob(4, 1) {
		if !approx.Equal(row[0], 1, 1e-7, 1e-7) {
			t.Errorf("job %d gets %v of a GPU after water filling, want 1", m, row[0])
		}
	}
}

// randomInput draws jobs on three types; pairs of identical jobs test
// symmetry.
func randomInput(r *rand.Rand, singleGPU bool) *plan.Input {
	f := &fakeThr{types: []string{"V100", "P100", "K80"}, solo: map[string][]float64{}, pair: map[[2]string][2][]float64{}}
	var models []string
	for k := 0; k < 5; k++ {
		name := fmt.Sprintf("m%d", k)
		models = append(models, name)
		row := []float64{1 + 9*r.Float64(), 1 + 6*r.Float64(), 0.5 + 3*r.Float64()}
		if r.IntN(4) == 0 {
			row[2] = 0 // cannot run on K80
		}
		f.solo[name] = row
	}
	for a := range models {
		for b := a; b < len(models); b++ {
			var pa, pb []float64
			for j := 0; j < 3; j++ {
				pa = append(pa, f.solo[models[a]][j]*(0.4+0.5*r.Float64()))
				pb = append(pb, f.solo[models[b]][j]*(0.4+0.5*r.Float64()))
			}
			f.pair[[2]string{models[a], models[b]}] = [2][]float64{pa, pb}
		}
	}
	var jobs []workload.Job
	n := 4 + r.IntN(12)
	for i := 0; i < n; i++ {
		j := workload.Job{Model: models[r.IntN(len(models))], GPUs: 1, Iterations: float64(1000 * (1 + r.IntN(5))), Weight: float64(1 + r.IntN(2)),
			Entity: fmt.Sprintf("e%d", r.IntN(2)), DeadlineS: 5000 + 100000*r.Float64()}
		if !singleGPU && r.IntN(3) == 0 {
			j.GPUs = 2
		}
		jobs = append(jobs, j)
		if r.IntN(3) == 0 { // an identical twin
			jobs = append(jobs, j)
		}
	}
	count := []float64{float64(1 + r.IntN(6)), float64(1 + r.IntN(6)), float64(1 + r.IntN(6))}
	in := input(f, count, jobs)
	for i := range in.Jobs {
		in.Jobs[i].Rem = in.Jobs[i].Job.Iterations
	}
	return in
}

func allocators() map[string]func() plan.Allocator {
	ents := []plan.Entity{{Name: "e0", Weight: 1}, {Name: "e1", Weight: 2, Policy: "fifo"}}
	prices := []float64{0.74, 0.43, 0.135}
	return map[string]func() plan.Allocator{
		"las":          func() plan.Allocator { return &Fair{Aware: true, TieBreak: true, PairThreshold: 1, LPs: &LPs{}} },
		"las-agnostic": func() plan.Allocator { return &Fair{PairThreshold: 1, LPs: &LPs{}} },
		"las-agnostic-clean": func() plan.Allocator {
			return &Fair{Clean: true, PairThreshold: 1, LPs: &LPs{}}
		},
		"water-filling-agnostic": func() plan.Allocator {
			return &Fair{WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
		},
		"las-ss": func() plan.Allocator {
			return &Fair{Aware: true, SpaceSharing: true, TieBreak: true, PairThreshold: 1, LPs: &LPs{}}
		},
		"water-filling": func() plan.Allocator { return &Fair{Aware: true, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}} },
		"hierarchical":  func() plan.Allocator { return &Fair{Aware: true, Entities: ents, PairThreshold: 1, LPs: &LPs{}} },
		"ftf":           func() plan.Allocator { return &PerJob{Objective: "ftf", Aware: true, TieBreak: true, LPs: &LPs{}} },
		"ftf-agnostic":  func() plan.Allocator { return &PerJob{Objective: "ftf", TieBreak: true, LPs: &LPs{}} },
		"makespan": func() plan.Allocator {
			return &PerJob{Objective: "makespan", Aware: true, TieBreak: true, LPs: &LPs{}}
		},
		"makespan-ss": func() plan.Allocator {
			return &PerJob{Objective: "makespan", Aware: true, SpaceSharing: true, PairCandidates: 3, PairThreshold: 1, LPs: &LPs{}}
		},
		"throughput": func() plan.Allocator { return &PerJob{Objective: "throughput", Aware: true, LPs: &LPs{}} },
		"cost": func() plan.Allocator {
			return &PerJob{Objective: "cost", Aware: true, Prices: prices, LPs: &LPs{}}
		},
		"cost-slo": func() plan.Allocator {
			return &PerJob{Objective: "cost", Aware: true, SLO: true, Prices: prices, LPs: &LPs{}}
		},
		"cost-ratio": func() plan.Allocator {
			return &PerJob{Objective: "cost", Aware: true, Ratio: true, SLO: true, Prices: prices, LPs: &LPs{}}
		},
		"fifo":          func() plan.Allocator { return &FIFO{Aware: true, PackThreshold: 1.5} },
		"fifo-ss":       func() plan.Allocator { return &FIFO{Aware: true, SpaceSharing: true, PackThreshold: 1.0} },
		"fifo-agnostic": func() plan.Allocator { return &FIFO{} },
		"sjf":           func() plan.Allocator { return &FIFO{Aware: true, SJF: true} },
		"isolated":      func() plan.Allocator { return Isolated{} },
		"gandiva":       func() plan.Allocator { return &Gandiva{} },
		"allox":         func() plan.Allocator { return &AlloX{MaxJobs: 8} },
	}
}

// symmetric lists the allocators whose answer treats identical jobs alike
// (FIFO-like and randomised baselines order or pick jobs by design).
var symmetric = map[string]bool{"las": true, "las-agnostic": true, "las-agnostic-clean": true, "water-filling-agnostic": true, "las-ss": true, "water-filling": true,
	"ftf": true, "ftf-agnostic": true, "makespan": true, "throughput": true, "cost": true, "cost-slo": true, "isolated": true}

// Every policy's allocation is valid (spec 001 §1.3–1.4), and symmetric on
// identical jobs where the policy is.
func TestAllocationsValidAndSymmetric(t *testing.T) {
	for name, mk := range allocators() {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 12))
			for trial := 0; trial < 25; trial++ {
				in := randomInput(r, name == "allox")
				al, err := mk().Allocate(in)
				if err != nil {
					t.Fatalf("trial %d: %v", trial, err)
				}
				checkValid(t, name, in, al)
				if symmetric[name] {
					checkSymmetric(t, name, in, al)
				}
			}
		})
	}
	if symmetricPairs < 50 {
		t.Errorf("only %d pairs of identical jobs were compared", symmetricPairs)
	}
}

func checkValid(t *testing.T, name string, in *plan.Input, al *plan.Allocation) {
	t.Helper()
	const tol = 1e-7
	time := make([]float64, len(in.Jobs))
	used := make([]float64, len(in.Types))
	for _, c := range al.Combos {
		for j, x := range c.X {
			if x < -tol || x > 1+tol {
				t.Fatalf("%s: X = %v", name, x)
			}
			if x <= tol {
				continue
			}
			a := &in.Jobs[c.A]
			if c.B < 0 && a.Thr[j] <= 0 && !plansEverywhere[name] {
				t.Fatalf("%s: job %d gets %v on %s where it cannot run", name, c.A, x, in.Types[j])
			}
			if c.B >= 0 {
				ta, tb := in.Pair(a.Job, in.Jobs[c.B].Job, in.Types[j])
				if ta <= 0 || tb <= 0 {
					t.Fatalf("%s: pair %d,%d on %s cannot share", name, c.A, c.B, in.Types[j])
				}
				time[c.B] += x
			}
			time[c.A] += x
			used[j] += float64(a.SF) * x
		}
	}
	for m, s := range time {
		if s > 1+tol {
			t.Fatalf("%s: job %d is given %v of its time", name, m, s)
		}
	}
	if name == "fifo-agnostic" {
		return // the reference's agnostic FIFO may over-commit a type by design
	}
	for j, u := range used {
		if u > in.Count[j]+tol {
			t.Fatalf("%s: %s uses %v of %v GPUs", name, in.Types[j], u, in.Count[j])
		}
	}
}

func checkSymmetric(t *testing.T, name string, in *plan.Input, al *plan.Allocation) {
	t.Helper()
	rows := al.PerJob(len(in.Jobs), len(in.Types))
	twins := 0
	for a := range in.Jobs {
		for b := a + 1; b < len(in.Jobs); b++ {
			ja, jb := in.Jobs[a], in.Jobs[b]
			same := *ja.Job
			same.ID, same.Name = jb.Job.ID, jb.Job.Name
			if same != *jb.Job || ja.Rem != jb.Rem {
				continue
			}
			twins++
			for j := range rows[a] {
				if math.Abs(rows[a][j]-rows[b][j]) > 1e-6 {
					t.Fatalf("%s: identical jobs %d and %d get %v and %v", name, a, b, rows[a], rows[b])
				}
			}
		}
	}
	symmetricPairs += twins
}

var symmetricPairs int

// plansEverywhere lists the allocators whose plan may give a job time on a
// type where it cannot run: the agnostic plan of spec 001 §2.1's ruling
// (T = 1 on every type), whose time there is lost, as in the reference.
// The clean variant does so only for what does not fit on usable types.
var plansEverywhere = map[string]bool{"las-agnostic": true, "las-agnostic-clean": true, "water-filling-agnostic": true}

var _ = cluster.GPUID(0)

// AlloX (spec §2.10): a job that loses the matching enters it again at the
// next recomputation, and wins the GPU that a finished job frees.
func TestAlloXRematchesJobsThatLost(t *testing.T) {
	jobs := []workload.Job{{ID: 0, Name: "short", GPUs: 1}, {ID: 1, Name: "long", GPUs: 1}}
	in := &plan.Input{Types: []string{"V100"}, Count: []float64{1}}
	for i := range jobs {
		in.Jobs = append(in.Jobs, plan.Job{ID: jobs[i].ID, Job: &jobs[i], SF: 1, Weight: 1, Thr: []float64{1}, Rem: float64(100 * (i + 1))})
	}
	a := &AlloX{Alpha: 1, MaxJobs: 64}
	holders := func(al *plan.Allocation) []string {
		var out []string
		for _, c := range al.Combos {
			out = append(out, in.Jobs[c.A].Job.Name)
		}
		return out
	}
	al, err := a.Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(holders(al)); got != "[short]" {
		t.Fatalf("first matching: %s hold the GPU, want the short job", got)
	}
	in.Jobs = in.Jobs[1:] // the short job finished
	if al, err = a.Allocate(in); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(holders(al)); got != "[long]" {
		t.Fatalf("after the short job finished: %s hold the GPU, want the long job", got)
	}
}

// Every LP an allocator solves names its columns all differently and its
// rows all differently: warm starts carry bases over by name with
// lp.Basis.RemapUnique, which needs that (and an MPS file does too).
func TestLPNamesUnique(t *testing.T) {
	lps := 0
	for name, mk := range allocators() {
		r := rand.New(rand.NewPCG(13, 14))
		al := mk()
		var d *LPs
		switch a := al.(type) {
		case *Fair:
			d = a.LPs
		case *PerJob:
			d = a.LPs
		default:
			continue
		}
		d.DumpLPs(func(p *lp.Problem) {
			lps++
			cols, rows := map[string]bool{}, map[string]bool{}
			for j := range p.NumCols() {
				if cols[p.ColName(j)] {
					t.Fatalf("%s, LP %s: two columns named %s", name, p.Name, p.ColName(j))
				}
				cols[p.ColName(j)] = true
			}
			for i := range p.NumRows() {
				if rows[p.RowName(i)] {
					t.Fatalf("%s, LP %s: two rows named %s", name, p.Name, p.RowName(i))
				}
				rows[p.RowName(i)] = true
			}
		})
		for trial := 0; trial < 25; trial++ {
			if _, err := al.Allocate(randomInput(r, name == "allox")); err != nil {
				t.Fatalf("%s, trial %d: %v", name, trial, err)
			}
		}
	}
	if lps < 500 {
		t.Errorf("only %d LPs checked", lps)
	}
}

// TestGandivaEveryJobOneRowAcrossRecomputes: over recomputes in which
// random jobs finish, Gandiva gives every job of the input exactly one
// row, alone or in a pair of equal scale factors: a kept pair whose
// partner finished is dissolved, not left pointing at a job that is gone.
func TestGandivaEveryJobOneRowAcrossRecomputes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for trial := range 300 {
		in := randomInput(r, false)
		in.Count = []float64{1, 1, float64(r.IntN(2))} // more asked than there is: pairs form
		a := &Gandiva{OnlyKept: r.IntN(2) == 0}
		for step := range 6 {
			al, err := a.Allocate(in)
			if err != nil {
				t.Fatal(err)
			}
			rows := make([]int, len(in.Jobs))
			for _, c := range al.Combos {
				rows[c.A]++
				if c.B >= 0 {
					rows[c.B]++
					if in.Jobs[c.A].SF != in.Jobs[c.B].SF {
						t.Fatalf("trial %d, step %d: pair %v of scale factors %d and %d", trial, step, c, in.Jobs[c.A].SF, in.Jobs[c.B].SF)
					}
				}
			}
			for i, n := range rows {
				if n != 1 {
					t.Fatalf("trial %d, step %d: job %d in %d rows", trial, step, in.Jobs[i].ID, n)
				}
			}
			// some jobs finish
			in.Jobs = slices.DeleteFunc(in.Jobs, func(plan.Job) bool { return r.IntN(4) == 0 })
		}
	}
}
