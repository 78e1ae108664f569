package app_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

var (
	barRE = regexp.MustCompile(`<rect id="gb-\d+" class="bar"[^>]* data-gpu="(\d+)" data-job="(\d+)" data-s="([^"]+)" data-e="([^"]+)"`)
	rowRE = regexp.MustCompile(`<text x="[^"]+" y="[^"]+" text-anchor="end" fill="#333" font-size="[^"]+">([^<]+)</text>`)
)

// drawnBars reads the bars an interactive chart drew: "row job start end"
// per bar, sorted, with the job named.
func drawnBars(t *testing.T, svg string, jobName func(int) string) []string {
	t.Helper()
	var out []string
	for _, m := range barRE.FindAllStringSubmatch(svg, -1) {
		job, _ := strconv.Atoi(m[2])
		s, err1 := strconv.ParseFloat(m[3], 64)
		e, err2 := strconv.ParseFloat(m[4], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bar %q: bad times", m[0])
		}
		out = append(out, fmt.Sprintf("%s %s %v %v", m[1], jobName(job), s, e))
	}
	slices.Sort(out)
	return out
}

// The interactive Gantt chart draws exactly the intervals the engine's
// gonum/plot Gantt chart draws: the same bars (GPU, job, start, end) and
// the same rows, for every policy of a scenario with strict and
// backfilling FIFO, and of one where jobs share GPUs.
func TestInteractiveGanttShowsTheEnginesData(t *testing.T) {
	for _, name := range []string{"head-of-line", "sjf-bsbf-pair"} {
		t.Run(name, func(t *testing.T) {
			f := apptest.New(t)
			a := app.New(f)
			a.Open(name)
			f.Pump(a, apptest.Done(a))
			if a.Run.State != app.RunDone {
				t.Fatalf("run %s: %s", a.Run.State, a.Run.Err)
			}
			sc, err := scenario.Parse([]byte(a.Res.Doc))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{a.Res.Seed}})
			if err != nil {
				t.Fatal(err)
			}
			shared := 0
			for k, p := range a.Res.Policies {
				rows, bars := experiment.GanttBars(rep.Runs[k])
				var want []string
				for _, b := range bars {
					want = append(want, fmt.Sprintf("%d %s %v %v", b.Row, b.Label, b.Start, b.End))
				}
				slices.Sort(want)
				g := app.NewGantt()
				g.ShowIdle = true // every row, as the engine's chart
				a.GanttSelect(g, k)
				svg := a.GanttSVG(g, 900)
				got := drawnBars(t, svg, func(j int) string { return p.Out.Jobs[j].ID })
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Errorf("%s: the page drew %d bars, the engine's chart %d; first difference: %s", p.Label, len(got), len(want), firstDiffLine(got, want))
				}
				var names []string
				for _, m := range rowRE.FindAllStringSubmatch(svg, -1) {
					names = append(names, m[1])
				}
				if !slices.Equal(names, rows) {
					t.Errorf("%s: rows %v, the engine's chart has %v", p.Label, names, rows)
				}
				shared += strings.Count(svg, `stroke="#b00020"`)
			}
			if name == "sjf-bsbf-pair" && shared == 0 {
				t.Error("no bar is marked as sharing its GPU in a scenario whose policies share GPUs")
			}
		})
	}
}

