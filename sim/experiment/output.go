package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/workload"
)

// Output is the JSON form of one seed of a report: what `schedlab run
// --format json` prints and what the page receives.
type Output struct {
	Scenario string         `json:"scenario"`
	Seed     uint64         `json:"seed"`
	Results  []PolicyOutput `json:"results"`
}

// PolicyOutput is one policy's results.
type PolicyOutput struct {
	Policy  string          `json:"policy"`
	Name    string          `json:"name"`
	Error   string          `json:"error,omitempty"`
	Metrics metrics.Summary `json:"metrics"`
	ByModel []metrics.Group `json:"by_model"`
	Small   metrics.Group   `json:"small"`
	Large   metrics.Group   `json:"large"`
	Jobs    []JobOutput     `json:"jobs"`
	// Named are the values, over the measured jobs, of the named metrics
	// registered for every output (metrics.OutputNames: OJPP's gpus_used,
	// degradation, mean_slowdown), so that a figure can be recomputed from
	// one run's output; metrics without a value (NaN) are left out.
	Named map[string]float64 `json:"named,omitempty"`
	// Series are the time series the policy recorded (e.g. Gavel's LP
	// objective and each job's target and received share per GPU type).
	Series []engine.Series `json:"series,omitempty"`
	// Notes say what the recorder summarised to stay within its caps.
	Notes []string `json:"notes,omitempty"`
}

// JobOutput is one job's record. Times the job never reached are null.
// Weight (1 when the job gives none) and Entity are the job's priority
// class and owner as its generator or trace set them, so per-class results
// can be recomputed from the records alone (metric groups "weight:W").
type JobOutput struct {
	ID          string   `json:"id"`
	Model       string   `json:"model"`
	GPUs        int      `json:"gpus"`
	Weight      float64  `json:"weight"`
	Entity      string   `json:"entity,omitempty"`
	Status      string   `json:"status"`
	ArrivalS    float64  `json:"arrival_s"`
	StartS      *float64 `json:"start_s"`
	FinishS     *float64 `json:"finish_s"`
	JCTS        *float64 `json:"jct_s"`
	QueueS      *float64 `json:"queue_s"`
	Preemptions int      `json:"preemptions"`
	Migrations  int      `json:"migrations"`
	Reason      string   `json:"reason,omitempty"`
	// SoloS is the job's run time alone on its first GPUs and Slowdown
	// its JCT over that, minus 1; absent when unknown.
	SoloS    *float64 `json:"solo_s,omitempty"`
	Slowdown *float64 `json:"slowdown,omitempty"`
}

// Output returns the JSON form of one seed's runs.
func (rep *Report) Output(seed uint64) Output {
	out := Output{Scenario: rep.Scenario.Name, Seed: seed, Results: []PolicyOutput{}}
	for _, r := range rep.ForSeed(seed) {
		po := PolicyOutput{Policy: r.Policy, Name: r.PolicyName, Metrics: r.Summary, ByModel: r.ByModel,
			Small: r.Small, Large: r.Large, Jobs: []JobOutput{}}
		if r.Err != nil {
			po.Error = r.Err.Error()
		}
		if r.Result != nil {
			for _, j := range r.Result.Jobs {
				po.Jobs = append(po.Jobs, jobOutput(j, r.spec(j.Job)))
			}
			po.Series = r.Result.Series
			po.Notes = r.Result.Notes()
			if r.Err == nil && !r.Saturated {
				po.Named = rep.named(r)
			}
		}
		out.Results = append(out.Results, po)
	}
	return out
}

func jobOutput(j engine.JobRecord, spec *workload.Job) JobOutput {
	o := JobOutput{ID: j.Name, Model: j.Model, GPUs: j.GPUs, Weight: spec.EffectiveWeight(), Entity: spec.Entity,
		Status: j.Status.String(), ArrivalS: j.ArrivalS, Preemptions: j.Preemptions, Migrations: j.Migrations, Reason: j.Reason}
	if j.FirstStartS >= 0 {
		o.StartS, o.QueueS = ptr(j.FirstStartS), ptr(j.QueueS)
	}
	if j.FinishS >= 0 {
		o.FinishS, o.JCTS = ptr(j.FinishS), ptr(j.JCT())
	}
	if j.SoloS > 0 {
		o.SoloS = ptr(j.SoloS)
		if j.FinishS >= 0 {
			o.Slowdown = ptr(j.JCT()/j.SoloS - 1)
		}
	}
	return o
}

