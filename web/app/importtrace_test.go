package app_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// A trace file opens as a scenario of its jobs, with the import summary
// and line-numbered warnings in the panel; a broken one says where.
func TestImportTrace(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	csv := "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n" +
		"0,1,0,606,vgg19,164,30\n1,8,30,133,vgg11,147,23\n2,0,53,157,inception4,127,26\n3,2,79,513,vgg16,121,20\n"
	a.OpenFile("small.csv", csv)
	if a.Trace == nil || a.Trace.Format != "tiresias" || !a.Trace.Reading {
		t.Fatalf("trace panel %+v, want it reading the file in a worker", a.Trace)
	}
	read := func() { f.Pump(a, func() bool { return !a.Trace.Reading }) }
	read()
	if a.Trace.Err != "" || !strings.Contains(a.Trace.Summary, "3 jobs kept") {
		t.Fatalf("summary %q, error %q", a.Trace.Summary, a.Trace.Err)
	}
	if len(a.Trace.Warnings) != 1 || !strings.HasPrefix(a.Trace.Warnings[0], "line 4: ") {
		t.Errorf("warnings %q, want one about line 4", a.Trace.Warnings)
	}
	if !a.Ed.Valid() || a.Ed.Str("name") != "small" {
		t.Fatalf("the imported scenario: name %q, problems %v", a.Ed.Str("name"), a.Ed.Problems)
	}
	f.Pump(a, apptest.Done(a))
	if a.Res == nil || len(a.Res.Policies[0].Out.Jobs) != 3 {
		t.Fatal("the imported scenario did not run")
	}
	a.Trace.Sample, a.Trace.Seed = "2", "5"
	a.ReimportTrace()
	read()
	if !strings.Contains(a.Trace.Summary, "2 jobs kept") {
		t.Errorf("re-import with a sample of 2: %q %q", a.Trace.Summary, a.Trace.Err)
	}
	// Imported again before the first reply: only the last one counts.
	a.Trace.Sample = "1"
	a.ReimportTrace()
	a.Trace.Sample = "3"
	a.ReimportTrace()
	read()
	f.Pump(a, func() bool { return strings.Contains(a.Trace.Summary, "jobs kept") })
	if !strings.Contains(a.Trace.Summary, "3 jobs kept") {
		t.Errorf("imported with a sample of 1, then 3: %q", a.Trace.Summary)
	}
	a.Trace.Sample = "x"
	a.ReimportTrace()
	if !strings.Contains(a.Trace.Err, "Sample") {
		t.Errorf("a bad sample: %q", a.Trace.Err)
	}
	a.OpenFile("broken.csv", strings.Replace(csv, "0,1,0,606", "0,one,0,606", 1))
	read()
	if !strings.Contains(a.Trace.Err, `line 2: column num_gpu: "one" is not a number`) {
		t.Errorf("broken trace: %q", a.Trace.Err)
	}
	a.OpenFile("what.csv", "a,b\n1,2\n")
	if !strings.Contains(a.Trace.Err, "Could not tell the format") {
		t.Errorf("unknown format: %q", a.Trace.Err)
	}
}

// The panel's "At most GPUs per job" drops wider jobs and "Every job at
// time 0" makes an offline batch, which the SJF-BCO policies accept; bad
// values name their field.
func TestImportTraceMaxGPUsAtZero(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	csv := "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n" +
		"0,1,0,606,vgg19,164,30\n1,8,30,133,vgg11,147,23\n2,2,53,157,inception4,127,26\n3,1,79,513,vgg16,121,20\n"
	a.OpenFile("small.csv", csv)
	read := func() { f.Pump(a, func() bool { return !a.Trace.Reading }) }
	read()
	a.Trace.MaxGPUs, a.Trace.AtZero = "1", true
	a.ReimportTrace()
	read()
	if a.Trace.Err != "" || !strings.Contains(a.Trace.Summary, "2 jobs kept") {
		t.Fatalf("at most 1 GPU: summary %q, error %q", a.Trace.Summary, a.Trace.Err)
	}
	if got, ok := a.Ed.Number("workload.jobs[1].arrival_s"); !ok || got != 0 {
		t.Errorf("every job at time 0: the second job arrives at %v (%v)", got, ok)
	}
	if !slices.ContainsFunc(a.Trace.Notes, func(n string) bool {
		return strings.Contains(n, "every job is submitted at time 0 (Every job at time 0)")
	}) {
		t.Errorf("notes %q lack the time-0 note naming the panel's option", a.Trace.Notes)
	}
	for _, c := range []struct{ max, scale, want string }{
		{"two", "1", `At most GPUs per job: must be a whole number from 0 to 4096, got "two"`},
		{"4097", "1", "At most GPUs per job: must be a whole number from 0 to 4096"},
		{"1", "2", "Time scale: with every job at time 0"},
	} {
		a.Trace.MaxGPUs, a.Trace.Scale = c.max, c.scale
		a.ReimportTrace()
		if !strings.Contains(a.Trace.Err, c.want) {
			t.Errorf("max %q, scale %q: error %q, want %q", c.max, c.scale, a.Trace.Err, c.want)
		}
	}
}
