package protocol

import (
	"math"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

func TestJobsRoundTrip(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	jobs := []results.JobOutput{
		{ID: "j1", Model: "resnet50", GPUs: 4, Weight: 1, Status: "finished", ArrivalS: 0, StartS: f(0), FinishS: f(3600.5), JCTS: f(3600.5), QueueS: f(0), Preemptions: 2, Migrations: 1, SoloS: f(1800), Slowdown: f(1.0002)},
		{ID: "j2", Model: "bert", GPUs: 1, Weight: 2.5, Entity: "team-ü", Status: "pending", ArrivalS: 12.25, Reason: "needs 64 GPUs; the cluster has 32"},
		{ID: "", Model: "", Status: "running", ArrivalS: 1e300, StartS: f(math.Copysign(0, -1))},
	}
	b := EncodeJobs(jobs)
	got, err := DecodeJobs(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, jobs) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, jobs)
	}
	if got, err := DecodeJobs(EncodeJobs(nil)); err != nil || len(got) != 0 {
		t.Errorf("no jobs: %v, %v", got, err)
	}
	// Every truncation and a trailing byte are errors, never a panic.
	for n := range len(b) {
		if _, err := DecodeJobs(b[:n]); err == nil {
			t.Errorf("%d of %d bytes decoded without an error", n, len(b))
		}
	}
	if _, err := DecodeJobs(append(b, 0)); err == nil {
		t.Error("a trailing byte decoded without an error")
	}
}

func TestLogRoundTrip(t *testing.T) {
	log := []LogEntry{{T: 0, Job: 0, Msg: "start j1 on s0/g0"}, {T: 12.5, Job: -1, Msg: ""}, {T: 1e9, Job: 19999, Msg: "préempt"}}
	b := EncodeLog(log)
	got, err := DecodeLog(b)
	if err != nil || !reflect.DeepEqual(got, log) {
		t.Errorf("round trip: %+v (%v), want %+v", got, err, log)
	}
	for n := range len(b) {
		if _, err := DecodeLog(b[:n]); err == nil {
			t.Errorf("%d of %d bytes decoded without an error", n, len(b))
		}
	}
}

// The yielding decoders give what the plain ones give and yield once per
// YieldEvery records (10×YieldEvery intervals), never at the start.
func TestDecodeYielding(t *testing.T) {
	const n = 2*YieldEvery + 1
	jobs := make([]results.JobOutput, n)
	log := make([]LogEntry, n)
	iv := make([]Interval, 20*YieldEvery+1)
	for i := range jobs {
		jobs[i] = results.JobOutput{ID: "j" + string(rune('a'+i%26)), Status: "pending", ArrivalS: float64(i)}
		log[i] = LogEntry{T: float64(i), Job: i, Msg: "m"}
	}
	for i := range iv {
		iv[i] = Interval{GPU: int32(i % 8), Job: int32(i), StartS: float64(i), EndS: float64(i + 1)}
	}
	yields := 0
	yield := func() { yields++ }
	gotJobs, err := DecodeJobsYielding(EncodeJobs(jobs), yield)
	if err != nil || !reflect.DeepEqual(gotJobs, jobs) || yields != 2 {
		t.Errorf("jobs: equal %v, err %v, %d yields, want 2", reflect.DeepEqual(gotJobs, jobs), err, yields)
	}
	yields = 0
	gotLog, err := DecodeLogYielding(EncodeLog(log), yield)
	if err != nil || !reflect.DeepEqual(gotLog, log) || yields != 2 {
		t.Errorf("log: equal %v, err %v, %d yields, want 2", reflect.DeepEqual(gotLog, log), err, yields)
	}
	yields = 0
	gotIv, err := DecodeIntervalsYielding(EncodeIntervals(iv), yield)
	if err != nil || !reflect.DeepEqual(gotIv, iv) || yields != 2 {
		t.Errorf("intervals: equal %v, err %v, %d yields, want 2", reflect.DeepEqual(gotIv, iv), err, yields)
	}
}
