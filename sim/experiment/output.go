package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// The JSON form of a report's results (Output, PolicyOutput, JobOutput) is
// defined in sim/results, which the page reads without linking the plots.

// Output returns the JSON form of one seed's runs.
func (rep *Report) Output(seed uint64) results.Output {
	out := results.Output{Scenario: rep.Scenario.Name, Seed: seed, Results: []results.PolicyOutput{}}
	for _, r := range rep.ForSeed(seed) {
		po := results.PolicyOutput{Policy: r.Policy, Name: r.PolicyName, Metrics: r.Summary, ByModel: r.ByModel,
			Small: r.Small, Large: r.Large, Jobs: []results.JobOutput{}}
		if r.Err != nil {
			po.Error = r.Err.Error()
		}
		if r.Result != nil {
			po.Jobs = make([]results.JobOutput, 0, len(r.Result.Jobs))
			var times timeSlab
			for _, j := range r.Result.Jobs {
				o := jobOutput(j, r.spec(j.Job), &times)
				if sp := r.Result.Splits; int(j.Job) < len(sp) {
					o.Servers, o.IterSplit = serverIDs(sp[j.Job].Servers), iterSplitOutput(sp[j.Job].Split)
				}
				po.Jobs = append(po.Jobs, o)
			}
			po.Series = seriesOutput(r.Result.Series)
			for _, sn := range r.Result.Snapshots {
				po.Snapshots = append(po.Snapshots, results.Snapshot{T: sn.TimeS, Kind: sn.Kind, Data: sn.Data})
			}
			po.Notes = r.Notes()
			if r.Streamed {
				po.Streamed = true
				po.JCTCDF = &results.CDF{X: r.CDFX, Y: r.CDFY, MaxError: 1.0 / CDFPoints}
			} else if r.Err == nil && !r.Saturated {
				po.Named = rep.named(r)
			}
		}
		out.Results = append(out.Results, po)
	}
	return out
}

func jobOutput(j engine.JobRecord, spec *workload.Job, ts *timeSlab) results.JobOutput {
	o := results.JobOutput{ID: j.Name, Model: j.Model, GPUs: j.GPUs, Weight: spec.EffectiveWeight(), Entity: spec.Entity,
		Status: j.Status.String(), ArrivalS: j.ArrivalS, Preemptions: j.Preemptions, Migrations: j.Migrations, Reason: j.Reason}
	if j.FirstStartS >= 0 {
		o.StartS, o.QueueS = ts.ptr(j.FirstStartS), ts.ptr(j.QueueS)
	}
	if j.FinishS >= 0 {
		o.FinishS, o.JCTS = ts.ptr(j.FinishS), ts.ptr(j.JCT())
	}
	if j.SoloS > 0 {
		o.SoloS = ts.ptr(j.SoloS)
		if j.FinishS >= 0 {
			o.Slowdown = ts.ptr(j.JCT()/j.SoloS - 1)
		}
	}
	return o
}

// timeSlab hands out pointers to float64s carved from blocks, so that the
// JSON form of 100,000 records costs a few dozen allocations instead of
// 400,000 (a start, finish, JCT and queue time each).
type timeSlab struct{ block []float64 }

// slabBlock is the number of values per block (32 KB).
const slabBlock = 4096

func (ts *timeSlab) ptr(x float64) *float64 {
	if len(ts.block) == cap(ts.block) {
		ts.block = make([]float64, 0, slabBlock)
	}
	ts.block = append(ts.block, x)
	return &ts.block[len(ts.block)-1]
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

// seriesOutput is the JSON form of recorded series (nil stays nil, so the
// field is left out).
func seriesOutput(ss []engine.Series) []results.Series {
	if ss == nil {
		return nil
	}
	out := make([]results.Series, len(ss))
	for i, s := range ss {
		out[i] = results.Series{Name: s.Name, Job: int(s.Job), T: s.T, V: s.V}
	}
	return out
}

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
			x = results.Num(r.X)
		}
		for _, j := range r.Result.Jobs {
			spec := r.spec(j.Job)
			cw.Write([]string{r.Policy, strconv.FormatUint(r.Seed, 10), j.Name, j.Model, strconv.Itoa(j.GPUs), j.Status.String(),
				results.Num(j.ArrivalS), opt(j.FirstStartS), opt(j.FinishS), opt(j.JCT()), opt(j.QueueS), results.Num(j.WaitS),
				results.Num(j.GPUSeconds), strconv.Itoa(j.Preemptions), strconv.Itoa(j.Migrations),
				results.Num(spec.EffectiveWeight()), spec.Entity, x})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummaryCSV writes one row of metrics per run.
func (rep *Report) WriteSummaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(results.SummaryHeader)
	for _, r := range rep.Runs {
		errText := ""
		if r.Err != nil {
			errText = r.Err.Error()
		}
		cw.Write(results.SummaryRow(r.Policy, r.Seed, r.Summary, errText))
	}
	cw.Flush()
	return cw.Error()
}

func opt(x float64) string {
	if x < 0 {
		return ""
	}
	return results.Num(x)
}

// Table writes a plain-text table with one row per run.
func (rep *Report) Table(w io.Writer) {
	fmt.Fprintf(w, "%-18s %6s %6s %10s %10s %10s %10s %10s %10s %6s\n",
		"policy", "seed", "jobs", "avg JCT", "p50 JCT", "p95 JCT", "p99 JCT", "avg queue", "makespan", "util")
	for _, r := range rep.Runs {
		s := r.Summary
		fmt.Fprintf(w, "%-18s %6d %6d %10s %10s %10s %10s %10s %10s %5.1f%%\n",
			r.Policy, r.Seed, s.Finished, results.DurationShort(s.AvgJCT), results.DurationShort(s.P50JCT), results.DurationShort(s.P95JCT),
			results.DurationShort(s.P99JCT), results.DurationShort(s.AvgQueue), results.DurationShort(s.Makespan), 100*s.Utilization)
		if r.Err != nil {
			fmt.Fprintf(w, "  error: %v\n", r.Err)
		}
	}
}

func serverIDs(ids []cluster.ServerID) []int32 {
	if len(ids) == 0 {
		return nil
	}
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}

func iterSplitOutput(x *perf.IterSplit) *results.IterSplit {
	if x == nil {
		return nil
	}
	return &results.IterSplit{Compute: x.Compute, Intra: x.Intra, Inter: x.Inter,
		Contention: x.Contention, Overhead: x.Overhead, Rounding: x.Rounding, Interference: x.Interference}
}