// named computes the output metrics for one run (see PolicyOutput.Named);
// they read only the run itself, so running each policy on its own (the
// page's workers) gives the same values.
func (rep *Report) named(r *Run) map[string]float64 {
	var out map[string]float64
	for _, name := range metrics.OutputNames() {
		def, _ := metrics.Lookup(name)
		v := def.Fn(metrics.Context{Selected: rep.Scenario.Measured(r.Result.Jobs), Result: r.Result, Jobs: r.Inputs.Jobs,
			NumGPUs: r.Inputs.Cluster.NumGPUs()})
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[name] = v
	}
	return out
}

func ptr(x float64) *float64 { return &x }

// spec is the input job behind record id: its weight and owner are not
// part of the engine's records. A run without inputs (never built) gets
// an empty spec, whose weight reads as 1.
func (r *Run) spec(id workload.JobID) *workload.Job {
	if r.Inputs != nil && int(id) >= 0 && int(id) < len(r.Inputs.Jobs) {
		return &r.Inputs.Jobs[id]
	}
	return &workload.Job{}
}

// WriteJobsCSV writes every job record of every run as CSV. The last
// columns are the job's weight and owner (see JobOutput) and, for a point
// of a sweep, its sweep value x, so that one file of a whole study can be
// split by load and priority class.
func (rep *Report) WriteJobsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"policy", "seed", "id", "model", "gpus", "status", "arrival_s", "start_s", "finish_s", "jct_s", "queue_s", "wait_s", "gpu_seconds", "preemptions", "migrations", "weight", "entity", "x"})
	for _, r := range rep.Runs {
		if r.Result == nil {
			continue
		}
		x := ""
		if r.Swept {
			x = num(r.X)
		}
		for _, j := range r.Result.Jobs {
			spec := r.spec(j.Job)
			cw.Write([]string{r.Policy, strconv.FormatUint(r.Seed, 10), j.Name, j.Model, strconv.Itoa(j.GPUs), j.Status.String(),
				num(j.ArrivalS), opt(j.FirstStartS), opt(j.FinishS), opt(j.JCT()), opt(j.QueueS), num(j.WaitS),
				num(j.GPUSeconds), strconv.Itoa(j.Preemptions), strconv.Itoa(j.Migrations),
				num(spec.EffectiveWeight()), spec.Entity, x})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummaryCSV writes one row of metrics per run.
func (rep *Report) WriteSummaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"policy", "seed", "jobs", "finished", "avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "utilization", "error"})
	for _, r := range rep.Runs {
		s := r.Summary
		errText := ""
		if r.Err != nil {
			errText = r.Err.Error()
		}
		cw.Write([]string{r.Policy, strconv.FormatUint(r.Seed, 10), strconv.Itoa(s.Jobs), strconv.Itoa(s.Finished),
			num(s.AvgJCT), num(s.P50JCT), num(s.P95JCT), num(s.P99JCT), num(s.AvgQueue), num(s.Makespan), num(s.Utilization), errText})
	}
	cw.Flush()
	return cw.Error()
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

func opt(x float64) string {
	if x < 0 {
		return ""
	}
	return num(x)
}

// Table writes a plain-text table with one row per run.
func (rep *Report) Table(w io.Writer) {
	fmt.Fprintf(w, "%-18s %6s %6s %10s %10s %10s %10s %10s %10s %6s\n",
		"policy", "seed", "jobs", "avg JCT", "p50 JCT", "p95 JCT", "p99 JCT", "avg queue", "makespan", "util")
	for _, r := range rep.Runs {
		s := r.Summary
		fmt.Fprintf(w, "%-18s %6d %6d %10s %10s %10s %10s %10s %10s %5.1f%%\n",
			r.Policy, r.Seed, s.Finished, dur(s.AvgJCT), dur(s.P50JCT), dur(s.P95JCT), dur(s.P99JCT),
			dur(s.AvgQueue), dur(s.Makespan), 100*s.Utilization)
		if r.Err != nil {
			fmt.Fprintf(w, "  error: %v\n", r.Err)
		}
	}
}

// dur prints seconds compactly: 95s, 12.5m, 3.20h.
func dur(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.2fh", s/3600)
	case s >= 600:
		return fmt.Sprintf("%.1fm", s/60)
	}
	return fmt.Sprintf("%.0fs", s)
}
