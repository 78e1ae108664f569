package trace

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"

	_ "github.com/schedlab/schedlab/sim/policy/all"
)

// shared is the project's data folder beside the worktree.
const shared = "../../../shared/data/"

// sample is one sample file with what importing it must give, and a
// malformed copy with the errors it must raise.
type sample struct {
	format, path string
	opt          Options
	rows, jobs   int
	drops        map[string]int // reason -> jobs
	// break the copy: at line, set column col (0-based) to value, or
	// cut the row to col columns when value is cut.
	line, col int
	value     string
	wantErr   string
}

const cut = "\x00cut"

// maxParsed bounds the job lists the tests parse as scenarios: the whole
// Philly log (74,426 jobs) takes seconds, and its sampled window covers
// the same path.
const maxParsed = 5000

var samples = []sample{
	{format: "philly", path: shared + "pollux/traces/philly.csv", rows: 82247, jobs: 74426,
		drops: map[string]int{"shorter than 60 s (filter)": 7654, "of 1000 GPU-hours or more (filter)": 165, "larger than the cluster": 2},
		line:  7, col: 1, value: "66s", wantErr: `line 7: column duration: "66s" is not a number`},
	{format: "philly", path: shared + "pollux/traces/philly.csv", opt: Options{BusiestH: 8, Sample: 240, Seed: 1}, rows: 82247, jobs: 240,
		line: 12, col: 0, value: "2017-13-09 07:01:55", wantErr: `line 12: column timestamp: "2017-13-09 07:01:55" is neither seconds nor a date`},
	{format: "pollux", path: shared + "pollux/workloads/workload-6.csv", rows: 160, jobs: 160,
		line: 3, col: 3, value: cut, wantErr: "line 3: has 3 columns, expected at least 5"},
	{format: "pollux", path: shared + "pollux/workloads-2.0/workload-1.csv", rows: 320, jobs: 320,
		line: 5, col: 4, value: "1e400", wantErr: `line 5: column batch_size: "1e400" is too large a number`},
	{format: "gavel", path: "testdata/gavel-sample.trace", rows: 42, jobs: 42,
		line: 4, col: 9, value: cut, wantErr: "line 4: has 9 tab-separated columns"},
	{format: "tiresias", path: "testdata/tiresias-sample.csv", rows: 40, jobs: 40,
		line: 9, col: 1, value: "two", wantErr: `line 9: column num_gpu: "two" is not a number`},
	{format: "helios", path: "testdata/helios-sample.csv", rows: 40, jobs: 31, drops: map[string]int{"using no GPUs": 9},
		line: 20, col: 10, value: "-", wantErr: `line 20: column duration: "-" is not a number`},
	{format: "pai", path: "testdata/pai-sample.csv", rows: 41, jobs: 28, drops: map[string]int{"with a missing field": 2, "using no GPUs": 1},
		line: 6, col: 2, value: "2.5", wantErr: `line 6: column inst_num: "2.5" is not a whole number`},
}

