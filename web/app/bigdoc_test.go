package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/trace"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/protocol"
)

// phillyDocument is the scenario the page's import of the whole Philly
// log gives (74,426 jobs), read as an engine worker reads it.
func phillyDocument(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "pollux", "traces", "philly.csv"))
	if err != nil {
		tb.Skipf("the Philly log is not available: %v", err) // a clone of the project alone has no ../shared
	}
	req := protocol.ImportRequest{Name: "philly.csv", Format: trace.Detect("philly.csv", data[:4096]),
		Options: trace.Options{Seed: 1, Scale: 1}, Scenario: "philly"}
	im := protocol.ImportTrace(req, data)
	if im.Err != "" {
		tb.Fatal(im.Err)
	}
	return im.Document
}

// renderEditor asks the editor what the Scenario tab's render asks.
func renderEditor(a *app.App) {
	e := a.Ed
	_ = e.JobRows()
	_ = e.Unplaced("workload")
	_ = e.Unplaced("")
	_ = e.AllProblems()
	_ = e.JobPages()
	_ = e.ClusterSummary()
	_ = e.WorkloadModels()
	_, _ = a.Builtin()
}

// BenchmarkOpenPhilly opens the imported Philly log in the editor the way
// the page does when the worker's reply arrives (App.Import: parse,
// validate, store), then asks what the editor's render asks.
func BenchmarkOpenPhilly(b *testing.B) {
	text := phillyDocument(b)
	b.ResetTimer()
	cpu := cputime.Process()
	defer func() { b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N)/1e9, "cpu-s/op") }()
	for range b.N {
		a := app.New(apptest.New(b))
		a.Import("philly.csv", text)
		if !a.Ed.Valid() {
			b.Fatalf("problems %v", a.Ed.Problems)
		}
		a.SetTab(app.TabScenario)
		renderEditor(a)
	}
}

// bigTrace is a Tiresias-format trace of n jobs with repeated models and
// GPU counts, and durations that tie (so that sorting must be stable).
func bigTrace(n int) string {
	var b strings.Builder
	b.WriteString("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n")
	models := []string{"vgg19", "resnet50", "inception4", "vgg16"}
	for i := range n {
		fmt.Fprintf(&b, "%d,%d,%d,%d,%s,%d,%d\n", i, 1<<(i%4), i*7, 100+i%13, models[i%len(models)], 60+(i*37)%900, 20)
	}
	return b.String()
}

// generic reads JSON the generic way (encoding/json, numbers as written),
// the reference the editor's document must agree with.
func generic(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return v
}

