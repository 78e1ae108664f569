package gavel_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
	_ "github.com/schedlab/schedlab/sim/policy/gavel"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/solver/lp"
	"github.com/schedlab/schedlab/sim/solver/lp/lptest"
	"github.com/schedlab/schedlab/sim/workload"
)

func parse(t *testing.T, doc string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// On a static set of jobs the mechanism's rounds converge to the target
// allocation: each job's share of time on each GPU type approaches X.
func TestMechanismConvergesToX(t *testing.T) {
	sc := parse(t, `{"name": "converge",
	 "cluster": {"servers": [{"count": 2, "gpus": 1, "gpu_type": "V100"}, {"count": 1, "gpus": 1, "gpu_type": "P100"}, {"count": 2, "gpus": 1, "gpu_type": "K80"}]},
	 "workload": {"jobs": [
	   {"id": "a", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 3000000},
	   {"id": "b", "arrival_s": 0, "model": "A3C", "batch_size": 4, "gpus": 1, "duration_s": 3000000},
	   {"id": "c", "arrival_s": 0, "model": "Recommendation", "batch_size": 512, "gpus": 1, "duration_s": 3000000},
	   {"id": "d", "arrival_s": 0, "model": "CycleGAN", "batch_size": 1, "gpus": 1, "duration_s": 3000000},
	   {"id": "e", "arrival_s": 0, "model": "LM", "batch_size": 20, "gpus": 1, "duration_s": 3000000},
	   {"id": "f", "arrival_s": 0, "model": "Transformer", "batch_size": 64, "gpus": 1, "duration_s": 3000000},
	   {"id": "g", "arrival_s": 0, "model": "ResNet-18", "batch_size": 32, "gpus": 1, "duration_s": 3000000}]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "gavel-las", "params": {"mode": "clean", "reset_min_s": 100000000}}]}`)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
	if err != nil || rep.Runs[0].Err != nil {
		t.Fatal(err, rep.Runs[0].Err)
	}
	res := rep.Runs[0].Result
	c := rep.Runs[0].Inputs.Cluster
	end := math.Inf(1)
	for _, j := range res.Jobs {
		end = math.Min(end, j.FinishS)
	}
	for id := range res.Jobs {
		for _, typ := range c.Types() {
			s := res.FindSeries("gavel/x/"+typ, workload.JobID(id))
			if s == nil {
				t.Fatalf("no target series for job %d on %s", id, typ)
			}
			got := 0.0
			for _, iv := range res.Intervals {
				if int(iv.Job) == id && c.GPUs[iv.GPU].Type == typ {
					got += math.Min(iv.EndS, end) - math.Min(iv.StartS, end)
				}
			}
			got /= end
			if math.Abs(got-s.V[0]) > 0.02 {
				t.Errorf("job %s on %s: received %.4f of its time, target %.4f", res.Jobs[id].Name, typ, got, s.V[0])
			}
		}
	}
}

// Every LP a policy solves can be written as MPS, read back, and solved by
// gonum's simplex to the same optimum (1e-6 relative).
func TestPolicyLPsMatchGonum(t *testing.T) {
	policies := []string{
		`{"name": "gavel-las"}`,
		`{"name": "gavel-las", "label": "agnostic", "params": {"aware": false}}`,
		`{"name": "gavel-las", "label": "ss", "params": {"space_sharing": true}}`,
		`{"name": "gavel-las", "label": "wf", "params": {"water_filling": true}}`,
		`{"name": "gavel-las", "label": "hier", "params": {"entities": [{"name": "a", "weight": 1}, {"name": "b", "weight": 2, "policy": "fifo"}]}}`,
		`{"name": "gavel-ftf"}`,
		`{"name": "gavel-makespan"}`,
		`{"name": "gavel-makespan", "label": "ms-ss", "params": {"space_sharing": true}}`,
		`{"name": "gavel-max-throughput"}`,
		`{"name": "gavel-min-cost", "params": {"slo": true}}`,
		`{"name": "gavel-min-cost", "label": "ratio", "params": {"slo": true, "objective": "ratio"}}`,
	}
	var jobs []string
	models := []string{`"ResNet-50", "batch_size": 64`, `"A3C", "batch_size": 4`, `"Recommendation", "batch_size": 2048`, `"LM", "batch_size": 20`, `"CycleGAN", "batch_size": 1`}
	for i := 0; i < 10; i++ {
		entity := "a"
		if i%3 == 0 {
			entity = "b"
		}
		jobs = append(jobs, fmt.Sprintf(`{"id": "j%d", "arrival_s": %d, "model": %s, "gpus": 1, "duration_s": %d, "entity": %q, "deadline_s": %d}`,
			i, 600*i, models[i%len(models)], 20000+3000*i, entity, 200000+10000*i))
	}
	sc := parse(t, `{"name": "lps",
	 "cluster": {"servers": [{"count": 2, "gpus": 1, "gpu_type": "V100"}, {"count": 2, "gpus": 1, "gpu_type": "P100"}, {"count": 2, "gpus": 1, "gpu_type": "K80"}]},
	 "workload": {"jobs": [`+strings.Join(jobs, ",")+`]},
	 "perf": {"model": "throughput"},
	 "policies": [`+strings.Join(policies, ",")+`]}`)
	var mu sync.Mutex
	captured := map[string][]*lp.Problem{}
	sink := func(r *experiment.Run, p *lp.Problem) {
		mu.Lock()
		defer mu.Unlock()
		var buf bytes.Buffer
		if err := lp.WriteMPS(&buf, p); err != nil {
			t.Error(err)
			return
		}
		q, err := lp.ReadMPS(&buf)
		if err != nil {
			t.Errorf("%s: %v", r.Policy, err)
			return
		}
		captured[r.Policy] = append(captured[r.Policy], q)
	}
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{LPSink: sink, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Policy, r.Err)
		}
	}
	compared := 0
	for i := range sc.Policies {
		label := sc.PolicyLabel(i)
		lps := captured[label]
		if len(lps) == 0 {
			t.Errorf("%s solved no LP", label)
			continue
		}
		for k, p := range lps {
			if k%3 != 0 || p.NumCols() > 150 {
				continue // a sample, small enough for the dense oracle
			}
			ours, err := lp.Solve(p, lp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, gerr := lptest.Solve(p)
			switch {
			case gerr == lptest.ErrInfeasible:
				if ours.Status != lp.Infeasible {
					t.Errorf("%s LP %d: gonum says infeasible, ours %v", label, k, ours)
				}
			case gerr != nil:
				t.Logf("%s LP %d: gonum failed: %v", label, k, gerr)
				continue
			case ours.Status != lp.Optimal || math.Abs(ours.Objective-want) > 1e-6*math.Max(1, math.Abs(want)):
				t.Errorf("%s LP %d (%s, %d×%d): gonum %.10g, ours %v", label, k, p.Name, p.NumRows(), p.NumCols(), want, ours)
			}
			compared++
		}
	}
	if compared < 30 {
		t.Errorf("only %d LPs compared", compared)
	}
}
