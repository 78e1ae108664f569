package app_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/doc"
)

// defaultWith returns the default scenario with the generator's jobs and
// the servers' count set.
func defaultWith(t *testing.T, jobs, servers int) any {
	t.Helper()
	data, _ := scenarios.Read(scenarios.Default)
	tree, err := doc.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if tree, err = doc.Set(tree, "workload.generator.jobs", json.Number(strconv.Itoa(jobs))); err != nil {
		t.Fatal(err)
	}
	if tree, err = doc.Set(tree, "cluster.servers[0].count", json.Number(strconv.Itoa(servers))); err != nil {
		t.Fatal(err)
	}
	return tree
}

// A link to a big scenario opens it in the editor without running it and
// says why; the user runs it with one click.
func TestBigLinkWaits(t *testing.T) {
	f := apptest.New(t)
	f.Frag = app.EncodeShare(defaultWith(t, 100_000, 4))
	a := app.New(f)
	a.Start()
	if a.Run != nil {
		t.Fatal("a 100,000-job link ran by itself")
	}
	n := a.NoteFor(app.NoteSize)
	if n == nil || !strings.Contains(n.Text, "100,000 jobs × 2 policies on 16 GPUs") || !strings.Contains(n.Text, "link") || a.Tab != app.TabScenario {
		t.Fatalf("note %+v, tab %s", n, a.Tab)
	}
	a.NoteDo(app.NoteSize, "run")
	if !a.Running() || a.NoteFor(app.NoteSize) != nil {
		t.Fatalf("Run it: running %v, note %+v", a.Running(), a.NoteFor(app.NoteSize))
	}
	a.CancelRun()
	f.Pump(a, apptest.Done(a))

	// So does a big scenario restored from storage (a reload must not
	// start a long run by itself either); GPUs count too.
	g := apptest.New(t)
	g.Storage[app.KeyScenario] = string(doc.Marshal(defaultWith(t, 30, 2000)))
	b := app.New(g)
	b.Start()
	if n := b.NoteFor(app.NoteSize); b.Run != nil || n == nil || !strings.Contains(n.Text, "restored") || !strings.Contains(n.Text, "8,000 GPUs") {
		t.Fatalf("restored big scenario: run %v, note %+v", b.Run != nil, n)
	}

	// A small link runs at once.
	h := apptest.New(t)
	h.Frag = app.EncodeShare(defaultWith(t, 300, 4))
	c := app.New(h)
	c.Start()
	if !c.Running() || c.NoteFor(app.NoteSize) != nil {
		t.Error("a small link did not run at once")
	}
	h.Pump(c, apptest.Done(c))
}

// A scenario within the command line's limits but beyond what a browser
// can simulate is refused before any run, with a sentence at the field to change that says how far.
func TestOverBudgetRefused(t *testing.T) {
	streamed := `{"name": "huge", "cluster": {"servers": [{"count": 4, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "gavel", "jobs": 800000, "jobs_per_hour": 5}},
	  "policies": [{"name": "fifo"}, {"name": "sjf"}]}`
	gpus := `{"name": "huge", "cluster": {"servers": [{"count": 625, "gpus": 64, "gpu_type": "V100"}, {"count": 625, "gpus": 64, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "gavel", "jobs": 10, "jobs_per_hour": 5}},
	  "policies": [{"name": "fifo"}]}`
	runs := `{"name": "huge", "cluster": {"servers": [{"count": 4, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "gavel", "jobs": 200000, "jobs_per_hour": 5}},
	  "policies": [{"name": "fifo"}, {"name": "sjf"}, {"name": "fifo", "label": "FIFO 2"}, {"name": "fifo", "label": "FIFO 3"}, {"name": "fifo", "label": "FIFO 4"}, {"name": "fifo", "label": "FIFO 5"}]}`
	for _, c := range []struct{ name, doc, path, want string }{
		{"streamed", streamed, "policies", "2 policies × 800,000 jobs is 1,600,000 job runs, more than the 1,500,000 the page holds"},
		{"gpus", gpus, "cluster.servers", "the cluster has 80,000 GPUs and the page simulates at most 65,536"},
		{"policies", runs, "policies", "6 policies × 200,000 jobs is 1,200,000 job runs, more than the 1,000,000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := apptest.New(t)
			tree, err := doc.Parse([]byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			f.Frag = app.EncodeShare(tree)
			a := app.New(f)
			a.Start()
			if a.Ed.Valid() || a.Run != nil || a.Tab != app.TabScenario {
				t.Fatalf("valid %v, run %v, tab %s", a.Ed.Valid(), a.Run != nil, a.Tab)
			}
			if msg := a.Ed.Problem(c.path); !strings.Contains(msg, c.want) || !strings.Contains(msg, "schedlab run") {
				t.Errorf("problem at %s: %q", c.path, msg)
			}
			a.StartRun()
			if a.Run != nil {
				t.Error("Run ran it")
			}
			if p := a.Ed.JobPreview(); p.Err == "" {
				t.Error("the job preview generated the jobs")
			}
		})
	}
}

// Every built-in scenario, as the page opens it, is within the budget
// and, but for the paper studies, runs at once from a link.
func TestGalleryWithinBudget(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	for _, g := range a.Gallery {
		a.LoadTree(nil)
		a.Open(g.Name)
		if !a.Ed.Valid() {
			t.Errorf("%s: %v", g.Name, a.Ed.Problems)
		}
		a.CancelRun()
		s := a.Ed.Size()
		if s.JobRuns() > app.AutoRunJobRuns || s.GPUs > app.AutoRunGPUs {
			t.Errorf("%s (%s) would not run by itself from a link", g.Name, s.Describe())
		}
		t.Logf("%-28s %s", g.Name, s.Describe())
	}
}
