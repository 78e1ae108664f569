package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
	"github.com/schedlab/schedlab/web/protocol"
)

// field finds the input at path in the cluster section.
func clusterField(t *testing.T, a *app.App, path string) *form.Field {
	t.Helper()
	for _, w := range a.Ed.ClusterWidgets() {
		if w.Table != nil {
			for _, row := range w.Table.Rows {
				for _, c := range row {
					if c.Path == path {
						return c
					}
				}
			}
		}
	}
	t.Fatalf("no field %s", path)
	return nil
}

// The page opens on the default scenario, runs it in parallel workers and
// shows the same metrics as the command line.
func TestDefaultRunMatchesCLI(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	if a.Ed.Str("name") != scenarios.Default {
		t.Fatalf("opened %q", a.Ed.Str("name"))
	}
	a.Start()
	f.Pump(a, apptest.Done(a))
	f.Pump(a, apptest.Drawn(a))
	if a.Run.State != app.RunDone {
		t.Fatalf("run %s: %s", a.Run.State, a.Run.Err)
	}
	if ready, all := a.Workers(); all != 2 || ready != 2 {
		t.Errorf("workers %d/%d, want 2 (one per policy, two cores)", ready, all)
	}
	data, _ := scenarios.Read(scenarios.Default)
	sc, _ := scenario.Parse(data)
	seed := sc.RunSeeds()[0]
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rep.Output(seed))
	var got, exp any
	json.Unmarshal(a.Res.JSON(), &got)
	json.Unmarshal(want, &exp)
	if gb, _ := json.Marshal(got); string(gb) != string(mustCompact(t, want)) {
		t.Errorf("results JSON differs from the CLI's")
	}
	rows := a.Res.MetricRows()
	if len(rows) != 2 || rows[0].Label != "FIFO" || rows[1].Label != "SJF" {
		t.Fatalf("rows %+v", rows)
	}
	if rows[0].Cells[0].Exact != strconv.FormatFloat(rep.Runs[0].Summary.AvgJCT, 'g', -1, 64) {
		t.Errorf("avg JCT %s, want %v", rows[0].Cells[0].Exact, rep.Runs[0].Summary.AvgJCT)
	}
	best := 0
	for _, r := range rows {
		if r.Cells[1].Best {
			best++
		}
	}
	if best != 1 {
		t.Errorf("median column has %d best marks", best)
	}
	if a.Res.CDF.URL == "" || a.Res.Queue.URL == "" || a.Res.Policies[0].Gantt == nil {
		t.Errorf("figures missing: %+v %+v", a.Res.CDF, a.Res.Queue)
	}
	// Downloads.
	a.Download("metrics.csv")
	a.Download("json")
	if csv := string(f.Files["fifo-vs-sjf-metrics.csv"]); !strings.HasPrefix(csv, "policy,seed,jobs") || strings.Count(csv, "\n") != 3 {
		t.Errorf("metrics.csv:\n%s", csv)
	}
	a.DownloadSVG(a.Res.Policies[1].Gantt)
	f.Pump(a, func() bool { return f.Files["fifo-vs-sjf-gantt-sjf.svg"] != nil || a.Res.Policies[1].Gantt.Err != "" })
	if svg := f.Files["fifo-vs-sjf-gantt-sjf.svg"]; !strings.Contains(string(svg[:200]), "<svg") {
		t.Errorf("SVG download: %q (%s)", svg, a.Res.Policies[1].Gantt.Err)
	}
}

