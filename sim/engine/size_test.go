package engine

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Every job of a run has a jobRec for the whole run: a million jobs cost
// a million of them, so a field that grows it should be a choice. A
// jobRun exists only while a job is pending or running.
func TestJobStateSize(t *testing.T) {
	if n := unsafe.Sizeof(jobRec{}); n > 88 {
		t.Errorf("jobRec is %d bytes, more than 88", n)
	}
	if n := unsafe.Sizeof(jobRun{}); n > 96 {
		t.Errorf("jobRun is %d bytes, more than 96", n)
	}
	// a large run writes 100,000 log entries, one a start, into fresh
	// memory
	if n := unsafe.Sizeof(Decision{}); n > 80 {
		t.Errorf("Decision is %d bytes, more than 80", n)
	}
}

// The running state of a job is freed when it finishes and its slot
// reused: 1,000 one-GPU jobs arriving one after another on one GPU, each
// done before the next arrives, need one slot, and every finished job's
// record keeps its numbers.
func TestRunningStateReused(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	var in []workload.Job
	for i := range 1000 {
		in = append(in, workload.Job{Name: fmt.Sprint("j", i), ArrivalS: float64(10 * i), GPUs: 1, DurationS: 5, Model: "m"})
	}
	jobs, err := workload.Finalize(in)
	if err == nil {
		err = m.Prepare(c, jobs)
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := newState(Config{Cluster: c, Jobs: jobs, Perf: m, Policy: firstFit{1}, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.loop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(s.act) != 1 || len(s.freeAct) != 1 {
		t.Errorf("%d slots, %d free: finished jobs' slots were not reused", len(s.act), len(s.freeAct))
	}
	s.finalize()
	for _, r := range s.res.Jobs {
		if r.Status != Finished || r.FinishS-r.ArrivalS != 5 || r.RunS != 5 || r.Iterations != jobs[r.Job].Iterations {
			t.Fatalf("record %+v", r)
		}
	}
}

// record writes a job's record field by field into the record it reuses
// for every job: each field must be written, or a record would keep what
// the last job's said. Every field of r starts non-zero here, and must
// come out as a record written into a zero JobRecord does.
func TestRecordSetsEveryField(t *testing.T) {
	s := &State{jobs: []workload.Job{{ID: 0, Name: "a", Model: "m", GPUs: 2, ArrivalS: 1}}}
	j := &jobRec{status: Finished, firstStart: 3, lastStart: 3, finish: 9, solo: 6, runTime: 6, gpuSeconds: 12, done: 5, starts: 1}
	var want JobRecord
	s.record(&want, 0, j)
	var r JobRecord
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("stale")
		case reflect.Float64:
			f.SetFloat(-7)
		case reflect.Int, reflect.Int32, reflect.Uint8:
			if f.CanInt() {
				f.SetInt(7)
			} else {
				f.SetUint(7)
			}
		default:
			t.Fatalf("JobRecord.%s is a %s: teach this test to fill it", v.Type().Field(i).Name, f.Kind())
		}
	}
	s.record(&r, 0, j)
	if r != want {
		t.Errorf("record left fields of the last record:\n got %+v\nwant %+v", r, want)
	}
}