func readSample(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) && strings.HasPrefix(path, shared) {
		t.Skip("../shared/data is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSamples(t *testing.T) {
	for _, s := range samples {
		t.Run(s.format+"/"+s.path[strings.LastIndex(s.path, "/")+1:], func(t *testing.T) {
			data := readSample(t, s.path)
			start := time.Now()
			res, err := Import(s.format, bytes.NewReader(data), s.opt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s in %v", res.Summary(), time.Since(start).Round(time.Millisecond))
			if res.Rows != s.rows || len(res.Jobs) != s.jobs {
				t.Errorf("read %d rows and kept %d jobs, want %d and %d", res.Rows, len(res.Jobs), s.rows, s.jobs)
			}
			for reason, n := range s.drops {
				if got := dropped(res, reason); got != n {
					t.Errorf("%d jobs dropped %s, want %d", got, reason, n)
				}
			}
			total := len(res.Jobs)
			for _, d := range res.Drops {
				total += d.Jobs
			}
			if s.format != "pai" && total != res.Rows { // PAI reads tasks, not jobs
				t.Errorf("kept + dropped = %d jobs, but %d rows were read: a row went missing", total, res.Rows)
			}
			if len(res.Jobs) <= maxParsed {
				checkScenario(t, res)
			}
		})
	}
}

func dropped(res *Result, reason string) int {
	for _, d := range res.Drops {
		if d.Reason == reason {
			return d.Jobs
		}
	}
	return 0
}

// checkScenario builds the result's scenario and parses it as a run
// would.
func checkScenario(t *testing.T, res *Result) {
	t.Helper()
	doc, err := res.Scenario(ScenarioInfo{Source: "sample"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(doc)
	if err != nil {
		t.Fatalf("the imported scenario does not validate: %v", err)
	}
	if !sameJobs(sc.Workload.Jobs, res.Jobs) {
		t.Errorf("the scenario's jobs differ from the imported ones")
	}
}

func TestMalformedSamples(t *testing.T) {
	for _, s := range samples {
		t.Run(s.format+"/"+s.path[strings.LastIndex(s.path, "/")+1:], func(t *testing.T) {
			data := corrupt(t, readSample(t, s.path), s)
			_, err := Import(s.format, bytes.NewReader(data), s.opt)
			if err == nil {
				t.Fatalf("a copy with line %d broken imported without error", s.line)
			}
			if _, ok := err.(Errors); !ok {
				t.Errorf("error is a %T, want line-numbered Errors", err)
			}
			if !strings.Contains(err.Error(), s.wantErr) {
				t.Errorf("error %q does not say %q", err, s.wantErr)
			}
		})
	}
}

// corrupt breaks one field of one line of a sample.
func corrupt(t *testing.T, data []byte, s sample) []byte {
	t.Helper()
	sep := ","
	if s.format == "gavel" {
		sep = "\t"
	}
	lines := strings.SplitAfter(string(data), "\n")
	if s.line > len(lines) {
		t.Fatalf("the sample has no line %d", s.line)
	}
	l := strings.TrimRight(lines[s.line-1], "\r\n")
	f := strings.Split(l, sep)
	if s.value == cut {
		f = f[:s.col]
	} else {
		f[s.col] = s.value
	}
	lines[s.line-1] = strings.Join(f, sep) + "\n"
	return []byte(strings.Join(lines, ""))
}

func TestRoundTrip(t *testing.T) {
	for _, s := range samples {
		t.Run(s.format, func(t *testing.T) {
			res, err := Import(s.format, bytes.NewReader(readSample(t, s.path)), s.opt)
			if err != nil {
				t.Fatal(err)
			}
			var csv bytes.Buffer
			if err := WriteJobsCSV(&csv, res.Jobs); err != nil {
				t.Fatal(err)
			}
			again, err := Import("jobs", bytes.NewReader(csv.Bytes()), Options{Cluster: res.Cluster.Name})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Jobs, res.Jobs) {
				t.Fatalf("import → jobs CSV → import changed the jobs")
			}
			var csv2 bytes.Buffer
			if err := WriteJobsCSV(&csv2, again.Jobs); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(csv.Bytes(), csv2.Bytes()) {
				t.Errorf("the second jobs CSV differs from the first")
			}
			if len(res.Jobs) > maxParsed {
				return
			}
			doc, err := res.Scenario(ScenarioInfo{})
			if err != nil {
				t.Fatal(err)
			}
			third, err := Import("scenario", bytes.NewReader(doc), Options{Cluster: res.Cluster.Name})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(third.Jobs, res.Jobs) {
				t.Fatalf("import → scenario JSON → import changed the jobs")
			}
		})
	}
}

func TestOptions(t *testing.T) {
	data := readSample(t, "testdata/tiresias-sample.csv")
	all, err := Import("tiresias", bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The window keeps [0.5 h, 2 h) after the first submission and moves
	// its start to time 0.
	win, err := Import("tiresias", bytes.NewReader(data), Options{Window: &[2]float64{0.5, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, j := range all.Jobs {
		if j.ArrivalS >= 1800 && j.ArrivalS < 7200 {
			want++
		}
	}
	if len(win.Jobs) != want || want == 0 {
		t.Fatalf("window kept %d jobs, want %d", len(win.Jobs), want)
	}
	for _, j := range win.Jobs {
		if j.ArrivalS < 0 || j.ArrivalS >= 5400 {
			t.Errorf("job %s arrives at %v, outside the shifted window [0, 5400)", j.Name, j.ArrivalS)
		}
	}
	// Scaling halves every arrival.
	half, err := Import("tiresias", bytes.NewReader(data), Options{Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range half.Jobs {
		if j.Name != all.Jobs[i].Name || j.ArrivalS != all.Jobs[i].ArrivalS/2 {
			t.Fatalf("scaled job %d: %s at %v, want %s at %v", i, j.Name, j.ArrivalS, all.Jobs[i].Name, all.Jobs[i].ArrivalS/2)
		}
	}
	// Samples are deterministic for a seed and differ between seeds.
	a, _ := Import("tiresias", bytes.NewReader(data), Options{Sample: 10, Seed: 3})
	b, _ := Import("tiresias", bytes.NewReader(data), Options{Sample: 10, Seed: 3})
	c, _ := Import("tiresias", bytes.NewReader(data), Options{Sample: 10, Seed: 4})
	if len(a.Jobs) != 10 || !reflect.DeepEqual(a.Jobs, b.Jobs) {
		t.Fatalf("sample of 10 with seed 3: %d jobs, equal twice: %v", len(a.Jobs), reflect.DeepEqual(a.Jobs, b.Jobs))
	}
	if names(a.Jobs) == names(c.Jobs) {
		t.Errorf("seeds 3 and 4 drew the same sample")
	}
	for _, bad := range []Options{{Window: &[2]float64{2, 1}}, {Sample: -1}, {Scale: -2}, {BusiestH: 1, Window: &[2]float64{0, 1}}, {Cluster: "nope"}} {
		if _, err := Import("tiresias", bytes.NewReader(data), bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}

func names(jobs []workload.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString(j.Name + " ")
	}
	return b.String()
}

// The busiest window of a hand-made trace is the one with most jobs.
func TestBusiestWindow(t *testing.T) {
	in := "job_id,num_gpu,submit_time,duration\n1,1,0,100\n2,1,10000,100\n3,1,10100,100\n4,1,10200,100\n5,1,20000,100\n"
	res, err := Import("tiresias", strings.NewReader(in), Options{BusiestH: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res.Jobs); got != "job2 job3 job4 " {
		t.Fatalf("busiest hour holds %q, want jobs 2-4", got)
	}
	if res.Jobs[0].ArrivalS != 0 || res.Jobs[2].ArrivalS != 200 {
		t.Errorf("arrivals %v, %v; want 0 and 200", res.Jobs[0].ArrivalS, res.Jobs[2].ArrivalS)
	}
}

// Jobs larger than the cluster and unknown models are warned about with
// their line and counted.
func TestWarnings(t *testing.T) {
	in := "job_id,num_gpu,submit_time,duration\n1,1,0,100\n2,512,10,100\n3,0,20,100\n"
	res, err := Import("tiresias", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Warned != 2 {
		t.Fatalf("kept %d jobs with %d warnings, want 1 and 2: %v", len(res.Jobs), res.Warned, res.Warnings)
	}
	if w := res.Warnings[0].String(); !strings.HasPrefix(w, "line 4: ") || !strings.Contains(w, "0 GPUs") {
		t.Errorf("first warning %q, want line 4 about 0 GPUs", w)
	}
	if w := res.Warnings[1].String(); !strings.HasPrefix(w, "line 3: ") || !strings.Contains(w, "512 GPUs") {
		t.Errorf("second warning %q, want line 3 about 512 GPUs", w)
	}
	// The job left out for its size got a model before the fit, but the
	// note counts only the kept job.
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "1 job names no model: it got") }) {
		t.Errorf("notes %q, want one saying 1 job names no model", res.Notes)
	}
	gavel := "Nope (batch size 1)\tcmd\twd\t--x\t1\t100\t1\t1\t-1\t0\nResNet-50 (batch size 64)\tcmd\twd\t--x\t1\t100\t1\t1\t-1\t0\n"
	res, err = Import("gavel", strings.NewReader(gavel), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || dropped(res, "of an unknown model") != 1 || !strings.HasPrefix(res.Warnings[0].String(), "line 1: ") {
		t.Errorf("unknown Gavel job type: %d jobs, warnings %v", len(res.Jobs), res.Warnings)
	}
}

// polluxIters must match Pollux's validation profiles.
func TestPolluxIterationsMatchProfiles(t *testing.T) {
	for app, pts := range polluxIters {
		for _, p := range pts {
			path := shared + "pollux/traces/" + app + "/validation-" + itoa(int(p[0])) + ".csv"
			data := readSample(t, path)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			last := strings.Split(lines[len(lines)-1], ",")
			if last[1] != itoa(int(p[1])) {
				t.Errorf("%s at batch %v: %v iterations, the profile's last row says %s", app, p[0], p[1], last[1])
			}
		}
	}
	if it, ok := polluxIterations("cifar10", 192); !ok || it != 29720 {
		t.Errorf("cifar10 at 192 interpolates to %v, %v; want 29720 (halfway between 39062 and 20377)", it, ok)
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// sameJobs compares job specs; a scenario's decoded jobs are numbered
// only when a run builds them.
func sameJobs(a, b []workload.Job) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.ID, y.ID = 0, 0
		if x != y {
			return false
		}
	}
	return true
}

func TestDetect(t *testing.T) {
	for _, s := range samples {
		data := readSample(t, s.path)
		if got := Detect(s.path, data[:min(len(data), 4096)]); got != s.format {
			t.Errorf("%s detected as %q, want %q", s.path, got, s.format)
		}
	}
	if got := Detect("x.csv", []byte("a,b\n1,2\n")); got != "" {
		t.Errorf("an unknown CSV detected as %q", got)
	}
	if got := Detect("x.csv", []byte("id,arrival_s,model,gpus\n")); got != "jobs" {
		t.Errorf("a jobs CSV detected as %q", got)
	}
}

// A Pollux job whose per-GPU batch is above the profiled largest runs as
// micro-batches: the same samples in more, smaller iterations.
func TestPolluxMicroBatches(t *testing.T) {
	in := "name,time,application,num_replicas,batch_size\nbert-0,10,bert,6,384\ncifar10-1,20,cifar10,6,2048\n"
	res, err := Import("pollux", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// bert: 384/6 = 64 per GPU, above 12: 6 micro-batches of 11, 6 × 480 iterations.
	if j := res.Jobs[0]; j.BatchSize != 11 || j.Iterations != 2880 {
		t.Errorf("bert: batch %d, %v iterations; want 11 and 2880", j.BatchSize, j.Iterations)
	}
	// cifar10: 2048/6 = 342 per GPU fits: Pollux's 3178 iterations as they are.
	if j := res.Jobs[1]; j.BatchSize != 342 || j.Iterations != 3178 {
		t.Errorf("cifar10: batch %d, %v iterations; want 342 and 3178", j.BatchSize, j.Iterations)
	}
}