func mustCompact(t *testing.T, b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

// Edits validate as typed, keep what was typed, survive a reload, and a
// share link reproduces the scenario exactly.
func TestEditValidateReloadShare(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	count := clusterField(t, a, "cluster.servers[0].count")
	a.SetText(count, "2")
	gpus := clusterField(t, a, "cluster.servers[0].gpus")
	a.SetText(gpus, "abc")
	if a.CanRun() {
		t.Fatal("an invalid scenario can run")
	}
	if msg := a.Ed.FieldProblem(gpus); msg != "“abc” is not a number" {
		t.Errorf("problem next to the field: %q", msg)
	}
	if a.Ed.Text(gpus) != "abc" || a.Ed.Text(count) != "2" {
		t.Errorf("typed text lost: %q %q", a.Ed.Text(gpus), a.Ed.Text(count))
	}
	if ps := a.Ed.AllProblems(); len(ps) != 1 || ps[0].Where != "Cluster › server group 1 › GPUs per server" || ps[0].ID != "f-cluster-servers-0-gpus" {
		t.Errorf("problem list %+v", ps)
	}
	a.StartRun()
	if a.Run != nil {
		t.Error("an invalid scenario started a run")
	}

	// Reload: a new page with the same storage.
	b := app.New(f)
	if b.Ed.JSON() != a.Ed.JSON() || !strings.Contains(b.Restored, "Restored") {
		t.Errorf("reload lost edits:\n%s\n%s", b.Ed.JSON(), a.Ed.JSON())
	}
	if b.Ed.Text(gpus) != "abc" {
		t.Errorf("reload shows %q", b.Ed.Text(gpus))
	}

	// Share into a fresh browser.
	a.SetText(gpus, "8")
	a.MakeShare()
	a.CopyShare()
	if f.Copied != a.Share || !strings.HasPrefix(a.Share, "http://localhost/#s=") {
		t.Fatalf("share link %q", a.Share)
	}
	g := apptest.New(t)
	_, g.Frag, _ = strings.Cut(a.Share, "#")
	c := app.New(g)
	if c.Ed.JSON() != a.Ed.JSON() {
		t.Errorf("the link did not reproduce the scenario")
	}
	if g.Frag != "" {
		t.Error("the fragment should be cleared once read")
	}
	if string(doc.Marshal(c.Ed.Tree)) != g.Storage[app.KeyScenario] {
		t.Error("the shared scenario was not saved")
	}
	// A link opened where other work is stored keeps that work at hand.
	b.SetText(clusterField(t, b, "cluster.servers[0].count"), "7")
	b.Flush()
	_, f.Frag, _ = strings.Cut(a.Share, "#")
	d := app.New(f)
	if d.Ed.JSON() != a.Ed.JSON() || d.Previous == nil {
		t.Fatalf("link over stored work: previous %v", d.Previous != nil)
	}
	d.Undo()
	if n, _ := d.Ed.Number("cluster.servers[0].count"); n != 7 {
		t.Errorf("the stored work was not brought back: count %v", n)
	}
	// A damaged link says so and opens the stored scenario.
	f.Frag = "s=!!!"
	e := app.New(f)
	if n := e.NoteFor(app.NoteLink); n == nil || !n.Err || !strings.Contains(n.Text, "could not be read") || f.Frag != "" {
		t.Errorf("damaged link: %+v, fragment %q", n, f.Frag)
	}
}

// Changing the cluster and running again changes the metrics.
func TestRunAgainChangesMetrics(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	before := a.Res.MetricRows()[0].Cells[0].Exact
	a.SetText(clusterField(t, a, "cluster.servers[0].count"), "8")
	if !a.Stale() {
		t.Error("results should be marked stale after an edit")
	}
	a.StartRun()
	f.Pump(a, apptest.Done(a))
	if after := a.Res.MetricRows()[0].Cells[0].Exact; after == before {
		t.Errorf("average JCT unchanged (%s) after doubling the cluster", after)
	}
	if a.Stale() {
		t.Error("fresh results marked stale")
	}
}

func bigScenario(jobs int) any {
	tree, _ := doc.Parse([]byte(`{"name": "big", "cluster": {"servers": [{"count": 4, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": ` + strconv.Itoa(jobs) + `, "jobs_per_hour": 600,
	    "gpu_mix": [{"gpus": 1, "weight": 1}], "duration": {"dist": "exponential", "mean_s": 300},
	    "models": [{"model": "resnet50", "weight": 1}]}},
	  "policies": [{"name": "fifo"}, {"name": "sjf"}]}`))
	return tree
}

func TestCancel(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.LoadTree(bigScenario(300000))
	a.StartRun()
	f.Pump(a, func() bool { _, total, _ := a.Run.Totals(); return total > 0 })
	if !strings.Contains(a.Run.ProgressText(), "jobs finished, simulated time") {
		t.Errorf("progress text %q", a.Run.ProgressText())
	}
	a.CancelRun()
	f.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunCancelled || a.Res != nil {
		t.Errorf("state %s, results %v", a.Run.State, a.Res != nil)
	}
}

// A worker that does not stop is replaced after the grace period.
func TestCancelReplacesStuckWorkers(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.LoadTree(bigScenario(300000))
	a.StartRun()
	f.Pump(a, func() bool { _, total, _ := a.Run.Totals(); return total > 0 })
	// Simulate workers that never answer: stop delivering their replies.
	f.FreezeAll() // the cancel is never received
	a.CancelRun()
	f.Advance(app.CancelGrace)
	if a.Run.State != app.RunCancelled {
		t.Fatalf("state %s after the grace period", a.Run.State)
	}
	if _, all := a.Workers(); all != 2 {
		t.Errorf("%d workers alive, want 2 fresh ones", all)
	}
}

func TestTimeline(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	if a.TLRun() == nil || a.TLEnd() <= 0 {
		t.Fatal("no timeline")
	}
	a.TLSetSlider(app.SliderSteps / 10)
	g1 := chips(a.TLGrid())
	counts, waiting := a.TLState(10)
	if counts.Busy == 0 || counts.Arrived == 0 || g1 == "" {
		t.Errorf("at %s: %+v, grid %q", a.TLTime(), counts, g1)
	}
	if counts.Waiting != len(waiting) && len(waiting) != 10 {
		t.Errorf("waiting %d listed %d", counts.Waiting, len(waiting))
	}
	log, n := a.TLLog(5)
	if n == 0 || len(log) == 0 || !strings.Contains(log[0].Msg, "started") {
		t.Errorf("log %+v (%d)", log, n)
	}
	a.TLStep(1)
	a.TLSetSlider(app.SliderSteps * 0.6)
	if g2 := chips(a.TLGrid()); g2 == g1 {
		t.Errorf("the grid did not change between %s and later", g1)
	}
	a.TLSetSlider(app.SliderSteps)
	if c, _ := a.TLState(0); c.Finished != c.Arrived || c.Busy != 0 {
		t.Errorf("at the end: %+v", c)
	}
	a.TLSelect(1)
	if a.TLRun().Label != "SJF" {
		t.Error("select")
	}
	// Playing steps event by event to the end.
	a.SetTab(app.TabTimeline)
	a.TLSetSlider(0)
	a.TLPlay()
	steps := 0
	for a.TL.Playing && steps < 1000 {
		f.Advance(app.PlayStep)
		steps++
	}
	if a.TL.Playing || a.TLSlider() != app.SliderSteps || steps < 10 {
		t.Errorf("playing ended at slider %d after %d steps (playing %v)", a.TLSlider(), steps, a.TL.Playing)
	}
}

func chips(rows []app.ServerRow) string {
	var b strings.Builder
	for _, r := range rows {
		for _, c := range r.Cells {
			for _, j := range c.Jobs {
				b.WriteString(c.Name + "=" + j.Name + " ")
			}
		}
	}
	return b.String()
}

func TestWorkloadEditing(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	if a.Ed.WorkloadMode() != app.ModeGenerator {
		t.Fatal("default scenario should use a generator")
	}
	p := a.Ed.JobPreview()
	if p.Total != 30 || len(p.Rows) != 30 || len(p.Summary) == 0 {
		t.Errorf("preview %+v", p)
	}
	a.SetWorkloadMode(app.ModeJobs)
	if a.Ed.WorkloadMode() != app.ModeJobs || a.Ed.JobCount() != 30 || !a.Ed.Valid() {
		t.Fatalf("switch to table: mode %s, %d jobs, problems %v", a.Ed.WorkloadMode(), a.Ed.JobCount(), a.Ed.Problems)
	}
	a.AddJob()
	if a.Ed.JobCount() != 31 || a.Ed.Str("workload.jobs[30].id") != "j31" {
		t.Errorf("add job: %d, id %q", a.Ed.JobCount(), a.Ed.Str("workload.jobs[30].id"))
	}
	a.SortJobs("gpus")
	jobs := doc.List(a.Ed.Tree, "workload.jobs")
	first, _ := doc.Num(jobs[0], "gpus")
	last, _ := doc.Num(jobs[len(jobs)-1], "gpus")
	if first > last {
		t.Errorf("sort: %v .. %v", first, last)
	}
	a.SortJobs("gpus")
	first, _ = doc.Num(doc.List(a.Ed.Tree, "workload.jobs")[0], "gpus")
	if first != 8 {
		t.Errorf("reverse sort starts with %v", first)
	}
	a.RemoveRow("workload.jobs", 0)
	if a.Ed.JobCount() != 30 {
		t.Error("remove")
	}
	a.SetWorkloadMode(app.ModeGenerator)
	if a.Ed.GeneratorKind() != "poisson" || !a.Ed.Valid() {
		t.Errorf("back to the generator: %q, %v", a.Ed.GeneratorKind(), a.Ed.Problems)
	}
	a.SetWorkloadMode(app.ModeJobs)
	if a.Ed.JobCount() != 30 {
		t.Errorf("the edited table was not kept: %d jobs", a.Ed.JobCount())
	}
	a.SetWorkloadMode(app.ModeGenerator)
	a.SetGeneratorKind("gavel")
	if len(a.Ed.GeneratorWidgets()) == 0 || !a.Ed.Valid() {
		t.Errorf("gavel: %v", a.Ed.Problems)
	}
	a.SetGeneratorKind("poisson")
	if n, _ := a.Ed.Number("workload.generator.jobs"); n != 30 {
		t.Errorf("poisson parameters not restored: jobs %v", n)
	}
	// The stash survives a reload.
	b := app.New(f)
	b.SetWorkloadMode(app.ModeJobs)
	if b.Ed.JobCount() != 30 {
		t.Errorf("stash lost on reload: %d jobs", b.Ed.JobCount())
	}
}

func TestInterferenceEditing(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.SetInterferenceMode(app.InterferenceMatrix)
	models := a.Ed.MatrixModels()
	if len(models) != 4 || models[0] != "bert" {
		t.Fatalf("models from the job mix: %v", models)
	}
	a.Ed.NewModel = "gpt2"
	a.AddModel()
	if len(a.Ed.MatrixRows()) != 5 || len(a.Ed.MatrixRows()[4].Cells) != 5 {
		t.Fatal("add model")
	}
	cell := a.Ed.MatrixRows()[0].Cells[1]
	a.SetText(cell, "0.5")
	if !strings.Contains(a.Ed.FieldProblem(cell), "at least 1") {
		t.Errorf("cell problem %q", a.Ed.FieldProblem(cell))
	}
	if ps := a.Ed.AllProblems(); len(ps) != 1 || ps[0].Where != "Interference › bert next to gpt2" && ps[0].Where != "Interference › bert next to ncf" {
		t.Errorf("problem place %+v", ps)
	}
	a.SetText(cell, "2.5")
	if !a.Ed.Valid() || !strings.Contains(a.Ed.CellStyle(cell.Path), "rgb(179,0,0)") {
		t.Errorf("valid %v, style %q", a.Ed.Problems, a.Ed.CellStyle(cell.Path))
	}
	a.Ed.FillValue = "x"
	a.FillMatrix()
	if a.Ed.FillErr == "" {
		t.Error("fill with text")
	}
	a.Ed.FillValue = "1.3"
	a.FillMatrix()
	if v, _ := a.Ed.Number("perf.interference.matrix[4][2]"); v != 1.3 {
		t.Errorf("fill gave %v", v)
	}
	a.RemoveModel(4)
	if len(a.Ed.MatrixModels()) != 4 || !a.Ed.Valid() {
		t.Errorf("remove model: %v", a.Ed.Problems)
	}
	if !strings.Contains(a.Ed.SharingNote(), "None of the chosen policies") {
		t.Errorf("sharing note %q", a.Ed.SharingNote())
	}
	a.SetInterferenceMode(app.InterferenceUniform)
	if u, _ := a.Ed.Number("perf.interference.uniform"); u != 1.5 {
		t.Error("uniform default")
	}
	a.SetInterferenceMode(app.InterferenceMatrix)
	if len(a.Ed.MatrixModels()) != 4 {
		t.Error("matrix not restored")
	}
	a.SetInterferenceMode(app.InterferenceNone)
	if a.Ed.Get("perf.interference") != nil || !a.Ed.Valid() {
		t.Error("none")
	}
}

func TestPoliciesAndProblemsPlacement(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.AddPolicy("fifo")
	cards := a.Ed.PolicyCards()
	if len(cards) != 3 || a.Ed.Str("policies[2].label") != "FIFO 2" || !a.Ed.Valid() {
		t.Fatalf("cards %d, label %q, problems %v", len(cards), a.Ed.Str("policies[2].label"), a.Ed.Problems)
	}
	if cards[0].Doc == "" || cards[0].Paper == "" || len(cards[0].Widgets) == 0 {
		t.Errorf("card %+v", cards[0])
	}
	a.MovePolicy(2, -1)
	if a.Ed.Str("policies[1].label") != "FIFO 2" {
		t.Error("move")
	}
	a.RemovePolicy(1)
	a.RemovePolicy(1)
	a.RemovePolicy(0)
	if a.CanRun() || len(a.Ed.Unplaced("policies")) != 1 {
		t.Errorf("no policies: %v %+v", a.Ed.Problems, a.Ed.Unplaced("policies"))
	}
	// A problem without a field shows at its section.
	a.Ed.SetValue("workload.generator.jobs", nil)
	a.Ed.SetValue("workload.generator", nil)
	if u := a.Ed.Unplaced("workload"); len(u) != 1 || !strings.Contains(u[0].Msg, "needs jobs or a generator") {
		t.Errorf("unplaced %+v", u)
	}
}

func TestImportExport(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Export()
	data := f.Files["fifo-vs-sjf.json"]
	if len(data) == 0 {
		t.Fatal("no export")
	}
	a.Import("broken.json", `{"name": `)
	if !strings.Contains(a.ImportErr, "broken.json is not a JSON document") {
		t.Errorf("import error %q", a.ImportErr)
	}
	a.Import("bad.json", `{"name": "x", "cluster": {"servers": [{"count": 0, "gpus": 4, "gpu_type": "V100"}]}, "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "m", "duration_s": 1}]}, "policies": [{"name": "fifo"}]}`)
	if a.ImportErr != "" || a.Ed.Valid() || a.Ed.Problem("cluster.servers[0].count") == "" {
		t.Errorf("import with problems: %q %v", a.ImportErr, a.Ed.Problems)
	}
	a.Import("back.json", string(data))
	if !a.Ed.Valid() || a.Ed.Str("name") != "fifo-vs-sjf" {
		t.Error("re-import")
	}
	if name, modified := a.Builtin(); name != "fifo-vs-sjf" || modified {
		t.Errorf("builtin %q %v", name, modified)
	}
	a.Open("tiny")
	f.Pump(a, apptest.Done(a))
	if a.Res == nil || len(a.Res.Policies[0].Out.Jobs) != 3 {
		t.Error("open tiny")
	}
}

// With one core, one worker runs the policies one after another.
func TestOneCore(t *testing.T) {
	f := apptest.New(t)
	f.NCores = 1
	a := app.New(f)
	a.Open("head-of-line")
	f.Pump(a, apptest.Done(a))
	f.Pump(a, apptest.Drawn(a))
	if _, all := a.Workers(); all != 1 {
		t.Errorf("%d workers on one core", all)
	}
	if a.Run.State != app.RunDone || len(a.Res.Policies) != 3 || a.Res.Policies[1].Label != "FIFO (backfill)" {
		t.Fatalf("state %s, %d policies", a.Run.State, len(a.Res.Policies))
	}
	if a.Res.CDF.URL == "" {
		t.Error("no CDF")
	}
}

// A policy run that stops early (here at its event budget) shows its
// error with the results and is never marked best.
func TestRunStoppedEarly(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	tree, _ := doc.Parse([]byte(`{"name": "budget", "cluster": {"servers": [{"count": 1, "gpus": 1, "gpu_type": "V100"}]},
	  "workload": {"generator": {"kind": "poisson", "jobs": 500, "jobs_per_hour": 60,
	    "gpu_mix": [{"gpus": 1, "weight": 1}], "duration": {"dist": "fixed", "mean_s": 600},
	    "models": [{"model": "resnet50", "weight": 1}]}},
	  "engine": {"max_events": 50},
	  "policies": [{"name": "fifo"}, {"name": "sjf"}]}`))
	a.LoadTree(tree)
	a.StartRun()
	f.Pump(a, apptest.Done(a))
	f.Pump(a, apptest.Drawn(a))
	rows := a.Res.MetricRows()
	if a.Run.State != app.RunDone || rows[0].Error == "" || !strings.Contains(rows[0].Error, "event") {
		t.Errorf("state %s, rows %+v", a.Run.State, rows)
	}
	if rows[0].Cells[0].Best {
		t.Error("a run that stopped early must not be marked best")
	}
}

// Two jobs on one GPU mark it shared in the grid; a job holding no GPU
// after its arrival is waiting.
func TestTimelineSharedGPU(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 2, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	at := func(x float64) *float64 { return &x }
	a.Res = &app.Results{RunID: 1, Cluster: c, Policies: []*app.PolicyResult{{Label: "X",
		Out: results.PolicyOutput{Jobs: []results.JobOutput{
			{ID: "a", GPUs: 1, ArrivalS: 0, StartS: at(0), FinishS: at(100)},
			{ID: "b", GPUs: 1, ArrivalS: 10, StartS: at(10), FinishS: at(90)},
			{ID: "c", GPUs: 2, ArrivalS: 20, StartS: at(100), FinishS: at(150)},
		}},
		Intervals: []protocol.Interval{{GPU: 0, Job: 0, StartS: 0, EndS: 100}, {GPU: 0, Job: 1, StartS: 10, EndS: 90},
			{GPU: 0, Job: 2, StartS: 100, EndS: 150}, {GPU: 1, Job: 2, StartS: 100, EndS: 150}},
	}}}
	a.TL.T = 50
	grid := a.TLGrid()
	if len(grid) != 1 || !grid[0].Cells[0].Shared || len(grid[0].Cells[0].Jobs) != 2 || grid[0].Cells[1].Shared {
		t.Fatalf("grid %+v", grid)
	}
	n, waiting := a.TLState(10)
	if n.Running != 2 || n.Waiting != 1 || len(waiting) != 1 || waiting[0].Name != "c" || n.Busy != 1 {
		t.Errorf("counts %+v waiting %+v", n, waiting)
	}
}

// A paper study whose preset is thousands of jobs opens in its quick
// version, says so in the gallery, runs, and counts as unmodified. It
// runs the cheapest such study (its quick version's jobs × policies).
func TestHeavyStudyOpensQuick(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	name, cost := "", int64(-1)
	for _, g := range a.Gallery {
		if !strings.Contains(g.Description, "quick version") {
			continue
		}
		data, _ := scenarios.Read(g.Name)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if q, err := sc.QuickVariant(); err == nil {
			jobs, _ := q.JobCount()
			if c := jobs * int64(len(q.Policies)); cost < 0 || c < cost {
				name, cost = g.Name, c
			}
		}
	}
	if name == "" {
		t.Fatal("the gallery says of no study that it opens its quick version")
	}
	data, _ := scenarios.Read(name)
	full, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if full.Quick == nil || len(full.Quick.Set) == 0 {
		t.Fatalf("the gallery says %s opens its quick version, but it has none", name)
	}
	quick, _ := full.QuickVariant()
	t.Logf("opening %s (its quick version: %d job-runs)", name, cost)
	a.Open(name)
	compact := func(b []byte) string {
		tree, err := doc.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		return string(doc.Compact(tree))
	}
	if got := a.Ed.JSON(); got != compact(quick.Document()) || got == compact(full.Document()) {
		t.Fatal("the page did not open the quick version")
	}
	if _, modified := a.Builtin(); modified {
		t.Error("the freshly opened quick version counts as modified")
	}
	if a.Ed.Str("name") != quick.Name {
		t.Errorf("opened %q", a.Ed.Str("name"))
	}
	found := false
	for _, g := range a.Gallery {
		if g.Name == name {
			found = strings.Contains(g.Description, "quick version")
		}
	}
	if !found {
		t.Error("the gallery does not say the page opens the quick version")
	}
	f.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunDone {
		t.Fatalf("run %s: %s", a.Run.State, a.Run.Err)
	}
}

// A scenario that asks for extra plots gets them on the results page:
// gavel-small shows each policy's target against received shares and the
// LP objective over time.
func TestExtraFigures(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Open("gavel-small")
	f.Pump(a, apptest.Done(a))
	f.Pump(a, apptest.Drawn(a))
	if a.Run.State != app.RunDone {
		t.Fatalf("run %s: %s", a.Run.State, a.Run.Err)
	}
	got := map[string]bool{}
	for _, fig := range a.Res.Extra {
		if len(fig.PNG) == 0 || fig.URL == "" {
			t.Errorf("figure %s has no image", fig.Name)
		}
		got[fig.Name] = true
	}
	for _, want := range []string{"shares-las", "shares-gavel", "shares-gavel-w-ss", "series-gavel-objective"} {
		if !got[want] {
			t.Errorf("no extra figure %s (got %v)", want, got)
		}
	}
}

// A paper scenario shows the paper's numbers beside the run's own: those
// without a sweep value, or at the value the scenario is written at.
func TestPaperNumbersBesideOurs(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Open("sjf-bsbf-table3")
	f.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunDone {
		t.Fatalf("run %s: %s", a.Run.State, a.Run.Err)
	}
	ref := a.Res.Reference
	if ref == nil {
		t.Fatal("no reference on the results")
	}
	data, _ := scenarios.Read("sjf-bsbf-table3")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Rows) != len(sc.Reference.Values) {
		t.Errorf("%d rows for %d reported values", len(ref.Rows), len(sc.Reference.Values))
	}
	var fifo *app.PolicyResult
	for _, p := range a.Res.Policies {
		if p.Label == "FIFO" {
			fifo = p
		}
	}
	found := false
	for _, r := range ref.Rows {
		if r.Policy == "FIFO" && r.Group == "large" && r.Metric == "Average JCT" {
			found = true
			ours := fifo.Out.Large.AvgJCT
			if r.Paper != "3.92 h" || r.Ours != results.Duration(ours) || r.Ratio != fmt.Sprintf("%.2f×", ours/(3.92*3600)) {
				t.Errorf("FIFO large-job JCT row %+v; ours %g s", r, ours)
			}
		}
		if r.Ours == "–" {
			t.Errorf("row %+v has no value of ours", r)
		}
	}
	if !found {
		t.Error("no row for FIFO's large-job average JCT")
	}
	if !strings.Contains(ref.Note, "schedlab run sjf-bsbf-table3") {
		t.Errorf("note %q does not say where the verdicts are", ref.Note)
	}

	// A sweep: only the values at the sweep value the page runs.
	a.Open("gavel-fig8-las-single")
	f.Pump(a, apptest.Done(a))
	if a.Res == nil || a.Res.Reference == nil || a.Res.Name != "gavel-fig8-las-single" {
		t.Fatal("no reference for the Figure 8 sweep")
	}
	data, _ = scenarios.Read("gavel-fig8-las-single")
	sc, _ = scenario.Parse(data)
	base, ok := sc.BaseSweepValue()
	want := 0
	for _, v := range sc.Reference.Values {
		if v.X == nil || ok && *v.X == base {
			want++
		}
	}
	if want == 0 || want == len(sc.Reference.Values) || len(a.Res.Reference.Rows) != want {
		t.Errorf("%d rows; want the %d of %d values at %g", len(a.Res.Reference.Rows), want, len(sc.Reference.Values), base)
	}
	if !strings.Contains(a.Res.Reference.Note, "at other sweep points") {
		t.Errorf("note %q does not mention the other sweep points", a.Res.Reference.Note)
	}
}

// A policy that needs another perf model says so on its card, and the
// editor shows the validator's refusal at its name.
func TestPolicyNeedsShown(t *testing.T) {
	a := app.New(apptest.New(t))
	a.AddPolicy("ojpp")
	cards := a.Ed.PolicyCards()
	c := cards[len(cards)-1]
	if c.Needs != "Needs perf model memshare." {
		t.Errorf("needs %q", c.Needs)
	}
	if msg := a.Ed.Problem(c.Path + ".name"); !strings.Contains(msg, "works only with perf model memshare") || a.CanRun() {
		t.Errorf("problem at the name %q, can run %v", msg, a.CanRun())
	}
	if cards[0].Needs != "" {
		t.Errorf("%s needs %q", cards[0].Name, cards[0].Needs)
	}
}
