package trace

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/perf/gaveltable"
	"github.com/schedlab/schedlab/sim/workload"
)

// Gavel's trace layouts by column count (spec anchors §1.1): its current
// parser's 10 columns, the older 7 of traces/msr/, and Shockwave's 12
// (Gavel's first 7, then mode, priority, SLO, duration and arrival).
var gavelLayouts = map[int][]string{
	10: {"job_type", "command", "working_directory", "num_steps_arg", "needs_data_dir", "total_steps", "scale_factor", "priority_weight", "slo", "arrival_time"},
	7:  {"job_type", "command", "num_steps_arg", "needs_data_dir", "total_steps", "arrival_time", "scale_factor"},
	12: {"job_type", "command", "working_directory", "num_steps_arg", "needs_data_dir", "total_steps", "scale_factor", "mode", "priority_weight", "slo", "duration", "arrival_time"},
}

// gavelTemplates maps a job type key to its zoo template.
func gavelTemplates() map[string]workload.Template {
	m := make(map[string]workload.Template, len(workload.GavelZoo))
	for _, t := range workload.GavelZoo {
		m[t.Key()] = t
	}
	return m
}

func readGavel(r io.Reader, b *builder) error {
	tbl, err := gaveltable.Default()
	if err != nil {
		return err
	}
	zoo := gavelTemplates()
	cr := csv.NewReader(r)
	cr.Comma = '\t'
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true // commands are shell text
	cr.ReuseRecord = true
	t := &table{r: cr, b: b}
	b.columns = map[string]string{"iterations": "total_steps", "gpus": "scale_factor", "weight": "priority_weight", "duration_s": "duration", "arrival_s": "arrival_time"}
	slo := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.readFailed(err, t.line+1)
			break
		}
		t.line, _ = cr.FieldPos(0)
		t.rec, t.bad = rec, false
		if !b.nextRow(t.line) {
			break
		}
		layout, ok := gavelLayouts[len(rec)]
		if !ok {
			b.errorf(t.line, "has %d tab-separated columns; a Gavel trace has 10 (or the older 7, or Shockwave's 12)", len(rec))
			continue
		}
		t.cols = make(map[string]int, len(layout))
		for i, n := range layout {
			t.cols[n] = i
		}
		if !present(t, "job_type", "total_steps", "scale_factor", "arrival_time") {
			continue
		}
		rw := parsed{line: t.line, submitS: t.num("arrival_time")}
		key := t.str("job_type")
		rw.job = workload.Job{Name: fmt.Sprintf("job%d", b.rowsIn-1), GPUs: t.integer("scale_factor"), Iterations: t.num("total_steps")}
		if t.has("priority_weight") && !t.empty("priority_weight") {
			rw.job.Weight = t.num("priority_weight")
		}
		if t.has("duration") && !t.empty("duration") {
			rw.job.DurationS = t.num("duration")
		}
		if t.has("slo") && !t.empty("slo") && t.num("slo") > 0 {
			slo++
		}
		if t.bad {
			continue
		}
		tm, ok := zoo[key]
		if !ok {
			b.drop(t.line, "of an unknown model", "job type %s is not one of Gavel's 26 (e.g. \"ResNet-50 (batch size 64)\"); job left out", quote(key))
			continue
		}
		if tbl.Index(key, rw.job.GPUs) < 0 {
			b.drop(t.line, "of an unknown model", "Gavel measured no throughput for %s on %d GPUs; job left out", quote(key), rw.job.GPUs)
			continue
		}
		rw.job.Model, rw.job.BatchSize = tm.Model, tm.BatchSize
		if !(rw.job.Iterations >= 1) {
			b.drop(t.line, "with no run time", "total_steps is %g; job left out", rw.job.Iterations)
			continue
		}
		if rw.submitS < 0 {
			b.drop(t.line, "with a missing field", "arrival_time is negative (%g); job left out", rw.submitS)
			continue
		}
		if gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("Gavel jobs run total_steps iterations at the measured throughput of their job type; commands are ignored")
	if slo > 0 {
		b.note(fmt.Sprintf("%d jobs give an SLO; schedlab's deadlines are absolute times, so these SLOs are not imported", slo))
	}
	return nil
}

