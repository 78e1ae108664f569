package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/policy/ojpp"
	"github.com/schedlab/schedlab/sim/policy/tesserae"
	"github.com/schedlab/schedlab/sim/results"
)

// snapViews are a run's policy snapshots decoded for the OJPP and
// Tesserae views, once per run.
type snapViews struct {
	decoded bool
	err     string
	ojppT   []float64
	ojpp    []ojpp.Snapshot
	roundT  []float64
	rounds  []tesserae.RoundSnapshot

	// The views last built, at time t (the page asks many times per frame).
	ojppAt, roundAt     float64
	ojppView, roundView any
}

// cachedView returns the view built at t, building it when t moved.
func cachedView[V any](at *float64, view *any, t float64, build func() *V) *V {
	if v, ok := (*view).(*V); ok && *at == t {
		return v
	}
	v := build()
	*at, *view = t, v
	return v
}

// views decodes p's snapshots the first time they are asked for.
func (p *PolicyResult) views() *snapViews {
	v := &p.snaps
	if v.decoded {
		return v
	}
	v.decoded = true
	for _, sn := range p.Out.Snapshots {
		var err error
		switch sn.Kind {
		case ojpp.SnapshotKind:
			var s ojpp.Snapshot
			if err = json.Unmarshal(sn.Data, &s); err == nil {
				v.ojppT, v.ojpp = append(v.ojppT, sn.T), append(v.ojpp, s)
			}
		case tesserae.SnapshotKind:
			var r tesserae.RoundSnapshot
			if err = json.Unmarshal(sn.Data, &r); err == nil {
				v.roundT, v.rounds = append(v.roundT, sn.T), append(v.rounds, r)
			}
		}
		if err != nil && v.err == "" {
			v.err = fmt.Sprintf("a %s snapshot at %s could not be read: %v", sn.Kind, results.Duration(sn.T), err)
		}
	}
	return v
}

// atOrBefore is the index of the last time in ts not after t, or -1.
func atOrBefore(ts []float64, t float64) int {
	return sort.Search(len(ts), func(i int) bool { return ts[i] > t }) - 1
}

// OJPPView is the OJPP per-GPU view at the timeline's time t: the
// placement the policy made at its last decision up to t.
type OJPPView struct {
	When  string // "placement of 1m 0s (decision 3 of 12)"
	Empty bool   // no GPU held at that decision
	GPUs  []OJPPGPU
}

// OJPPGPU is one GPU: its memory stack against capacity 1, its collision
// probability and worst slowdown, and its workers.
type OJPPGPU struct {
	Name      string
	Segs      []MemSeg
	CapStyle  string // where the capacity line sits in the bar
	Memory    string
	Tau       string
	Theta     string
	Over      bool   // the stack passes capacity (a baseline that ignores peaks)
	Summary   string // the stack in words, the bar's text alternative
	Workers   []OJPPWorker
	DataGPU   string
	MemoryNum string
}

// MemSeg is one segment of a memory stack: a worker's base γ, or the
// room left for the largest peak δ (Peak).
type MemSeg struct {
	Style string
	Title string
	Peak  bool
}

// OJPPWorker is one worker's slowdown and who causes it.
type OJPPWorker struct {
	Name, Model, Style string
	Slowdown           string
	From               string
	Collision          string
}

// OJPP returns the OJPP view of the timeline's run at t, or nil when the
// run recorded no OJPP snapshots.
func (a *App) OJPP() *OJPPView {
	p := a.TLRun()
	if p == nil {
		return nil
	}
	v := p.views()
	if len(v.ojpp) == 0 {
		return nil
	}
	return cachedView(&v.ojppAt, &v.ojppView, a.TL.T, func() *OJPPView { return a.ojppView(p, v) })
}

func (a *App) ojppView(p *PolicyResult, v *snapViews) *OJPPView {
	i := atOrBefore(v.ojppT, a.TL.T)
	if i < 0 {
		return &OJPPView{When: "No placement yet at this time: move the timeline to " + results.Duration(v.ojppT[0]) + " or later.", Empty: true}
	}
	s := v.ojpp[i]
	out := &OJPPView{When: fmt.Sprintf("Placement after the decision at %s (%d of %d that changed it).", results.Duration(v.ojppT[i]), i+1, len(v.ojpp)), Empty: len(s.GPUs) == 0}
	for _, g := range s.GPUs {
		out.GPUs = append(out.GPUs, a.ojppGPU(p, g))
	}
	return out
}

