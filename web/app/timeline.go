package app

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/protocol"
)

// Timeline is the state of the timeline view: which policy's run, and the
// simulated time t shown.
type Timeline struct {
	Policy int
	T      float64
	// Playing steps from event to event by itself.
	Playing bool
	// AllServers shows every server in the Tesserae round maps, not only
	// those the round changed.
	AllServers bool

	cacheKey  [3]float64
	cacheGrid []ServerRow
	stateKey  [3]float64
	state     TLCounts
	waiting   []WaitingJob
	events    []float64
	eventsKey [2]int
}

// SliderSteps is the resolution of the time slider.
const SliderSteps = 1000

// MaxGridGPUs bounds the GPUs the grid draws.
const MaxGridGPUs = 1024

// reset puts the slider a third of the way into a new run, where jobs
// are usually both running and waiting.
func (tl *Timeline) reset(res *Results) {
	tl.cacheGrid, tl.events, tl.waiting = nil, nil, nil
	if p := tl.policy(res); p != nil {
		tl.T = math.Round(tlEnd(p) / 3)
	}
}

func (tl *Timeline) policy(res *Results) *PolicyResult {
	if res == nil || tl.Policy < 0 || tl.Policy >= len(res.Policies) {
		return nil
	}
	return res.Policies[tl.Policy]
}

// TLRun is the run the timeline shows, nil when there is none.
func (a *App) TLRun() *PolicyResult { return a.TL.policy(a.Res) }

// tlEnd is the end of a run's timeline.
func tlEnd(p *PolicyResult) float64 {
	end := p.Timeline.EndS
	for _, j := range p.Out.Jobs {
		if j.FinishS != nil {
			end = math.Max(end, *j.FinishS)
		}
	}
	return end
}

// TLEnd is the end of the shown run.
func (a *App) TLEnd() float64 {
	if p := a.TLRun(); p != nil {
		return tlEnd(p)
	}
	return 0
}

// TLSelect shows policy i.
func (a *App) TLSelect(i int) {
	if a.Res != nil && i >= 0 && i < len(a.Res.Policies) {
		a.TL.Policy = i
		a.TL.T = math.Min(a.TL.T, a.TLEnd())
		if a.Res.Point != nil && a.FigureOwnsViews() {
			a.Pick.Policy = i // the figure's policy picker follows
		}
	}
}

// TLSlider is the slider position of t.
func (a *App) TLSlider() int {
	end := a.TLEnd()
	if end <= 0 {
		return 0
	}
	return int(math.Round(a.TL.T / end * SliderSteps))
}

// TLSetSlider moves t to a slider position.
func (a *App) TLSetSlider(pos float64) {
	a.TL.T = math.Max(0, math.Min(1, pos/SliderSteps)) * a.TLEnd()
}

// TLTime prints t.
func (a *App) TLTime() string { return results.Duration(a.TL.T) }

// tlEvents lists the instants at which the run's state changed.
func (a *App) tlEvents() []float64 {
	p := a.TLRun()
	if p == nil {
		return nil
	}
	key := [2]int{a.Res.RunID, a.TL.Policy}
	if a.TL.events != nil && a.TL.eventsKey == key {
		return a.TL.events
	}
	out := protocol.EventTimes(p.Out, p.Intervals)
	a.TL.events, a.TL.eventsKey = out, key
	return out
}

// TLStep moves t to the next (d > 0) or previous (d < 0) event.
func (a *App) TLStep(d int) {
	ev := a.tlEvents()
	t := a.TL.T
	if d > 0 {
		i := sort.SearchFloat64s(ev, t)
		for i < len(ev) && ev[i] <= t {
			i++
		}
		if i < len(ev) {
			a.TL.T = ev[i]
		}
		return
	}
	i := sort.SearchFloat64s(ev, t) - 1
	if i >= 0 {
		a.TL.T = ev[i]
	}
}

// PlayStep is the pause between two events when the timeline plays.
const PlayStep = 350 * time.Millisecond

// TLPlay starts or stops playing the run event by event.
func (a *App) TLPlay() {
	if a.TL.Playing {
		a.TL.Playing = false
		return
	}
	if a.TLRun() == nil {
		return
	}
	if a.TL.T >= a.TLEnd() {
		a.TL.T = 0 // from the start again
	}
	a.TL.Playing = true
	a.tlTick()
}

