package engine_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/sjf"
	"github.com/schedlab/schedlab/sim/workload"
)

func mkCluster(t testing.TB, servers, gpus int, memGB float64) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: servers, GPUs: gpus, GPUType: "V100", GPUMemoryGB: memGB}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// job is shorthand for a test job: name, arrival, GPUs, solo duration.
func job(name string, arrival float64, gpus int, dur float64) workload.Job {
	return workload.Job{Name: name, ArrivalS: arrival, GPUs: gpus, DurationS: dur, Model: "m"}
}

func prepare(t testing.TB, m perf.Model, c *cluster.Cluster, jobs ...workload.Job) []workload.Job {
	t.Helper()
	jobs, err := workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := perf.Prepare(m, c, jobs); err != nil {
		t.Fatal(err)
	}
	return jobs
}

func run(t testing.TB, cfg engine.Config) *engine.Result {
	t.Helper()
	cfg.Paranoid = true
	res, err := engine.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func jcts(res *engine.Result) map[string]float64 {
	out := map[string]float64{}
	for _, r := range res.Jobs {
		out[r.Name] = r.JCT()
	}
	return out
}

func expectJCTs(t *testing.T, res *engine.Result, want map[string]float64) {
	t.Helper()
	got := jcts(res)
	for name, w := range want {
		if math.Abs(got[name]-w) > 1e-9 {
			t.Errorf("JCT of %s = %v, want %v", name, got[name], w)
		}
	}
}

// Hand-computed: one 4-GPU server. j1 (2 GPUs, 100 s) starts at 0. j2 (4
// GPUs) arrives at 10 and waits. j3 (2 GPUs, 30 s) arrives at 20.
// Backfilling starts j3 at once (ends 50); j2 starts when j1 ends at 100.
// Strict FIFO makes j3 wait for j2 (150–180).
func TestGoldenFIFO(t *testing.T) {
	c := mkCluster(t, 1, 4, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := func() []workload.Job {
		return prepare(t, m, c, job("j1", 0, 2, 100), job("j2", 10, 4, 50), job("j3", 20, 2, 30))
	}
	res := run(t, engine.Config{Cluster: c, Jobs: jobs(), Perf: m, Policy: fifo.New(fifo.Params{Backfill: true})})
	expectJCTs(t, res, map[string]float64{"j1": 100, "j2": 140, "j3": 30})
	res = run(t, engine.Config{Cluster: c, Jobs: jobs(), Perf: m, Policy: fifo.New(fifo.Params{Backfill: false})})
	expectJCTs(t, res, map[string]float64{"j1": 100, "j2": 140, "j3": 160})
	if q := res.Jobs[2].QueueS; q != 130 {
		t.Errorf("strict FIFO: j3 queued %v s, want 130", q)
	}
}

// Hand-computed: one 2-GPU server; j1 (2 GPUs, 100 s) holds it until 100.
// Then j2 (1 GPU, 50 s), j3 (1 GPU, 10 s) and j4 (2 GPUs, 5 s) wait.
// FIFO at 100 starts j2 and j3; j4 must wait for j2 (150–155).
// SJF at 100 starts j4 (100–105), then j3 (105–115) and j2 (105–155).
func TestGoldenSJFBeatsFIFO(t *testing.T) {
	c := mkCluster(t, 1, 2, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	mk := func() []workload.Job {
		return prepare(t, m, c, job("j1", 0, 2, 100), job("j2", 1, 1, 50), job("j3", 2, 1, 10), job("j4", 3, 2, 5))
	}
	f := run(t, engine.Config{Cluster: c, Jobs: mk(), Perf: m, Policy: fifo.New(fifo.Params{Backfill: true})})
	expectJCTs(t, f, map[string]float64{"j1": 100, "j2": 149, "j3": 108, "j4": 152})
	s := run(t, engine.Config{Cluster: c, Jobs: mk(), Perf: m, Policy: sjf.New(sjf.Params{Key: "duration", Backfill: true})})
	expectJCTs(t, s, map[string]float64{"j1": 100, "j4": 102, "j3": 113, "j2": 154})
}

// scripted is a policy whose decisions are a test's closure.
type scripted struct {
	opts   engine.Options
	decide func(s *engine.State, tr []engine.Trigger) error
}

func (p *scripted) Options() engine.Options { return p.opts }
func (p *scripted) Decide(s *engine.State, tr []engine.Trigger) error {
	return p.decide(s, tr)
}

// startAllOn starts every arriving job on the given GPUs.
func startAllOn(gpus ...cluster.GPUID) func(s *engine.State, tr []engine.Trigger) error {
	return func(s *engine.State, tr []engine.Trigger) error {
		for _, t := range tr {
			if t.Kind == engine.Arrival {
				if err := s.Start(t.Job, gpus, engine.ActionOptions{}); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// Two 100 s jobs share one GPU with a uniform slowdown of 2. j2 arrives at
// 50: j1 ran alone for 50 s (50 iterations), then both run at 0.5/s; j1's
// last 50 take 100 s (done at 150), by when j2 did 50 and finishes its
// last 50 alone at 200.
func TestGoldenInterference(t *testing.T) {
	c := mkCluster(t, 1, 1, 0)
	m := &perf.Composite{Base: perf.NewConstant(perf.ConstantParams{}),
		Factors: []perf.Factor{perf.NewInterference(perf.InterferenceSpec{Uniform: 2})}}
	jobs := prepare(t, m, c, job("j1", 0, 1, 100), job("j2", 50, 1, 100))
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m,
		Policy: &scripted{opts: engine.Options{MaxJobsPerGPU: 2}, decide: startAllOn(0)}})
	expectJCTs(t, res, map[string]float64{"j1": 150, "j2": 150})
	if u := res.Utilization; u[len(u)-1].BusyGPUs != 0 || maxSlots(u) != 2 {
		t.Errorf("utilization steps %+v", u)
	}
	if len(res.Intervals) != 2 {
		t.Errorf("want 2 intervals on GPU 0, got %+v", res.Intervals)
	}
}

func maxSlots(u []engine.UtilPoint) int {
	m := 0
	for _, p := range u {
		m = max(m, p.Slots)
	}
	return m
}

// A 200 s job is preempted at 50 and restarted at once with a 10 s restart
// overhead; at 100 it migrates with a 5 s overhead. It loses 15 s: JCT 215.
func TestGoldenOverheads(t *testing.T) {
	c := mkCluster(t, 1, 2, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := prepare(t, m, c, job("j1", 0, 1, 200))
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
		switch s.Now() {
		case 0:
			if err := s.Start(0, []cluster.GPUID{0}, engine.ActionOptions{}); err != nil {
				return err
			}
			return s.WakeAt(50)
		case 50:
			if r := s.Remaining(0); math.Abs(r-150) > 1e-9 {
				t.Errorf("remaining at 50 = %v, want 150", r)
			}
			if err := s.Preempt(0); err != nil {
				return err
			}
			if err := s.Start(0, []cluster.GPUID{0}, engine.ActionOptions{}); err != nil {
				return err
			}
			return s.WakeAt(100)
		case 100:
			return s.Migrate(0, []cluster.GPUID{1}, engine.ActionOptions{})
		}
		return nil
	}}
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p,
		Overheads: engine.Overheads{RestartS: 10, MigrationS: 5}})
	r := res.Jobs[0]
	if r.JCT() != 215 || r.Preemptions != 1 || r.Migrations != 1 || r.Starts != 2 {
		t.Fatalf("record %+v", r)
	}
	if r.GPUSeconds != 215 {
		t.Errorf("GPU-seconds %v, want 215 (overheads hold the GPU)", r.GPUSeconds)
	}
}

func TestUnschedulableJobIsReportedNotAwaited(t *testing.T) {
	c := mkCluster(t, 2, 4, 16)
	m := perf.NewConstant(perf.ConstantParams{})
	big := job("big", 0, 9, 10)
	fat := job("fat", 0, 1, 10)
	fat.MemoryGB = 32
	jobs := prepare(t, m, c, big, fat, job("ok", 5, 1, 10))
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: fifo.New(fifo.Params{Backfill: true})})
	for _, r := range res.Jobs {
		switch r.Name {
		case "big", "fat":
			if r.Status != engine.Unschedulable || r.Reason == "" {
				t.Errorf("%s: status %v reason %q", r.Name, r.Status, r.Reason)
			}
		case "ok":
			if r.JCT() != 10 {
				t.Errorf("ok: JCT %v", r.JCT())
			}
		}
	}
}