// ojppGPU formats one GPU of a snapshot; every number comes from the run.
func (a *App) ojppGPU(p *PolicyResult, g ojpp.GPUState) OJPPGPU {
	scale := max(1, g.Memory)
	name := a.gpuName(g.GPU)
	out := OJPPGPU{Name: name, DataGPU: fmt.Sprint(g.GPU), MemoryNum: fmt.Sprintf("%.4f", g.Memory),
		Memory: fmt.Sprintf("%.2f of 1", g.Memory), Tau: fmt.Sprintf("%.3f", g.Tau), Theta: fmt.Sprintf("%.2f", g.Theta),
		Over: g.Memory > 1+1e-9, CapStyle: fmt.Sprintf("left:%.2f%%", 100/scale)}
	var words []string
	for _, w := range g.Workers {
		id := p.jobName(w.Job)
		out.Segs = append(out.Segs, MemSeg{Style: fmt.Sprintf("width:%.2f%%;%s", 100*w.Gamma/scale, p.jobStyle(w.Job)),
			Title: fmt.Sprintf("%s: base γ %.2f", id, w.Gamma)})
		words = append(words, fmt.Sprintf("%s γ %.2f", id, w.Gamma))
		out.Workers = append(out.Workers, ojppWorker(p, w))
	}
	if g.Peak > 0 {
		id := p.jobName(g.PeakJob)
		out.Segs = append(out.Segs, MemSeg{Style: fmt.Sprintf("width:%.2f%%;%s", 100*g.Peak/scale, p.jobStyle(g.PeakJob)), Peak: true,
			Title: fmt.Sprintf("room for the largest peak: %s's δ %.2f", id, g.Peak)})
		words = append(words, fmt.Sprintf("peak δ %.2f of %s", g.Peak, id))
	}
	out.Summary = fmt.Sprintf("%s memory: %s; total %.2f of capacity 1", name, strings.Join(words, ", "), g.Memory)
	return out
}

func ojppWorker(p *PolicyResult, w ojpp.WorkerState) OJPPWorker {
	id := p.jobName(w.Job)
	out := OJPPWorker{Name: id, Model: p.jobModel(w.Job), Style: p.jobStyle(w.Job), Slowdown: fmt.Sprintf("%.3f", w.Slowdown),
		Collision: fmt.Sprintf("%.3f", w.Collision)}
	var from []string
	for _, b := range w.From {
		who := p.jobName(b.Job)
		if b.Job == w.Job {
			who += " (its own sibling)"
		}
		from = append(from, fmt.Sprintf("%s +%.2f", who, b.Cell))
	}
	if len(from) == 0 {
		out.From = "nobody: alone on this GPU"
	} else {
		out.From = strings.Join(from, ", ")
	}
	return out
}

// jobName is job index j's ID in the run's records.
func (p *PolicyResult) jobName(j int) string {
	if j >= 0 && j < len(p.Out.Jobs) {
		return p.Out.Jobs[j].ID
	}
	return fmt.Sprintf("job %d", j)
}

func (p *PolicyResult) jobModel(j int) string {
	if j >= 0 && j < len(p.Out.Jobs) {
		return p.Out.Jobs[j].Model
	}
	return ""
}

// gpuName names GPU g as the timeline's grid does, s0/g1.
func (a *App) gpuName(g int) string {
	if c := a.Res.Cluster; c != nil && g >= 0 && g < c.NumGPUs() {
		return fmt.Sprintf("s%d/g%d", c.GPUs[g].Server, c.GPUs[g].Slot)
	}
	return fmt.Sprintf("GPU %d", g)
}

// SnapshotNote says when a run's snapshots could not all be read, or
// stop before the end (the recorder's cap on their size).
func (a *App) SnapshotNote() string {
	p := a.TLRun()
	if p == nil {
		return ""
	}
	if err := p.views().err; err != "" {
		return err
	}
	for _, n := range p.Out.Notes {
		if strings.Contains(n, "snapshots stop") {
			return "This run's " + strings.TrimPrefix(n, "the policy's ") + ": the view shows the last decision recorded."
		}
	}
	return ""
}