// tlTick advances one event and schedules the next, until the end, a
// pause, or another view.
func (a *App) tlTick() {
	a.P.After(PlayStep, func() {
		if !a.TL.Playing || a.Tab != TabTimeline || a.TLRun() == nil {
			a.TL.Playing = false
			return
		}
		before := a.TL.T
		a.TLStep(1)
		if a.TL.T == before || a.TL.T >= a.TLEnd() {
			a.TL.Playing = false
			return
		}
		a.tlTick()
	})
}

// GPUCell is one GPU of the grid at time t.
type GPUCell struct {
	Name   string // s0/g1
	Jobs   []JobChip
	Shared bool
	Title  string
}

// JobChip is a job on a GPU; Index is its index in the run's jobs (for
// its story).
type JobChip struct {
	Name  string
	Style string
	Index int
}

// ServerRow is one server of the grid.
type ServerRow struct {
	Name  string
	Type  string
	Cells []GPUCell
}

// TLGrid is the GPU grid at t: which job holds which GPU.
func (a *App) TLGrid() []ServerRow {
	p := a.TLRun()
	if p == nil || a.Res.Cluster == nil {
		return nil
	}
	key := [3]float64{float64(a.Res.RunID), float64(a.TL.Policy), a.TL.T}
	if a.TL.cacheGrid != nil && a.TL.cacheKey == key {
		return a.TL.cacheGrid
	}
	c := a.Res.Cluster
	on := make([][]int32, c.NumGPUs())
	for _, iv := range p.Intervals {
		if iv.StartS <= a.TL.T && a.TL.T < iv.EndS && int(iv.GPU) < len(on) {
			on[iv.GPU] = append(on[iv.GPU], iv.Job)
		}
	}
	var rows []ServerRow
	shown := 0
	for _, s := range c.Servers {
		if shown >= MaxGridGPUs {
			break
		}
		row := ServerRow{Name: fmt.Sprintf("server %d", s.ID), Type: s.Type}
		for _, g := range s.GPUs() {
			cell := GPUCell{Name: fmt.Sprintf("s%d/g%d", s.ID, c.GPUs[g].Slot)}
			for _, j := range on[g] {
				name := p.Out.Jobs[j].ID
				cell.Jobs = append(cell.Jobs, JobChip{Name: name, Style: p.jobStyle(int(j)), Index: int(j)})
			}
			cell.Shared = len(cell.Jobs) > 1
			cell.Title = cell.Name + ": idle"
			if len(cell.Jobs) > 0 {
				names := make([]string, len(cell.Jobs))
				for i, j := range cell.Jobs {
					names[i] = j.Name
				}
				cell.Title = fmt.Sprintf("%s: %v", cell.Name, names)
				if cell.Shared {
					cell.Title += " (shared)"
				}
			}
			row.Cells = append(row.Cells, cell)
			shown++
		}
		rows = append(rows, row)
	}
	a.TL.cacheKey, a.TL.cacheGrid = key, rows
	return rows
}

// TLGridNote explains what the grid leaves out.
func (a *App) TLGridNote() string {
	p := a.TLRun()
	if p == nil {
		return ""
	}
	if p.Out.Streamed {
		return streamedGridNote
	}
	if p.Timeline.IntervalsOmitted > 0 {
		return fmt.Sprintf("This run recorded %s GPU intervals, too many to send to the page, so the grid stays empty; the waiting jobs and the log are still shown.", results.Thousands(p.Timeline.IntervalsOmitted))
	}
	if n := a.Res.Cluster.NumGPUs(); n > MaxGridGPUs {
		return fmt.Sprintf("Showing the first %s of %s GPUs.", results.Thousands(MaxGridGPUs), results.Thousands(n))
	}
	return ""
}

// TLCounts counts the jobs at t: arrived, running, waiting, finished.
type TLCounts struct {
	Arrived, Running, Waiting, Finished, Busy, GPUs int
}

// WaitingJob is a job waiting at t; Index is its index in the run's jobs.
type WaitingJob struct {
	Name, Model, Waited string
	GPUs                int
	Style               string
	Index               int
}

// TLState returns the counts and the waiting jobs at t (at most limit
// listed, longest waiting first).
func (a *App) TLState(limit int) (TLCounts, []WaitingJob) {
	p := a.TLRun()
	if p == nil {
		return TLCounts{}, nil
	}
	key := [3]float64{float64(a.Res.RunID), float64(a.TL.Policy), a.TL.T}
	if a.TL.waiting == nil || a.TL.stateKey != key {
		a.TL.state, a.TL.waiting = a.tlState(p)
		a.TL.stateKey = key
	}
	return a.TL.state, a.TL.waiting[:min(limit, len(a.TL.waiting))]
}

