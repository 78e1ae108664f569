//go:build !noscript

package script_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
)

const sjfScript = "def priority(job, now):\n    return job.solo_s\n"

// withPolicies returns the scenario document doc with its policies
// replaced.
func withPolicies(t *testing.T, doc []byte, policies ...map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	m["policies"] = policies
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func scriptSpec(label, source string) map[string]any {
	return map[string]any{"name": "script", "label": label, "params": map[string]any{"source": source}}
}

// runAll runs every policy of a scenario and returns each run's job
// records by label.
func runAll(t *testing.T, doc []byte) map[string][]engine.JobRecord {
	t.Helper()
	sc, err := scenario.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]engine.JobRecord{}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Policy, r.Err)
		}
		out[r.Policy] = r.Result.Jobs
	}
	return out
}

// sameJobs fails unless two runs recorded the same jobs, field by field.
func sameJobs(t *testing.T, what string, a, b []engine.JobRecord) {
	t.Helper()
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%s: %d and %d job records", what, len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("%s: job %s differs:\n%+v\n%+v", what, a[i].Name, a[i], b[i])
		}
	}
}

// A priority of job.solo_s is SJF by duration, job for job: on the
// default teaching scenario and on a 1,000-job generated workload.
func TestSoloPriorityIsSJF(t *testing.T) {
	sjf := map[string]any{"name": "sjf", "params": map[string]any{"key": "duration"}}
	base, ok := scenarios.Read("fifo-vs-sjf")
	if !ok {
		t.Fatal("no scenario fifo-vs-sjf")
	}
	big := []byte(`{"name": "big", "cluster": {"servers": [{"count": 8, "gpus": 4, "gpu_type": "V100"}]},
		"workload": {"generator": {"kind": "poisson", "jobs": 1000, "jobs_per_hour": 40,
			"gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 2, "weight": 0.2}, {"gpus": 4, "weight": 0.2}, {"gpus": 8, "weight": 0.1}],
			"duration": {"dist": "lognormal", "mean_s": 3600, "sigma": 1.2, "min_s": 60}}},
		"policies": [{"name": "fifo"}]}`)
	for name, doc := range map[string][]byte{"fifo-vs-sjf": base, "1000 jobs": big} {
		runs := runAll(t, withPolicies(t, doc, sjf, scriptSpec("mine", sjfScript)))
		sameJobs(t, name, runs["SJF"], runs["mine"])
		// and it is not FIFO: the comparison can fail
		fifo := runAll(t, withPolicies(t, doc, map[string]any{"name": "fifo"}))["FIFO"]
		if reflect.DeepEqual(fifo, runs["mine"]) {
			t.Errorf("%s: FIFO gives the same records as the script; the test shows nothing", name)
		}
	}
}

// The priority of FIFO by arrival, computed at every decision because it
// reads now, gives FIFO's results: keys recomputed keep their order.
func TestRekeyedPriorityKeepsOrder(t *testing.T) {
	base, _ := scenarios.Read("fifo-vs-sjf")
	src := "def priority(job, now):\n    return now - job.waited_s  # = arrival time while it waits\n"
	runs := runAll(t, withPolicies(t, base, map[string]any{"name": "fifo"}, scriptSpec("mine", src)))
	sameJobs(t, "fifo-vs-sjf", runs["FIFO"], runs["mine"])
}

