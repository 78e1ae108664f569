package web

import (
	"bytes"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/form"
)

// The committed generated code is what vugugen makes of the .vugu files,
// compacted by build/vgcompact (run `go generate ./web` after editing
// them).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs vugugen")
	}
	tmp := t.TempDir()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || n == "0_components_gen.go" || strings.HasSuffix(n, "_test.go") || !(strings.HasSuffix(n, ".vugu") || strings.HasSuffix(n, ".go")) {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "tool", "vugugen", "-s", "-skip-go-mod", "-skip-main", tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vugugen: %v\n%s", err, out)
	}
	genFile := filepath.Join(tmp, "0_components_gen.go")
	cmd = exec.Command("go", "run", "../build/vgcompact", genFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vgcompact: %v\n%s", err, out)
	}
	want, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("0_components_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("web/0_components_gen.go is out of date: run `go generate ./web`")
	}
}

// render renders the page as HTML.
func render(t *testing.T, a *app.App) string { return renderTB(t, a) }

func renderTB(t testing.TB, a *app.App) string {
	t.Helper()
	var buf bytes.Buffer
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	if err := staticrender.New(&buf).Render(env.RunBuild(&Root{App: a})); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func runDisabled(page string) bool {
	return regexp.MustCompile(`<button id="run"[^>]* disabled`).MatchString(page)
}

func mustContain(t *testing.T, html string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(html, p) {
			t.Errorf("the page lacks %q", p)
		}
	}
}

// Every view renders from the real app state after the default run.
func TestViewsRender(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Start()
	b.Pump(a, apptest.Done(a))
	b.Pump(a, apptest.Drawn(a))

	page := render(t, a)
	mustContain(t, page, `id="metrics"`, `data-metric="avg_jct_s"`, `class="num best"`, `id="plot-jct_cdf"`,
		`id="plot-queue_by_model"`, `id="plot-gantt-fifo"`, `src="blob:`, "FIFO against SJF on 16 GPUs", `id="run"`)
	if runDisabled(page) {
		t.Error("Run is disabled on a valid scenario")
	}

	a.SetTab(app.TabTimeline)
	page = render(t, a)
	mustContain(t, page, `id="gpu-grid"`, `id="tl-slider"`, `class="chip"`, `id="decision-log"`, "GPUs busy")

	a.SetTab(app.TabGallery)
	page = render(t, a)
	for _, g := range a.Gallery {
		if slices.Contains(g.Tags, "lesson") {
			continue // in the Learn path
		}
		mustContain(t, page, `id="open-`+g.Name+`"`, html.EscapeString(g.Title))
	}

	a.SetTab(app.TabScenario)
	for _, k := range []string{"about", "advanced"} {
		a.Toggle(k) // open the sections closed by default
	}
	page = render(t, a)
	mustContain(t, page, `id="f-cluster-servers-0-gpus"`, `id="f-workload-generator-jobs"`, `id="f-seeds-0"`,
		`id="f-policies-1-params-key"`, "16 GPUs: 16 × V100", `id="mode-jobs"`, `id="add-policy"`, `id="f-perf-model"`)

	// An invalid value shows its problem next to its field, the Run button
	// is disabled and the problem is listed with a link to the field.
	var gpus *form.Field
	for _, w := range a.Ed.ClusterWidgets() {
		if w.Table != nil && len(w.Table.Rows) > 0 {
			gpus = w.Table.Rows[0][1]
		}
	}
	a.SetText(gpus, "abc")
	page = render(t, a)
	field := regexp.MustCompile(`<input[^>]*id="f-cluster-servers-0-gpus"[^>]*>\s*<div class="err" id="e-cluster-servers-0-gpus">([^<]*)</div>`)
	m := field.FindStringSubmatch(page)
	if m == nil || m[1] != "“abc” is not a number" {
		t.Errorf("no problem next to the field: %v", m)
	}
	if !runDisabled(page) {
		t.Error("Run is enabled on an invalid scenario")
	}
	mustContain(t, page, "1 problem to fix before running", "Cluster › server group 1 › GPUs per server", `aria-invalid="true"`)

	// The job table and the interference matrix.
	a.SetText(gpus, "4")
	a.SetWorkloadMode(app.ModeJobs)
	a.SetInterferenceMode(app.InterferenceMatrix)
	page = render(t, a)
	mustContain(t, page, `id="job-table"`, `id="f-workload-jobs-29-duration_s"`, `id="matrix"`, `id="f-perf-interference-matrix-3-3"`)
}
