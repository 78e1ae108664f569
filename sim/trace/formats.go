package trace

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/workload"
)

var formats = []Format{
	{Name: "philly", Title: "Philly job log as Pollux ships it (traces/philly.csv)",
		Columns: "timestamp,duration,num_gpus,gpu_time,cluster", Cluster: "sjf-bsbf-64", Filters: PolluxFilters, read: readPhilly},
	{Name: "pollux", Title: "Pollux workload CSV (workloads*/workload-N.csv)",
		Columns: "name,time,application,num_replicas,batch_size", Cluster: "pollux-64", absolute: true, read: readPollux},
	{Name: "gavel", Title: "Gavel trace, tab-separated, 10 columns (or the older 7)",
		Columns: "job_type\tcommand\tworking_directory\tnum_steps_arg\tneeds_data_dir\ttotal_steps\tscale_factor\tpriority_weight\tSLO\tarrival_time", Cluster: "gavel-108", absolute: true, read: readGavel},
	{Name: "tiresias", Title: "Tiresias trace CSV",
		Columns: "job_id,num_gpu,submit_time,iterations,model_name,duration,interval", Cluster: "tiresias-128", absolute: true, read: readTiresias},
	{Name: "helios", Title: "Helios cluster_log.csv (HeliosData)",
		Columns: "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue", Cluster: "helios-256", read: readHelios},
	{Name: "pai", Title: "Alibaba PAI cluster-trace-gpu-v2020 pai_task_table (with or without its header)",
		Columns: strings.Join(paiColumns, ","), Cluster: "helios-256", read: readPAI},
	{Name: "jobs", Title: "schedlab jobs CSV (what schedlab import --jobs-csv writes)",
		Columns: strings.Join(jobsColumns, ","), Cluster: "constant-64", absolute: true, read: readJobsCSV},
}

// present drops the row with a warning when a required field is empty.
func present(t *table, cols ...string) bool {
	if t.bad {
		return false // the row has too few columns, an error already
	}
	for _, c := range cols {
		if t.empty(c) {
			t.b.drop(t.line, "with a missing field", "column %s is empty; job left out", c)
			return false
		}
	}
	return true
}

// gpusAndTime checks what every job needs: GPUs and a positive duration.
func gpusAndTime(t *table, r *parsed) bool {
	name := short(r.job.Name)
	switch d := r.job.DurationS; {
	case r.job.GPUs < 0:
		t.b.drop(t.line, "using no GPUs", "job %s gives a negative GPU count (%d); left out", name, r.job.GPUs)
		return false
	case r.job.GPUs < 1:
		t.b.drop(t.line, "using no GPUs", "job %s uses %d GPUs; left out", name, r.job.GPUs)
		return false
	case r.job.GPUs > 4096:
		t.b.drop(t.line, "larger than the cluster", "job %s asks for %d GPUs, more than 4096; left out", name, r.job.GPUs)
		t.b.drops["larger than the cluster"].Option = "cluster"
		return false
	case math.IsInf(d, 0):
		t.b.drop(t.line, "with no run time", "job %s has a run time too large to compute (its end minus its start); left out", name)
		return false
	case !(d >= workload.MinDurationS) && r.job.Iterations == 0:
		t.b.drop(t.line, "with no run time", "job %s ran %g s; left out", name, d)
		return false
	case d > workload.MaxTimeS:
		t.b.drop(t.line, "with no run time", "job %s runs %g s, more than %g (about 317 years); left out", name, d, workload.MaxTimeS)
		return false
	}
	return true
}