// A priority that changes as jobs wait is re-ranked at each decision: an
// aging key (waited time counts against the solo time) lets a long job
// overtake short ones that arrived later, unlike SJF.
func TestAgingPriorityIsRecomputed(t *testing.T) {
	doc := []byte(`{"name": "aging", "cluster": {"servers": [{"count": 1, "gpus": 1, "gpu_type": "V100"}]},
		"workload": {"jobs": [
			{"id": "first", "arrival_s": 0, "model": "m", "gpus": 1, "duration_s": 1000},
			{"id": "long", "arrival_s": 1, "model": "m", "gpus": 1, "duration_s": 500},
			{"id": "short-a", "arrival_s": 900, "model": "m", "gpus": 1, "duration_s": 100}]},
		"policies": [{"name": "sjf"}]}`)
	// At t=1000 long has waited 999 s: 500 - 999 < 100 - 100, so it goes
	// first; SJF runs short-a first.
	src := "def priority(job, now):\n    return job.solo_s - job.waited_s\n"
	runs := runAll(t, withPolicies(t, doc, map[string]any{"name": "sjf"}, scriptSpec("aging", src)))
	start := func(recs []engine.JobRecord, name string) float64 {
		for _, r := range recs {
			if r.Name == name {
				return r.FirstStartS
			}
		}
		t.Fatalf("no job %s", name)
		return 0
	}
	if got := start(runs["SJF"], "short-a"); got != 1000 {
		t.Errorf("SJF starts short-a at %v, want 1000", got)
	}
	if got := start(runs["aging"], "long"); got != 1000 {
		t.Errorf("the aging script starts long at %v, want 1000 (it has waited 999 s)", got)
	}
	if got := start(runs["aging"], "short-a"); got != 1500 {
		t.Errorf("the aging script starts short-a at %v, want 1500", got)
	}
}