func firstDiffLine(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("page %q, engine %q", a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// Idle GPUs fold away: a window in which most GPUs hold no job draws one
// row for each run of idle GPUs, and finding a job zooms in on it.
func TestInteractiveGanttFoldsAndFinds(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	if a.Ed.Str("name") != scenarios.Default {
		t.Fatalf("opened %q", a.Ed.Str("name"))
	}
	a.Start()
	f.Pump(a, apptest.Done(a))
	g := a.ResultsGantt()
	p := a.Res.Policies[0]
	// the last minute of the run: few GPUs still busy
	end := 0.0
	for _, iv := range p.Intervals {
		end = max(end, iv.EndS)
	}
	g.From, g.To = end-60, end
	svg := a.GanttSVG(g, 900)
	folds := strings.Count(svg, "idle here")
	rowsDrawn := len(rowRE.FindAllString(svg, -1))
	if folds == 0 || rowsDrawn+folds >= a.Res.Cluster.NumGPUs() {
		t.Errorf("at the end of the run %d rows and %d folds for %d GPUs: idle GPUs did not fold", rowsDrawn, folds, a.Res.Cluster.NumGPUs())
	}
	g.ShowIdle = true
	if n := len(rowRE.FindAllString(a.GanttSVG(g, 900), -1)); n != a.Res.Cluster.NumGPUs() {
		t.Errorf("unfolded: %d rows for %d GPUs", n, a.Res.Cluster.NumGPUs())
	}
	// find a job: the window closes in on it and its bars are outlined
	a.GanttReset(g)
	job := p.Out.Jobs[len(p.Out.Jobs)/2]
	g.Find = strings.ToUpper(job.ID)
	a.GanttFind(g)
	lo, hi := g.Window(p)
	if g.FindErr != "" || g.Found < 0 || lo > job.ArrivalS || hi < *job.FinishS || hi-lo >= end {
		t.Errorf("finding %s: window [%v, %v] of a %v s run, error %q", job.ID, lo, hi, end, g.FindErr)
	}
	if !strings.Contains(a.GanttSVG(g, 900), `stroke="#000" stroke-width="2" data-gpu`) {
		t.Error("the found job's bars are not outlined")
	}
	g.Find = "no-such-job"
	a.GanttFind(g)
	if g.FindErr == "" {
		t.Error("finding a job that is not there says nothing")
	}
	// clicking a bar opens the story of its job
	m := regexp.MustCompile(`id="(gb-\d+)"[^>]*data-job="(\d+)"`).FindStringSubmatch(svg)
	a.GanttClick(g, m[1])
	want, _ := strconv.Atoi(m[2])
	if a.Story == nil || a.Story.Job != want {
		t.Errorf("clicking %s opened %+v, want the story of job %d", m[1], a.Story, want)
	}
}

// The page draws a run's chart in a task after the results: the first
// call leaves it to a timer, the next draws it, and a zoom then draws at
// once; another policy's chart waits for a task of its own again.
func TestGanttDrawsInATaskOfItsOwn(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	g := a.ResultsGantt()
	timers := f.PendingTimers()
	if svg := a.GanttSVGInTurn(g, 900); svg != "" {
		t.Fatalf("the first drawing of a run came at once (%d bytes)", len(svg))
	}
	if f.PendingTimers() != timers+1 {
		t.Fatalf("no task was asked for the drawing (%d timers, were %d)", f.PendingTimers(), timers)
	}
	if svg := a.GanttSVGInTurn(g, 900); !strings.Contains(svg, `class="bar"`) {
		t.Fatal("the second call did not draw the chart")
	}
	a.GanttZoom(g, 0.5)
	if svg := a.GanttSVGInTurn(g, 900); !strings.Contains(svg, `class="bar"`) {
		t.Fatal("a zoom waited for another task")
	}
	a.GanttSelect(g, 1)
	if svg := a.GanttSVGInTurn(g, 900); svg != "" {
		t.Fatal("another policy's chart came in the same task")
	}
}

// The build-time results' chart is drawn at once: the page's first screen,
// drawn when the site was built, shows it, and the page must not replace
// it with "Drawing the chart…" when it takes over.
func TestGanttOfBuiltResultsAtOnce(t *testing.T) {
	rec := apptest.New(t)
	r := app.New(rec)
	r.Record()
	r.Start()
	rec.Pump(r, apptest.Done(r))
	rec.Pump(r, apptest.Drawn(r))
	data, err := r.Preview()
	if err != nil {
		t.Fatal(err)
	}
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	if shown, err := a.ShowPreview(data); err != nil || !shown {
		t.Fatalf("ShowPreview = %v, %v", shown, err)
	}
	if svg := a.GanttSVGInTurn(a.ResultsGantt(), 900); !strings.Contains(svg, `class="bar"`) {
		t.Fatal("the build-time results' chart waited for a task of its own")
	}
}