// paiColumns is pai_task_table's header (cluster-trace-gpu-v2020).
var paiColumns = []string{"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type"}

// readPAI reads PAI's task table and makes one job per job_name: its GPUs
// the sum over its tasks of instances × plan_gpu (percent of a GPU),
// rounded up; its arrival the first task start; its duration the last
// task end minus the first start. The job table itself carries no GPU
// demand, which is why the task table is read.
func readPAI(r io.Reader, b *builder) error {
	t, err := newTable(r, b, ',', paiColumns, []string{"job_name", "inst_num", "start_time", "end_time", "plan_gpu"}, true)
	if err != nil {
		return err
	}
	type acc struct {
		line       int
		gpu        float64 // percent of a GPU
		start, end float64
		broken     bool
	}
	byName := map[string]int{}
	var jobs []acc
	var names []string
	for t.next() {
		name := t.str("job_name")
		if name == "" {
			t.b.drop(t.line, "with a missing field", "column job_name is empty; task left out")
			continue
		}
		k, seen := byName[name]
		if !seen {
			name = strings.Clone(name) // not the whole line
			k = len(jobs)
			byName[name] = k
			jobs = append(jobs, acc{line: t.line})
			names = append(names, name)
		}
		a := &jobs[k]
		// Every number is read, so that a malformed one is an error even
		// in a task that would be skipped.
		opt := func(col string, read func(string) float64) (float64, bool) {
			if t.empty(col) {
				return 0, false
			}
			return read(col), true
		}
		gpu, hasGPU := opt("plan_gpu", t.num)
		n, hasN := opt("inst_num", t.num)
		switch {
		case hasN && n != math.Trunc(n):
			t.fail("column inst_num: %s is not a whole number", quote(t.str("inst_num")))
		case n < 0:
			t.fail("column inst_num: must not be negative, got %g", n)
		case gpu < 0:
			t.fail("column plan_gpu: must not be negative, got %g", gpu)
		}
		s, hasS := opt("start_time", t.when)
		e, hasE := opt("end_time", t.when)
		if t.bad {
			a.broken = true
			continue
		}
		if a.broken || !hasGPU || gpu == 0 {
			continue // a CPU task of the job (parameter server, evaluator)
		}
		if !hasS || !hasE || !hasN {
			b.drop(t.line, "with a missing field", "job %s: a GPU task has no start_time, end_time or inst_num; job left out", short(name))
			a.broken = true
			continue
		}
		a.gpu += gpu * n
		if a.end == 0 || s < a.start {
			a.start = s
		}
		a.end = max(a.end, e)
	}
	if b.stop != nil {
		return nil
	}
	for k, a := range jobs {
		if a.broken {
			continue
		}
		if a.gpu == 0 {
			b.drop(a.line, "using no GPUs", "job %s has no GPU task; left out", short(names[k]))
			continue
		}
		// plan_gpu 50 is half a GPU; a fractional job asks for whole GPUs.
		gpus := (a.gpu + 99.999) / 100
		if !(gpus <= 4096) {
			b.drop(a.line, "larger than the cluster", "job %s asks for more than 4096 GPUs (the sum of inst_num × plan_gpu ÷ 100 over its tasks); left out", short(names[k]))
			continue
		}
		rw := parsed{line: a.line, noModel: true, submitS: a.start}
		rw.job = workload.Job{Name: names[k], GPUs: int(gpus), DurationS: a.end - a.start}
		t.line = a.line
		if gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("PAI names no models: models come from each job's GPU-hours, as Pollux's workload generator does; a job's GPUs are Σ instances × plan_gpu ÷ 100 over its tasks, rounded up, its arrival its first task start (the table has no submit time), its duration to its last task end; gpu_type is not kept")
	return nil
}