func TestErrorsAreClear(t *testing.T) {
	c := mkCluster(t, 1, 2, 16)
	m := perf.NewConstant(perf.ConstantParams{})
	cases := []struct {
		name   string
		jobs   []workload.Job
		policy engine.Policy
		cfg    func(*engine.Config)
		want   string
	}{
		{"idle policy", []workload.Job{job("a", 0, 1, 10)},
			&scripted{decide: func(*engine.State, []engine.Trigger) error { return nil }}, nil,
			"1 jobs are pending on an idle cluster"},
		{"gang size", []workload.Job{job("a", 0, 2, 10)}, &scripted{decide: startAllOn(0)}, nil,
			"start job a: it is gang-scheduled on 2 GPUs but was given 1"},
		{"sharing limit", []workload.Job{job("a", 0, 1, 10), job("b", 0, 1, 10)}, &scripted{decide: startAllOn(1)}, nil,
			"start job b: GPU 1 would hold 2 jobs, over the sharing limit of 1"},
		{"no such GPU", []workload.Job{job("a", 0, 1, 10)}, &scripted{decide: startAllOn(7)}, nil,
			"GPU 7 does not exist"},
		{"memory", []workload.Job{{Name: "a", GPUs: 1, DurationS: 10, MemoryGB: 10}, {Name: "b", GPUs: 1, DurationS: 10, MemoryGB: 10}},
			&scripted{opts: engine.Options{MaxJobsPerGPU: 2}, decide: startAllOn(0)}, nil,
			"GPU 0 has 6 GB free but the job needs 10 GB"},
		{"event budget", []workload.Job{job("a", 0, 1, 1e9)},
			&scripted{decide: func(s *engine.State, tr []engine.Trigger) error { return s.WakeAt(s.Now() + 1) }},
			func(c *engine.Config) { c.Budgets.MaxEvents = 1000 }, "more than its budget of 1000 events"},
		{"time budget", []workload.Job{job("a", 0, 1, 1e9)}, fifo.New(fifo.Params{}),
			func(c *engine.Config) { c.Budgets.MaxTimeS = 3600 }, "passed the budget of 3600s"},
		{"wake in the past", []workload.Job{job("a", 5, 1, 10)},
			&scripted{decide: func(s *engine.State, tr []engine.Trigger) error { return s.WakeAt(1) }}, nil,
			"wake-up at 1 is not after the current time 5"},
		{"start before arrival", []workload.Job{job("a", 0, 1, 10), job("b", 10, 1, 10)},
			&scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
				return s.Start(1, []cluster.GPUID{1}, engine.ActionOptions{})
			}}, nil,
			"start job b: it is t=0, before its arrival at t=10"},
		{"livelock", []workload.Job{job("a", 0, 1, 100), job("b", 0, 1, 100)},
			&scripted{decide: restartForever}, func(c *engine.Config) { c.Overheads.RestartS = 30 },
			"no progress (a livelock): 10000 events over 100000s (1.2 days) of simulated time with jobs on GPUs since t=10s finished no job and advanced none; 0 of 2 jobs finished (2 running, 0 pending, 0 not yet arrived)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := engine.Config{Cluster: c, Jobs: prepare(t, m, c, tc.jobs...), Perf: m, Policy: tc.policy}
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			_, err := engine.Run(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// restartForever starts every pending job on the first free GPU, and every
// 10 s preempts and restarts every running job: with a restart overhead
// longer than 10 s no job ever advances after its first 10 s.
func restartForever(s *engine.State, _ []engine.Trigger) error {
	for _, id := range s.Running() {
		gpus := append([]cluster.GPUID(nil), s.GPUsOf(id)...)
		if err := s.Preempt(id); err != nil {
			return err
		}
		if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil {
			return err
		}
	}
	for _, id := range s.Pending() {
		if err := s.Start(id, firstEmpty(s, 1), engine.ActionOptions{}); err != nil {
			return err
		}
	}
	return s.WakeAt(s.Now() + 10)
}

// The livelock guard leaves legitimate stretches without settled progress
// alone, with the policy waking every second throughout: job a running
// undisturbed for 20,000 s (nothing settles it), job b in a restart-like
// overhead of 50,000 s (nothing advances), and an idle cluster waiting
// 220,000 wake-ups for job c.
func TestLongStretchesWithoutProgressAreNoLivelock(t *testing.T) {
	c := mkCluster(t, 1, 1, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
		for _, id := range s.Pending() {
			o := engine.ActionOptions{NoOverhead: true}
			if s.Job(id).Name == "b" {
				o = engine.ActionOptions{OverheadS: 50_000}
			}
			if err := s.Start(id, []cluster.GPUID{0}, o); err != nil {
				return err
			}
		}
		if s.NumFinished() < s.NumJobs() {
			return s.WakeAt(s.Now() + 1)
		}
		return nil
	}}
	jobs := prepare(t, m, c, job("a", 0, 1, 20_000), job("b", 30_000, 1, 100), job("c", 300_000, 1, 100))
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p})
	expectJCTs(t, res, map[string]float64{"a": 20_000, "b": 50_100, "c": 100})
	if res.Stats.Events < 300_000 {
		t.Errorf("only %d events: the test needs long stretches of wake-ups", res.Stats.Events)
	}
}