// A big job table (20,000 jobs) imported, edited, sorted twice, stored,
// exported, shared and imported again is the same scenario as the
// same steps applied to encoding/json's reading of it, and each
// encoding of it is encoding/json's of the same document.
func TestBigJobTable(t *testing.T) {
	const n = 20000
	f := apptest.New(t)
	a := app.New(f)
	a.OpenFile("big.csv", bigTrace(n))
	f.Pump(a, func() bool { return !a.Trace.Reading })
	if a.Ed.JobCount() != n || !a.Ed.Valid() {
		t.Fatalf("%d jobs, problems %v (%s)", a.Ed.JobCount(), a.Ed.Problems, a.Trace.Err)
	}
	ref := generic(t, []byte(a.Ed.JSON()))
	refJobs := ref.(map[string]any)["workload"].(map[string]any)["jobs"].([]any)

	// Edit a cell on page 3 of the table.
	a.Ed.JobsPage = 3
	row := a.Ed.JobRows()[7]
	for _, c := range row.Cells {
		if c.Name == "gpus" {
			a.SetText(c, "3")
		}
	}
	refJobs[row.Index].(map[string]any)["gpus"] = json.Number("3")

	// Sort by duration, then again (reversed): ties keep their order.
	a.SortJobs("duration_s")
	a.SortJobs("duration_s")
	dur := func(j any) float64 {
		f, _ := j.(map[string]any)["duration_s"].(json.Number).Float64()
		return f
	}
	sort.SliceStable(refJobs, func(x, y int) bool { return dur(refJobs[x]) < dur(refJobs[y]) })
	sort.SliceStable(refJobs, func(x, y int) bool { return dur(refJobs[y]) < dur(refJobs[x]) })
	if !a.Ed.Valid() {
		t.Fatalf("after the edits: %v", a.Ed.Problems)
	}

	a.Export()
	exported := f.Files["big.json"]
	if !reflect.DeepEqual(generic(t, exported), ref) {
		t.Fatal("the exported scenario differs from the same edits made to encoding/json's reading")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, exported); err != nil || compact.String() != a.Ed.JSON() {
		t.Fatalf("the export is not the editor's document: %v", err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil || indented.String()+"\n" != string(exported) {
		t.Error("the export is not laid out as encoding/json indents it")
	}
	// A big scenario is stored deflated, which fits where its JSON would
	// not.
	f.Quota = len(app.KeyScenario) + compact.Len()/2
	for k, v := range f.Storage {
		if k != app.KeyScenario {
			f.Quota += len(k) + len(v)
		}
	}
	if f.Quota >= compact.Len() {
		t.Fatalf("a quota of %d bytes would hold the %d-byte compact JSON", f.Quota, compact.Len())
	}
	for _, c := range a.Ed.JobRows()[1].Cells {
		if c.Name == "gpus" {
			a.SetText(c, "2") // an edit, which saves
		}
	}
	a.Flush()
	if a.NoteFor(app.NoteSave) != nil {
		t.Errorf("a big scenario did not fit in storage: %s", a.NoteFor(app.NoteSave).Text)
	}
	// A reload brings the same scenario back.
	if reloaded := app.New(f); reloaded.Ed.JSON() != a.Ed.JSON() {
		t.Error("the stored big scenario does not reload as the editor's document")
	}
	tree, err := app.DecodeShare(app.EncodeShare(a.Ed.Tree))
	if err != nil || string(doc.Compact(tree)) != a.Ed.JSON() {
		t.Errorf("the share link gives another scenario (%v)", err)
	}

	// An editor that defers checking a big document keeps its verdict
	// until CheckNow.
	tree, _ = doc.Parse(exported)
	e := app.NewEditor(tree)
	e.Defer = true
	cell := e.JobRows()[0].Cells[0]
	e.SetText(cell, "")
	if !e.Stale() || !e.Valid() {
		t.Errorf("an edit to a big document was checked at once (stale %v, valid %v)", e.Stale(), e.Valid())
	}
	if !e.CheckNow() || e.Valid() || e.Problem(cell.Path) == "" || e.Stale() {
		t.Errorf("CheckNow: valid %v, problem at %s %q", e.Valid(), cell.Path, e.Problem(cell.Path))
	}

	b := app.New(apptest.New(t))
	b.Import("big.json", string(exported))
	if b.Ed.JSON() != a.Ed.JSON() || !b.Ed.Valid() {
		t.Error("imported again, the scenario differs")
	}
}

// BenchmarkOpenPhillyPhases reports the CPU time of each part of opening
// the imported Philly log. Run it in WebAssembly under Node.js too, where
// all of it is on one thread as on the page's main thread:
// GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec".
func BenchmarkOpenPhillyPhases(b *testing.B) {
	text := phillyDocument(b)
	reply, _ := json.Marshal(protocol.Imported{Document: text})
	phases := map[string]time.Duration{}
	timed := func(name string, f func()) {
		t0 := cputime.Process()
		f()
		phases[name] += cputime.Process() - t0
	}
	b.ResetTimer()
	for range b.N {
		var im protocol.Imported
		timed("1-reply", func() { _ = json.Unmarshal(reply, &im) })
		var tree any
		timed("2-parse", func() { tree, _ = doc.Parse([]byte(im.Document)) })
		var compact []byte
		timed("3-compact", func() { compact = doc.Compact(tree) })
		timed("4-schema-parse", func() { _, _ = schema.Parse(compact) })
		timed("5-validate", func() { _, _ = scenario.Parse(compact) })
		timed("6-marshal", func() { _ = doc.Marshal(tree) })
	}
	for _, k := range []string{"1-reply", "2-parse", "3-compact", "4-schema-parse", "5-validate", "6-marshal"} {
		b.ReportMetric(float64(phases[k].Milliseconds())/float64(b.N), k+"-cpu-ms/op")
	}
}