func readPhilly(r io.Reader, b *builder) error {
	cols := []string{"timestamp", "duration", "num_gpus", "gpu_time", "cluster"}
	t, err := newTable(r, b, ',', cols, cols[:3], false)
	if err != nil {
		return err
	}
	b.namePrefix = "philly-"
	b.columns = map[string]string{"arrival_s": "timestamp", "duration_s": "duration", "gpus": "num_gpus"}
	for t.next() {
		if !present(t, "timestamp", "duration", "num_gpus") {
			continue
		}
		rw := parsed{line: t.line, noModel: true, autoName: true, submitS: t.when("timestamp")}
		rw.job = workload.Job{Name: b.namePrefix + strconv.Itoa(t.line), GPUs: t.integer("num_gpus"), DurationS: t.num("duration"), Entity: t.str("cluster")}
		if !t.bad && gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("Philly names no models: models come from each job's GPU-hours, as Pollux's workload generator does; durations are the logged run times")
	return nil
}

func readTiresias(r io.Reader, b *builder) error {
	cols := []string{"job_id", "num_gpu", "submit_time", "iterations", "model_name", "duration", "interval"}
	t, err := newTable(r, b, ',', cols, []string{"job_id", "num_gpu", "submit_time", "duration"}, false)
	if err != nil {
		return err
	}
	b.columns = map[string]string{"id": "job_id", "arrival_s": "submit_time", "duration_s": "duration", "gpus": "num_gpu"}
	for t.next() {
		if !present(t, "job_id", "num_gpu", "submit_time", "duration") {
			continue
		}
		rw := parsed{line: t.line, submitS: t.when("submit_time")}
		rw.job = workload.Job{Name: "job" + t.str("job_id"), GPUs: t.integer("num_gpu"), DurationS: t.num("duration"), Model: t.str("model_name")}
		if rw.job.Model == "" {
			rw.noModel = true
		}
		if !t.bad && gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("Tiresias jobs keep their model names and durations; iterations are left to the perf model")
	return nil
}

func readHelios(r io.Reader, b *builder) error {
	cols := []string{"job_id", "user", "vc", "gpu_num", "cpu_num", "node_num", "state", "submit_time", "start_time", "end_time", "duration", "queue"}
	t, err := newTable(r, b, ',', cols, []string{"job_id", "gpu_num", "submit_time", "duration"}, false)
	if err != nil {
		return err
	}
	b.columns = map[string]string{"id": "job_id", "arrival_s": "submit_time", "duration_s": "duration", "gpus": "gpu_num"}
	for t.next() {
		if !present(t, "job_id", "gpu_num", "submit_time", "duration") {
			continue
		}
		rw := parsed{line: t.line, noModel: true, submitS: t.when("submit_time")}
		rw.job = workload.Job{Name: t.str("job_id"), GPUs: t.integer("gpu_num"), DurationS: t.num("duration"), Entity: t.str("vc")}
		if !t.bad && gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("Helios names no models: models come from each job's GPU-hours, as Pollux's workload generator does; every state (completed, failed, cancelled) is kept with its logged duration; entity is the virtual cluster")
	return nil
}

// Pollux's applications train to a fixed number of epochs (its
// applications.py: bert 2, cifar10 100, deepspeech2 80, imagenet 90,
// ncf 10, yolov3 50); polluxIters is the iteration count after the last
// of them at each profiled total batch size, the last "iteration" of
// ../shared/data/pollux/traces/APP/validation-BATCH.csv (a test re-reads
// them). Pollux interpolates linearly between profiled sizes; so does
// polluxIterations.
var polluxIters = map[string][][2]float64{
	"bert":        {{12, 14774}, {24, 7427}, {48, 3732}, {96, 1885}, {192, 940}, {384, 480}},
	"cifar10":     {{128, 39062}, {256, 20377}, {512, 10615}, {1024, 5722}, {2048, 3178}, {4096, 2011}},
	"deepspeech2": {{20, 28536}, {40, 14711}, {80, 7683}, {160, 4041}, {320, 2264}, {640, 1423}},
	"imagenet":    {{200, 576525}, {400, 292995}, {800, 150231}, {1600, 78453}, {3200, 42123}, {6400, 23972}, {12800, 14461}},
	"ncf":         {{256, 194174}, {512, 97094}, {1024, 48625}, {2048, 24308}, {4096, 12172}, {8192, 6122}, {16384, 3069}, {32768, 1548}},
	"yolov3":      {{8, 103444}, {16, 52905}, {32, 27430}, {64, 14577}, {128, 8075}, {256, 4809}, {512, 3143}},
}

// polluxMaxLocal is the largest per-GPU batch of each application in
// Pollux's profiles (the local_bsz of traces/APP/placements.csv; yolov3's
// is set to 8 in its applications.py). Pollux runs a larger local batch
// as several micro-batches with gradient accumulation.
var polluxMaxLocal = map[string]float64{"bert": 12, "cifar10": 1024, "deepspeech2": 80, "imagenet": 200, "ncf": 32768, "yolov3": 8}

// polluxIterations is the work of an application at a total batch, or
// false outside the profiled sizes.
func polluxIterations(app string, batch float64) (float64, bool) {
	pts := polluxIters[app]
	for i, p := range pts {
		if batch == p[0] {
			return p[1], true
		}
		if i > 0 && batch < p[0] && batch > pts[i-1][0] {
			lo := pts[i-1]
			return math.Round(((batch-lo[0])*p[1] + (p[0]-batch)*lo[1]) / (p[0] - lo[0])), true
		}
	}
	return 0, false
}

func readPollux(r io.Reader, b *builder) error {
	cols := []string{"name", "time", "application", "num_replicas", "batch_size"}
	t, err := newTable(r, b, ',', cols, cols, false)
	if err != nil {
		return err
	}
	b.columns = map[string]string{"id": "name", "arrival_s": "time", "gpus": "num_replicas", "batch_size": "batch_size", "iterations": "batch_size"}
	split := 0
	for t.next() {
		if !present(t, cols...) {
			continue
		}
		app := strings.ToLower(t.str("application"))
		rw := parsed{line: t.line, submitS: t.num("time")}
		n, batch := t.integer("num_replicas"), t.num("batch_size")
		rw.job = workload.Job{Name: t.str("name"), Model: app, GPUs: n}
		if t.bad {
			continue
		}
		if _, ok := polluxIters[app]; !ok {
			b.drop(t.line, "of an unknown model", "application %s is none of Pollux's bert, cifar10, deepspeech2, imagenet, ncf, yolov3; job left out", quote(app))
			continue
		}
		it, ok := polluxIterations(app, batch)
		if !ok || n < 1 {
			b.drop(t.line, "of an unknown model", "%s has no profile at total batch %g on %d GPUs; job left out", app, batch, n)
			continue
		}
		// The analytic model's batch is per GPU; Pollux's is the total.
		// Above the profiled local batch, the job runs s micro-batches
		// per step: here s times the steps at 1/s of the batch, the same
		// samples (each step all-reduces, so a little slower than
		// accumulating).
		local := math.Ceil(batch / float64(n))
		steps := math.Ceil(local / polluxMaxLocal[app])
		rw.job.BatchSize = int(math.Ceil(local / steps))
		rw.job.Iterations = it * steps
		if steps > 1 {
			split++
		}
		if gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	b.note("Pollux jobs train their application's epochs (Pollux's max_epochs) at the listed total batch: iterations from Pollux's validation profiles, per-GPU batch = total ÷ replicas")
	if split > 0 {
		b.note(fmt.Sprintf("%d jobs ask for a per-GPU batch above the largest Pollux profiled (bert 12, cifar10 1024, deepspeech2 80, imagenet 200, ncf 32768, yolov3 8): as Pollux accumulates gradients over micro-batches, each runs s times the iterations at 1/s of the batch", split))
	}
	return nil
}