// Thousands of arrivals before a round-based policy's first round are a
// queue, not a livelock: 12,000 jobs arrive 1 ms apart, and the policy
// starts jobs only at its rounds, every 60 s, so 12,000 events pass with
// jobs pending and none running before anything can progress. Every job
// must finish (the old guard called it a livelock at the 10,000th
// arrival).
func TestDenseArrivalsBeforeARoundAreNoLivelock(t *testing.T) {
	c := mkCluster(t, 8, 8, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := make([]workload.Job, 12_000)
	for i := range jobs {
		jobs[i] = job(fmt.Sprintf("j%d", i), float64(i)/1000, 1, 30)
	}
	p := &scripted{opts: engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)},
		decide: func(s *engine.State, tr []engine.Trigger) error {
			round := math.Floor(s.Now()/60) * 60
			if s.Now() == round && round > 0 {
				free := firstEmpty(s, s.Cluster().NumGPUs())
				for _, id := range s.Pending()[:min(len(free), s.NumPending())] {
					if err := s.Start(id, free[:1], engine.ActionOptions{}); err != nil {
						return err
					}
					free = free[1:]
				}
			}
			if s.NumFinished() < s.NumJobs() {
				return s.WakeAt(round + 60)
			}
			return nil
		}}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: prepare(t, m, c, jobs...), Perf: m, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Jobs {
		if r.Status != engine.Finished {
			t.Fatalf("job %s: %v", r.Name, r.Status)
		}
	}
	// 12,000 jobs, 64 at a time, one round each: the last round is the 188th.
	if last := res.Jobs[len(jobs)-1].FinishS; last != 188*60+30 {
		t.Errorf("the last job finished at %v, want %v", last, 188*60+30)
	}
}