// tlState computes the counts and every waiting job, longest waiting first.
func (a *App) tlState(p *PolicyResult) (TLCounts, []WaitingJob) {
	var n TLCounts
	t := a.TL.T
	holding := make([]bool, len(p.Out.Jobs))
	busy := map[int32]bool{}
	for _, iv := range p.Intervals {
		if iv.StartS <= t && t < iv.EndS {
			holding[iv.Job] = true
			busy[iv.GPU] = true
		}
	}
	n.Busy, n.GPUs = len(busy), a.Res.Cluster.NumGPUs()
	var waiting []WaitingJob
	var since []float64
	for i, j := range p.Out.Jobs {
		if j.ArrivalS > t {
			continue
		}
		n.Arrived++
		switch {
		case j.FinishS != nil && *j.FinishS <= t:
			n.Finished++
		case holding[i] || len(p.Intervals) == 0 && j.StartS != nil && *j.StartS <= t:
			n.Running++
		default:
			n.Waiting++
			waiting = append(waiting, WaitingJob{Name: j.ID, Model: j.Model, GPUs: j.GPUs, Waited: results.Duration(t - j.ArrivalS), Style: p.jobStyle(i), Index: i})
			since = append(since, j.ArrivalS)
		}
	}
	idx := make([]int, len(waiting))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return since[idx[x]] < since[idx[y]] })
	out := make([]WaitingJob, 0, len(idx))
	for _, i := range idx {
		out = append(out, waiting[i])
	}
	return n, out
}

// LogLine is a decision-log entry for display.
type LogLine struct {
	Time string
	Msg  string
	Now  bool // logged at exactly t
}

// TLLog returns the decision-log entries up to t, newest first, at most
// limit, and how many there are up to t in all.
func (a *App) TLLog(limit int) ([]LogLine, int) {
	p := a.TLRun()
	if p == nil {
		return nil, 0
	}
	log := p.Timeline.Log
	n := sort.Search(len(log), func(i int) bool { return log[i].T > a.TL.T })
	var out []LogLine
	for i := n - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, LogLine{Time: results.Duration(log[i].T), Msg: log[i].Msg, Now: log[i].T == a.TL.T})
	}
	return out, n
}

// TLLogNote tells about log entries not shipped.
func (a *App) TLLogNote() string {
	p := a.TLRun()
	if p == nil || p.Timeline.LogOmitted == 0 {
		return ""
	}
	last := "the end"
	if n := len(p.Timeline.Log); n > 0 {
		last = results.Duration(p.Timeline.Log[n-1].T)
	}
	return fmt.Sprintf("The log is cut after %s entries (at %s); %s later entries are not shown.", results.Thousands(len(p.Timeline.Log)), last, results.Thousands(p.Timeline.LogOmitted))
}

// ModelStyle is the CSS colour of a job of model in a run whose jobs'
// models have the palette kp: the colour the Gantt charts give it, so a
// job looks the same in the grid as in the chart.
func ModelStyle(kp *results.KeyPalette, model string) string {
	c := kp.Color(model)
	fg := "#fff"
	if results.DarkText(c) {
		fg = "#000"
	}
	return "background:" + results.CSSColor(c) + ";color:" + fg
}

// Palette is the colours of the run's models, as its Gantt chart has
// them (sim/experiment colours a job by its model).
func (p *PolicyResult) Palette() *results.KeyPalette {
	if p.palette == nil {
		models := make([]string, len(p.Out.Jobs))
		for i, j := range p.Out.Jobs {
			models[i] = j.Model
		}
		p.palette = results.NewKeyPalette(models)
	}
	return p.palette
}

// jobStyle is the CSS colour of job j (an index into the run's jobs).
func (p *PolicyResult) jobStyle(j int) string { return ModelStyle(p.Palette(), p.jobModel(j)) }

// ModelChip names a colour of the timeline's grid.
type ModelChip struct{ Name, Style string }

// TLLegend lists the models of the replayed run with their colours, in
// the order of the Gantt chart's legend.
func (a *App) TLLegend() []ModelChip {
	p := a.TLRun()
	if p == nil {
		return nil
	}
	return RunLegend(p)
}

// RunLegend lists the models of a run with their colours, in the order of
// the Gantt chart's legend.
func RunLegend(p *PolicyResult) []ModelChip {
	kp := p.Palette()
	var out []ModelChip
	for _, m := range kp.Keys {
		out = append(out, ModelChip{Name: m, Style: ModelStyle(kp, m)})
	}
	if kp.HasOther {
		out = append(out, ModelChip{Name: results.OtherName, Style: ModelStyle(kp, "")})
	}
	return out
}
