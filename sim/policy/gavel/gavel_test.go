package gavel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// fakeThr is a throughput oracle from tables keyed by model name.
type fakeThr struct {
	types []string
	solo  map[string][]float64
	pair  map[[2]string][2][]float64 // per type: a's and b's throughputs
}

func (f *fakeThr) Rate(perf.State, workload.JobID) float64 { return 0 }
func (f *fakeThr) Coupling() perf.Coupling                 { return perf.Independent }
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

// input builds a planInput over the fake oracle.
func input(f *fakeThr, count []float64, jobs []workload.Job) *planInput {
	in := &planInput{types: f.types, count: count, rng: rand.New(rand.NewPCG(1, 2)), oracle: oracle{model: f}}
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
		in.jobs = append(in.jobs, planJob{id: j.ID, job: j, sf: j.GPUs, weight: j.EffectiveWeight(), thr: thr,
			rem: j.Iterations, elapsed: 3600, isoTime: 1800})
	}
	return in
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// The paper's §4.1 example (spec 001 §2.1): three jobs on one V100 and
// one K80; every job's normalised throughput is 8/11 ≈ 0.727 under
// Gavel's max-min fairness, against 2/3 with an isolated share.
func TestPaperThreeJobExample(t *testing.T) {
	f := &fakeThr{types: []string{"V100", "K80"}, solo: map[string][]float64{
		"a": {40, 10}, "b": {12, 4}, "c": {100, 50}}}
	in := input(f, []float64{1, 1}, []workload.Job{{Model: "a", Iterations: 1e6}, {Model: "b", Iterations: 1e6}, {Model: "c", Iterations: 1e6}})
	a := &fairAlloc{aware: true, tieBreak: true, threshold: 1, run: &lpRunner{}}
	al, err := a.allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	rows := al.perJob(3, 2)
	want := [][]float64{{5.0 / 11, 0}, {5.0 / 11, 1.0 / 11}, {1.0 / 11, 10.0 / 11}}
	for m := range rows {
		norm := dot(in.jobs[m].thr, rows[m]) / in.thrEqual(in.jobs[m].thr)
		if !near(norm, 8.0/11, 1e-6) {
			t.Errorf("job %d: normalised throughput %v, want 8/11", m, norm)
		}
		for j := range rows[m] {
			if !near(rows[m][j], want[m][j], 1e-6) {
				t.Errorf("X[%d][%d] = %v, want %v", m, j, rows[m][j], want[m][j])
			}
		}
	}
	if !near(al.objective, 8.0/11, 1e-6) {
		t.Errorf("objective %v", al.objective)
	}
	iso, _ := isolatedAlloc{}.allocate(in)
	for m, row := range iso.perJob(3, 2) {
		if norm := dot(in.jobs[m].thr, row) / in.thrEqual(in.jobs[m].thr); !near(norm, 2.0/3, 1e-9) {
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
	plain := &fairAlloc{aware: true, threshold: 1, run: &lpRunner{}}
	al, err := plain.allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if !near(al.objective, 1.0/3, 1e-9) {
		t.Errorf("max-min level %v, want 1/3 (job 0 capped at one GPU = 3 × 1/3)", al.objective)
	}
	wf := &fairAlloc{aware: true, waterFill: true, threshold: 1, run: &lpRunner{}}
	al, err = wf.allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	for m, row := range al.perJob(4, 1) {
		if !near(row[0], 1, 1e-7) {
			t.Errorf("job %d gets %v of a GPU after water filling, want 1", m, row[0])
		}
	}
}

// randomInput draws jobs on three types; pairs of identical jobs test
// symmetry.
func randomInput(r *rand.Rand, singleGPU bool) *planInput {
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
	for i := range in.jobs {
		in.jobs[i].rem = in.jobs[i].job.Iterations
	}
	return in
}

func allocators() map[string]func() allocator {
	ents := []Entity{{Name: "e0", Weight: 1}, {Name: "e1", Weight: 2, Policy: "fifo"}}
	prices := []float64{0.74, 0.43, 0.135}
	return map[string]func() allocator{
		"las":          func() allocator { return &fairAlloc{aware: true, tieBreak: true, threshold: 1, run: &lpRunner{}} },
		"las-agnostic": func() allocator { return &fairAlloc{threshold: 1, run: &lpRunner{}} },
		"las-agnostic-clean": func() allocator {
			return &fairAlloc{clean: true, threshold: 1, run: &lpRunner{}}
		},
		"water-filling-agnostic": func() allocator {
			return &fairAlloc{waterFill: true, threshold: 1, run: &lpRunner{}}
		},
		"las-ss": func() allocator {
			return &fairAlloc{aware: true, ss: true, tieBreak: true, threshold: 1, run: &lpRunner{}}
		},
		"water-filling": func() allocator { return &fairAlloc{aware: true, waterFill: true, threshold: 1, run: &lpRunner{}} },
		"hierarchical":  func() allocator { return &fairAlloc{aware: true, entities: ents, threshold: 1, run: &lpRunner{}} },
		"ftf":           func() allocator { return &perJobAlloc{objective: "ftf", aware: true, tieBreak: true, run: &lpRunner{}} },
		"ftf-agnostic":  func() allocator { return &perJobAlloc{objective: "ftf", tieBreak: true, run: &lpRunner{}} },
		"makespan": func() allocator {
			return &perJobAlloc{objective: "makespan", aware: true, tieBreak: true, run: &lpRunner{}}
		},
		"makespan-ss": func() allocator {
			return &perJobAlloc{objective: "makespan", aware: true, ss: true, candidates: 3, threshold: 1, run: &lpRunner{}}
		},
		"throughput": func() allocator { return &perJobAlloc{objective: "throughput", aware: true, run: &lpRunner{}} },
		"cost": func() allocator {
			return &perJobAlloc{objective: "cost", aware: true, prices: prices, run: &lpRunner{}}
		},
		"cost-slo": func() allocator {
			return &perJobAlloc{objective: "cost", aware: true, slo: true, prices: prices, run: &lpRunner{}}
		},
		"cost-ratio": func() allocator {
			return &perJobAlloc{objective: "cost", aware: true, ratio: true, slo: true, prices: prices, run: &lpRunner{}}
		},
		"fifo":          func() allocator { return &fifoAlloc{aware: true, packThreshold: 1.5} },
		"fifo-ss":       func() allocator { return &fifoAlloc{aware: true, ss: true, packThreshold: 1.0} },
		"fifo-agnostic": func() allocator { return &fifoAlloc{} },
		"sjf":           func() allocator { return &fifoAlloc{aware: true, sjf: true} },
		"isolated":      func() allocator { return isolatedAlloc{} },
		"gandiva":       func() allocator { return &gandivaAlloc{} },
		"allox":         func() allocator { return &alloxAlloc{maxJobs: 8} },
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
				al, err := mk().allocate(in)
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

func checkValid(t *testing.T, name string, in *planInput, al *allocation) {
	t.Helper()
	const tol = 1e-7
	time := make([]float64, len(in.jobs))
	used := make([]float64, len(in.types))
	for _, c := range al.combos {
		for j, x := range c.x {
			if x < -tol || x > 1+tol {
				t.Fatalf("%s: X = %v", name, x)
			}
			if x <= tol {
				continue
			}
			a := &in.jobs[c.a]
			if c.b < 0 && a.thr[j] <= 0 && !plansEverywhere[name] {
				t.Fatalf("%s: job %d gets %v on %s where it cannot run", name, c.a, x, in.types[j])
			}
			if c.b >= 0 {
				ta, tb := in.pair(a.job, in.jobs[c.b].job, in.types[j])
				if ta <= 0 || tb <= 0 {
					t.Fatalf("%s: pair %d,%d on %s cannot share", name, c.a, c.b, in.types[j])
				}
				time[c.b] += x
			}
			time[c.a] += x
			used[j] += float64(a.sf) * x
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
		if u > in.count[j]+tol {
			t.Fatalf("%s: %s uses %v of %v GPUs", name, in.types[j], u, in.count[j])
		}
	}
}

func checkSymmetric(t *testing.T, name string, in *planInput, al *allocation) {
	t.Helper()
	rows := al.perJob(len(in.jobs), len(in.types))
	twins := 0
	for a := range in.jobs {
		for b := a + 1; b < len(in.jobs); b++ {
			ja, jb := in.jobs[a], in.jobs[b]
			same := *ja.job
			same.ID, same.Name = jb.job.ID, jb.job.Name
			if same != *jb.job || ja.rem != jb.rem {
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
	for _, mode := range []string{"ref-compat", "clean"} {
		t.Run(mode, func(t *testing.T) { testAlloXRematch(t, mode) })
	}
}

func testAlloXRematch(t *testing.T, mode string) {
	jobs := []workload.Job{{ID: 0, Name: "short", GPUs: 1}, {ID: 1, Name: "long", GPUs: 1}}
	in := &planInput{types: []string{"V100"}, count: []float64{1}}
	for i := range jobs {
		in.jobs = append(in.jobs, planJob{id: jobs[i].ID, job: &jobs[i], sf: 1, weight: 1, thr: []float64{1}, rem: float64(100 * (i + 1))})
	}
	p := &AlloXParams{Common: defaultCommon(), Alpha: 1, MaxJobs: 64}
	p.Mode = mode
	a := newAlloX(p)
	holders := func(al *allocation) []string {
		var out []string
		for _, c := range al.combos {
			out = append(out, in.jobs[c.a].job.Name)
		}
		return out
	}
	al, err := a.allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(holders(al)); got != "[short]" {
		t.Fatalf("first matching: %s hold the GPU, want the short job", got)
	}
	in.jobs = in.jobs[1:] // the short job finished
	if al, err = a.allocate(in); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(holders(al)); got != "[long]" {
		t.Fatalf("after the short job finished: %s hold the GPU, want the long job", got)
	}
}

// ftf_rho divides each job's JCT by its JCT in the isolated policy's run
// of the same trace (spec 001 §5.6); without that run it is undefined.
func TestFTFRhoAgainstTheIsolatedRun(t *testing.T) {
	rec := func(job int32, arrival, finish float64) engine.JobRecord {
		return engine.JobRecord{Job: workload.JobID(job), Status: engine.Finished, ArrivalS: arrival, FinishS: finish}
	}
	ours := []engine.JobRecord{rec(0, 0, 300), rec(1, 100, 300)}
	iso := &engine.Result{Jobs: []engine.JobRecord{rec(0, 0, 200), rec(1, 100, 500)}}
	def, err := metrics.Lookup("ftf_rho")
	if err != nil {
		t.Fatal(err)
	}
	c := metrics.Context{Selected: ours, Result: &engine.Result{Jobs: ours},
		Peers: []metrics.Peer{{Label: "LAS", Name: "gavel-las", Result: &engine.Result{Jobs: ours}}, {Label: "Isolated", Name: "gavel-isolated", Result: iso}}}
	if got, want := def.Fn(c), (300.0/200+200.0/400)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("ρ = %g, want %g", got, want)
	}
	c.Peers = c.Peers[:1]
	if got := def.Fn(c); !math.IsNaN(got) {
		t.Errorf("ρ without an isolated run = %g, want NaN", got)
	}
}

// The agnostic plan of spec 001 §2.1's ruling: weight-5 single-GPU jobs
// among weight-1 jobs on a full cluster are spread over every type in
// proportion to its GPUs (ref-compat), or evenly over the types they can
// run on (clean), never piled onto one type as a simplex vertex does.
func TestAgnosticPlanSpreadsWeightedJobs(t *testing.T) {
	f := &fakeThr{types: []string{"V100", "P100", "K80"}, solo: map[string][]float64{
		"a": {3, 2, 1}, "b": {5, 4, 2}, "c": {4, 3, 0}}}
	var jobs []workload.Job
	for i := 0; i < 30; i++ {
		j := workload.Job{Model: []string{"a", "b", "c"}[i%3], Iterations: 1e6}
		if i%5 == 0 {
			j.Weight = 5
		}
		jobs = append(jobs, j)
	}
	for _, clean := range []bool{false, true} {
		for _, wf := range []bool{false, true} {
			in := input(f, []float64{4, 2, 6}, jobs)
			al, err := (&fairAlloc{clean: clean, waterFill: wf, threshold: 1, run: &lpRunner{}}).allocate(in)
			if err != nil {
				t.Fatal(err)
			}
			rows := al.perJob(len(in.jobs), 3)
			for m, p := range in.jobs {
				if p.weight != 5 {
					continue
				}
				total := sum(rows[m])
				if total < 0.1 {
					t.Fatalf("clean=%v wf=%v: weight-5 job %d gets only %v", clean, wf, m, total)
				}
				for j := range rows[m] {
					if rows[m][j] > 0.7*total {
						t.Errorf("clean=%v wf=%v: weight-5 job %d is piled onto %s: %v", clean, wf, m, in.types[j], rows[m])
					}
					if clean {
						// Even over usable types where that fits; here the
						// K80-less jobs overfill V100 and P100, so the LP
						// keeps every usable share at least half its even share.
						even := total * in.count[j] / usable(&p, in.count)
						if p.thr[j] > 0 && rows[m][j] < 0.5*even {
							t.Errorf("clean=%v wf=%v: weight-5 job %d (%s) gets %v, less than half its even %v on %s", clean, wf, m, p.job.Model, rows[m], even, in.types[j])
						}
						continue
					}
					if want := total * in.count[j] / 12; !near(rows[m][j], want, 1e-6) {
						t.Errorf("weight-5 job %d (%s) gets %v, want %v on %s (every type, by its GPUs)", m, p.job.Model, rows[m], want, in.types[j])
					}
				}
			}
		}
	}
}