// A policy that starts jobs, preempts them before their restart overhead
// ends and leaves the cluster idle in between is still a livelock: the
// idle intervals do not count, but they do not wipe out the held ones.
func TestLivelockWithIdleGapsIsCaught(t *testing.T) {
	c := mkCluster(t, 1, 2, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
		if running := s.Running(); len(running) > 0 {
			for _, id := range running {
				if err := s.Preempt(id); err != nil {
					return err
				}
			}
		} else {
			for _, id := range s.Pending() {
				if err := s.Start(id, firstEmpty(s, 1), engine.ActionOptions{OverheadS: 30}); err != nil {
					return err
				}
			}
		}
		return s.WakeAt(s.Now() + 10)
	}}
	jobs := prepare(t, m, c, job("a", 0, 1, 100), job("b", 0, 1, 100))
	_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p})
	want := "no progress (a livelock): 10000 events over 100000s (1.2 days) of simulated time with jobs on GPUs since t=0s"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got error %v, want it to contain %q", err, want)
	}
}

func TestCancel(t *testing.T) {
	c := mkCluster(t, 1, 1, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := prepare(t, m, c, job("a", 0, 1, 1e12))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error { return s.WakeAt(s.Now() + 1) }}
	_, err := engine.Run(ctx, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, ProgressEvery: 10})
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("got %v", err)
	}
}

func TestEventsAtOneInstantAreBatched(t *testing.T) {
	c := mkCluster(t, 1, 8, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	var js []workload.Job
	for i := 0; i < 8; i++ {
		js = append(js, job(string(rune('a'+i)), 0, 1, 10))
	}
	calls := 0
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
		calls++
		if s.Now() == 0 && len(tr) != 8 {
			t.Errorf("got %d triggers at t=0, want 8", len(tr))
		}
		for i, t := range tr {
			if t.Kind == engine.Arrival {
				if err := s.Start(t.Job, []cluster.GPUID{cluster.GPUID(i)}, engine.ActionOptions{}); err != nil {
					return err
				}
			}
		}
		return nil
	}}
	run(t, engine.Config{Cluster: c, Jobs: prepare(t, m, c, js...), Perf: m, Policy: p})
	if calls != 2 { // once for the 8 arrivals, once for the 8 completions
		t.Errorf("policy called %d times, want 2", calls)
	}
}

