// Package results holds what a finished run looks like from outside the
// simulator: the JSON form of its results (what `schedlab run --format
// json` prints and what the page decodes), the colours jobs and policies
// are drawn in, and how durations and numbers are written for people.
//
// It imports nothing but the standard library, so that both the plotting
// side (sim/experiment, sim/plot, the engine worker) and the page (web/app,
// which must not link the plots) share one definition of each instead of
// copies kept in step by tests.
package results

import "encoding/json"

// Output is the JSON form of one seed of a report.
type Output struct {
	Scenario string         `json:"scenario"`
	Seed     uint64         `json:"seed"`
	Results  []PolicyOutput `json:"results"`
}

// PolicyOutput is one policy's results.
type PolicyOutput struct {
	Policy  string      `json:"policy"`
	Name    string      `json:"name"`
	Error   string      `json:"error,omitempty"`
	Metrics Summary     `json:"metrics"`
	ByModel []Group     `json:"by_model"`
	Small   Group       `json:"small"`
	Large   Group       `json:"large"`
	Jobs    []JobOutput `json:"jobs"`
	// Named are the values, over the measured jobs, of the named metrics
	// registered for every output (OJPP's gpus_used, degradation,
	// mean_slowdown), so that a figure can be recomputed from one run's
	// output; metrics without a value (NaN) are left out.
	Named map[string]float64 `json:"named,omitempty"`
	// Series are the time series the policy recorded (e.g. Gavel's LP
	// objective and each job's target and received share per GPU type).
	Series []Series `json:"series,omitempty"`
	// Snapshots are the policy's structured records of its decisions,
	// present only when the run asked for them (the page's views).
	Snapshots []Snapshot `json:"snapshots,omitempty"`
	// Notes say what the recorder summarised to stay within its caps.
	Notes []string `json:"notes,omitempty"`
	// Streamed runs kept no job records (Jobs is empty, see the notes);
	// JCTCDF is then their JCT CDF, thinned.
	Streamed bool `json:"streamed,omitempty"`
	JCTCDF   *CDF `json:"jct_cdf,omitempty"`
}

// CDF is a thinned job completion time CDF: Y is the fraction of finished
// jobs done by time X. Read as a step function it is below the exact CDF
// by at most MaxError everywhere.
type CDF struct {
	X        []float64 `json:"x"`
	Y        []float64 `json:"y"`
	MaxError float64   `json:"max_error"`
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
	// Servers and IterSplit come with perf models that split iteration
	// times (ring_allreduce): the servers the job's workers ran on and its
	// mean iteration time in parts, so per-job figures can be recomputed
	// from the records.
	Servers   []int32    `json:"servers,omitempty"`
	IterSplit *IterSplit `json:"iter_split,omitempty"`
	// SoloS is the job's run time alone on its first GPUs and Slowdown
	// its JCT over that, minus 1; absent when unknown.
	SoloS    *float64 `json:"solo_s,omitempty"`
	Slowdown *float64 `json:"slowdown,omitempty"`
}

// IterSplit is a job's mean iteration time in parts, in seconds: compute
// (reduction, forward and backward passes), exchange inside one server,
// exchange across servers uncontended, what sharing the inter-server links
// with other split rings adds, the per-server overhead, the rounding to
// whole iterations per slot, and what interference between jobs sharing a
// GPU adds.
type IterSplit struct {
	Compute    float64 `json:"compute_s"`
	Intra      float64 `json:"intra_server_s"`
	Inter      float64 `json:"inter_server_s"`
	Contention float64 `json:"contention_s"`
	Overhead   float64 `json:"overhead_s"`
	Rounding   float64 `json:"slot_rounding_s,omitempty"`
	// Interference is what co-location slowdowns on top of the model add
	// (the scenario's perf.interference); absent when they add nothing.
	Interference float64 `json:"interference_s,omitempty"`
}

// Summary is the headline metrics of a set of jobs (sim/metrics computes
// it). Times are seconds. JCT and queue figures cover finished jobs only.
type Summary struct {
	Jobs          int     `json:"jobs"`
	Finished      int     `json:"finished"`
	Unfinished    int     `json:"unfinished,omitempty"`
	Unschedulable int     `json:"unschedulable,omitempty"`
	AvgJCT        float64 `json:"avg_jct_s"`
	P50JCT        float64 `json:"p50_jct_s"`
	P95JCT        float64 `json:"p95_jct_s"`
	P99JCT        float64 `json:"p99_jct_s"`
	AvgQueue      float64 `json:"avg_queue_s"`
	AvgWait       float64 `json:"avg_wait_s"`
	Makespan      float64 `json:"makespan_s"`
	Utilization   float64 `json:"utilization"`
	Preemptions   int     `json:"preemptions"`
	Migrations    int     `json:"migrations"`
	GPUHours      float64 `json:"gpu_hours"`
}

// Group is a Summary of a named subset of jobs.
type Group struct {
	Name string `json:"name"`
	Summary
}

// Snapshot is one policy snapshot: at simulated time T, a record of
// kind Kind (e.g. "ojpp/gpus", "tesserae/round") whose JSON is Data.
type Snapshot struct {
	T    float64         `json:"t"`
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Series is one time series a policy recorded: values V at simulated
// times T, about job index Job (-1 for none).
type Series struct {
	Name string    `json:"name"`
	Job  int       `json:"job"`
	T    []float64 `json:"t"`
	V    []float64 `json:"v"`
}