// Mistakes show at the source field with their line and, for a typo, a
// near name.
func TestCheckNamesLineAndNearName(t *testing.T) {
	for _, c := range []struct {
		src, want string
	}{
		{"def priority(job, now):\n    return job.sollo_s\n", "script line 2 (the priority of job made-up-1 at 5.0 min): job has no .sollo_s field or method (did you mean .solo_s?)"},
		{"def priority(job, now):\n    return jobb.solo_s\n", "script line 2: jobb is not defined (did you mean job?)"},
		{"def priority(job, now)\n    return 1\n", "script line 1: the line ends too soon: got newline, want ':'"},
		{"def priority(job):\n    return 1\n", "script line 1: priority takes exactly 2 parameter(s): def priority(job, now)"},
		{"def prority(job, now):\n    return 1\n", "did you mean priority instead of prority?"},
		{"backfil = False\ndef priority(job, now):\n    return 1\n", "script line 1: backfil is not a setting (did you mean backfill?)"},
		{"placement = \"tight\"\ndef priority(job, now):\n    return 1\n", `script line 1: placement must be one of "consolidated", "strict", got "tight"`},
		{"def priority(job, now):\n    if job.gpus > 1:\n        return 1\n", "script line 1 (the priority of job made-up-3 at 5.0 min): priority returned None: does a branch end without return?"},
		{"def priority(job, now):\n    return 'a'\n", `priority returned string "a"`},
		{"def priority(job, now):\n    return job.remaining_s\n", "job.remaining_s is hidden"},
		{"def priority(job, now):\n    return math.log(job.attained_s)\n", "script line 2 (the priority of job made-up-3 at 5.0 min): math.log needs a number above 0, got 0"},
		{"def decide(state):\n    return {'start': state.pending[0]}\n", `decide returned "start": job; give a list`},
		{"def decide(state):\n    return {'start': [(j, [0]) for j in state.pending]}\n", "script line 1 (decide at 5.0 min): decide asked to start job made-up-3 on GPU 0, which job made-up-1 holds"},
		{"def decide(state):\n    return {'start': [(j, [4, 4]) for j in state.pending if j.gpus == 1]}\n", "asked to start job made-up-3 on 2 GPU(s), but it needs 1"},
		{"def decide(state):\n    return {'start': [(j, [2, 3, 4, 5, 6, 6]) for j in state.pending if j.gpus == 6]}\n", "asked to start job made-up-4 on GPU 6 twice"},
		{"def decide(state):\n    return {'start': [(j, [2, 3, 4, 5, 6, 7]) for j in state.pending if j.gpus == 6]}\n", "-"},
		{"def decide(state):\n    return None\n", "-"}, // stuck, which only a run shows (TestRun)
		{"def decide(state):\n    return {'preempt': state.pending}\n", "asked to preempt job made-up-3, which is pending, not running"},
		{"def decide(state):\n    return {'start': state.running}\n", "asked to start job made-up-1, which is running, not waiting"},
		{"def decide(state):\n    return {'start': [(state.pending[0], [2])], 'preempt': [j for j in state.running if j.gpus == 2 and 0 in j.gpu_ids]}\n", "-"},
	} {
		p := script.Params{Source: c.src}
		ps := p.Check()
		if c.want == "-" { // passes
			if ps != nil {
				t.Errorf("%q: %v", c.src, ps)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Path != "source" || !strings.Contains(ps[0].Msg, c.want) {
			t.Errorf("%q:\n got %v\nwant a problem at source containing %q", c.src, ps, c.want)
		}
	}
	for _, e := range script.Examples {
		p := e.Params()
		if ps := p.Check(); ps != nil {
			t.Errorf("example %s: %v", e.Name, ps)
		}
	}
}

// A loop that never ends is stopped by the step budget, quickly, with
// the line and the budget named. The time is the CPU time of the stop
// where the machine tells it (natively), else the wall time, logged.
func TestEndlessLoopStops(t *testing.T) {
	src := "def priority(job, now):\n    n = 0\n    while True:\n        n += 1\n    return n\n"
	c0, cpuOK := cpuTime()
	t0 := time.Now()
	err := script.TestRun(script.Params{Source: src, MaxSteps: script.DefaultMaxSteps})
	wall := time.Since(t0)
	c1, _ := cpuTime()
	want := "script line 4 (the priority of job made-up-1 at 0.0 s): stopped after 500,000 steps, the budget of one call (parameter max_steps)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	t.Logf("stopped in %v of wall time, %v of CPU (known: %v): %v", wall, c1-c0, cpuOK, err)
	if cpuOK && c1-c0 > 2*time.Second {
		t.Errorf("the loop ran %v of CPU before it was stopped", c1-c0)
	}
	err = script.TestRun(script.Params{Source: src, MaxSteps: 5000})
	if err == nil || !strings.Contains(err.Error(), "stopped after 5,000 steps") {
		t.Errorf("max_steps 5000: %v", err)
	}
}

// A run's error names the line, the job and the time. The made-up test
// run of the check has no 8-GPU job, so the script passes the check and
// fails in the run.
func TestRunErrorNamesJob(t *testing.T) {
	base, _ := scenarios.Read("fifo-vs-sjf")
	src := "def priority(job, now):\n    if job.gpus == 8:\n        return 1 / 0\n    return 1\n"
	sc, err := scenario.Parse(withPolicies(t, base, scriptSpec("mine", src)))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(rep.Runs[0].Err)
	if !strings.Contains(got, "script line 3 (the priority of job ") || !strings.HasSuffix(got, "): floating-point division by zero") {
		t.Errorf("got %q", got)
	}
}

// logOf runs a scenario's first policy and returns its decision log, one
// "t: text" line per entry.
func logOf(t *testing.T, doc []byte) []string {
	t.Helper()
	sc, err := scenario.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	var out []string
	for i := range r.Result.Log {
		d := &r.Result.Log[i]
		out = append(out, fmt.Sprintf("%g: %s", d.TimeS, d.Msg()))
	}
	return out
}

// What a script reads, against values worked out by hand. One server of
// two GPUs; a (2 GPUs, 100 s) arrives at 0, b (1 GPU, 50 s) at 10. A
// decide with round_s 30 preempts a at t=30 when b has waited 20 s, then
// runs b alone; a resumes at 80 when b ends.
func TestFieldsByHand(t *testing.T) {
	src := `round_s = 30

def show(j):
    return "%s att=%g gpu_s=%g wait=%g run=%s pre=%d left=%g ids=%s" % (
        j.id, j.attained_s, j.attained_gpu_s, j.waited_s, j.running, j.preemptions, j.remaining_s, j.gpu_ids)

def decide(state):
    for j in state.running + state.pending:
        print(show(j))
    print("free=%d total=%d by_type=%s servers=%s" % (state.free_gpus, state.total_gpus, state.free_by_type,
        [(s.id, s.gpu_type, s.gpus, s.free, s.free_gpu_ids) for s in state.servers]))
    if state.now == 30:
        return {"preempt": [j for j in state.running if j.gpus == 2], "start": [j.id for j in state.pending]}
    if state.now < 30:
        return {"start": [j for j in state.pending if j.gpus == 2]}
    return {"start": state.pending}
`
	doc := []byte(`{"name": "fields", "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "T4"}]},
		"workload": {"jobs": [
			{"id": "a", "arrival_s": 0, "model": "m", "gpus": 2, "duration_s": 100},
			{"id": "b", "arrival_s": 10, "model": "m", "gpus": 1, "duration_s": 50}]},
		"policies": [{"name": "script", "params": {"oracle": true, "source": ` + strconvQuote(src) + `}}]}`)
	log := strings.Join(logOf(t, doc), "\n")
	for _, want := range []string{
		"0: script prints: a att=0.0 gpu_s=0.0 wait=0.0 run=False pre=0 left=100.0 ids=[]",
		`0: script prints: free=2 total=2 by_type={"T4": 2} servers=[(0, "T4", 2, 2, [0, 1])]`,
		"10: script prints: a att=10.0 gpu_s=20.0 wait=0.0 run=True pre=0 left=90.0 ids=[0, 1]",
		"10: script prints: b att=0.0 gpu_s=0.0 wait=0.0 run=False pre=0 left=50.0 ids=[]",
		"30: script prints: a att=30.0 gpu_s=60.0 wait=0.0 run=True pre=0 left=70.0 ids=[0, 1]",
		"30: script prints: b att=0.0 gpu_s=0.0 wait=20.0 run=False pre=0 left=50.0 ids=[]",
		"60: script prints: b att=30.0 gpu_s=30.0 wait=20.0 run=True pre=0 left=20.0 ids=[0]",
		"60: script prints: a att=30.0 gpu_s=60.0 wait=30.0 run=False pre=1 left=70.0 ids=[]",
		`60: script prints: free=1 total=2 by_type={"T4": 1} servers=[(0, "T4", 2, 1, [1])]`,
		"80: script prints: a att=30.0 gpu_s=60.0 wait=50.0 run=False pre=1 left=70.0 ids=[]",
		"90: script prints: a att=40.0 gpu_s=80.0 wait=50.0 run=True pre=1 left=60.0 ids=[0, 1]",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("log:\n%s", log)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A script can read every field of every value: none panics or fails.
func TestEveryFieldReads(t *testing.T) {
	src := `round_s = 45

def touch(x):
    for name in dir(x):
        getattr(x, name)

def decide(state):
    touch(state)
    touch(math)
    for j in state.pending + state.running:
        touch(j)
    for s in state.servers:
        touch(s)
    return {"start": state.pending}
`
	if err := script.TestRun(script.Params{Source: src, Oracle: true}); err != nil {
		t.Fatal(err)
	}
}

// The check at the field stops a loop sooner than a run would, and says
// so; a smaller max_steps of the user's is kept.
func TestCheckStopsLoopSooner(t *testing.T) {
	src := "def priority(job, now):\n    n = 0\n    while True:\n        n += 1\n"
	p := script.Params{Source: src}
	ps := p.Check()
	if len(ps) != 1 || !strings.Contains(ps[0].Msg, "stopped after 100,000 steps in the check's made-up test") {
		t.Errorf("got %v", ps)
	}
	p.MaxSteps = 1000
	if ps := p.Check(); len(ps) != 1 || !strings.Contains(ps[0].Msg, "stopped after 1,000 steps, the budget of one call") {
		t.Errorf("max_steps 1000: got %v", ps)
	}
}

// A decide that never starts anything passes the check (it runs no
// simulation) and is caught by TestRun, which runs one.
func TestTestRunSeesAStuckDecide(t *testing.T) {
	err := script.TestRun(script.Params{Source: "def decide(state):\n    return None\n"})
	if err == nil || !strings.Contains(err.Error(), "the run failed: stuck") {
		t.Errorf("got %v", err)
	}
}