// With a measurement window the run ends once the window's jobs finish.
func TestWindowEndsTheRun(t *testing.T) {
	c := mkCluster(t, 1, 1, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := prepare(t, m, c, job("a", 0, 1, 10), job("b", 1, 1, 10), job("c", 2, 1, 10), job("d", 3, 1, 1000))
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: fifo.New(fifo.Params{Backfill: true}),
		Window: engine.Window{From: 1, To: 3}})
	if res.Stats.EndS != 30 || res.Jobs[2].FinishS != 30 || res.Jobs[3].Status == engine.Finished {
		t.Fatalf("end %v, c finished at %v, d %v", res.Stats.EndS, res.Jobs[2].FinishS, res.Jobs[3].Status)
	}
	_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m,
		Policy: fifo.New(fifo.Params{}), Window: engine.Window{From: 2, To: 9}})
	if err == nil || !strings.Contains(err.Error(), "outside the 4 jobs") {
		t.Fatalf("bad window: %v", err)
	}
}

// GPU-seconds count every GPU a job holds. One 4-GPU server: a (4 GPUs,
// 100 s) starts at 0; b (2 GPUs, 50 s) arrives at 20, a is preempted
// after 20 s (80 s left) and b runs 20–70 on GPUs 0 and 1; a restarts on
// all four at 70 with a 10 s restart overhead (held, no progress) and
// runs its last 80 s 80–160. a: 4×20 + 4×90 = 440 GPU-seconds, 110 s
// holding GPUs, 50 s waiting; b: 2×50 = 100.
func TestGoldenGPUSecondsOfGangJobs(t *testing.T) {
	c := mkCluster(t, 1, 4, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	jobs := prepare(t, m, c, job("a", 0, 4, 100), job("b", 20, 2, 50))
	all := []cluster.GPUID{0, 1, 2, 3}
	p := &scripted{decide: func(s *engine.State, tr []engine.Trigger) error {
		switch s.Now() {
		case 0:
			return s.Start(0, all, engine.ActionOptions{})
		case 20:
			if got := s.Info(0).AttainedGPU; got != 80 {
				t.Errorf("a attained %v GPU-seconds by t=20, want 80", got)
			}
			if err := s.Preempt(0); err != nil {
				return err
			}
			return s.Start(1, []cluster.GPUID{0, 1}, engine.ActionOptions{})
		case 70:
			return s.Start(0, all, engine.ActionOptions{})
		}
		return nil
	}}
	res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Overheads: engine.Overheads{RestartS: 10}})
	expectJCTs(t, res, map[string]float64{"a": 160, "b": 50})
	want := map[string][3]float64{"a": {440, 110, 50}, "b": {100, 50, 0}}
	for _, r := range res.Jobs {
		w := want[r.Name]
		if r.GPUSeconds != w[0] || r.RunS != w[1] || r.WaitS != w[2] {
			t.Errorf("%s: %v GPU-seconds, %v s running, %v s waiting; want %v", r.Name, r.GPUSeconds, r.RunS, r.WaitS, w)
		}
	}
	if r := res.Jobs[0]; r.Preemptions != 1 || r.Starts != 2 {
		t.Errorf("a: %d preemptions, %d starts", r.Preemptions, r.Starts)
	}
}

// A policy's Log past the log's cap counts each entry as dropped, and
// with the log off counts none, even with a cap below zero.
func TestLogPastCapCountsDropped(t *testing.T) {
	c := mkCluster(t, 1, 1, 0)
	m := perf.NewConstant(perf.ConstantParams{})
	logThrice := func(s *engine.State, tr []engine.Trigger) error {
		for _, t := range tr {
			for i := 0; i < 3; i++ {
				s.Log(t.Job, "entry %d", i)
			}
		}
		return startAllOn(0)(s, tr)
	}
	for _, noLog := range []bool{false, true} {
		jobs := prepare(t, m, c, job("j1", 0, 1, 10), job("j2", 20, 1, 10))
		capped := 4
		if noLog {
			capped = -1 // past the cap at once: still none counted
		}
		res := run(t, engine.Config{Cluster: c, Jobs: jobs, Perf: m, MaxLogEntries: capped, NoLog: noLog,
			Policy: &scripted{opts: engine.Options{Subscribe: engine.Mask(engine.Arrival)}, decide: logThrice}})
		kept, dropped := len(res.Log), res.Stats.DroppedLog
		if want := int64(2); noLog {
			if kept != 0 || dropped != 0 {
				t.Errorf("log off: %d entries kept, %d dropped, want none", kept, dropped)
			}
		} else if kept != 4 || dropped != want {
			t.Errorf("%d entries kept and %d dropped, want 4 and %d", kept, dropped, want)
		}
	}
}
