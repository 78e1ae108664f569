package app

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/policy/tesserae"
	"github.com/schedlab/schedlab/sim/results"
)

// DecisionSeriesPrefix names the series in which a Tesserae run may record
// each round's decision time by phase (e.g. tesserae/decision_ms/packing).
const DecisionSeriesPrefix = "tesserae/decision_ms/"

// RoundView is the Tesserae round view: the round at or before the
// timeline's time t, before and after, with what moved.
type RoundView struct {
	Index, Count int // the round shown (0-based) of the recorded rounds
	Title        string
	Before       []RoundServer
	After        []RoundServer
	Pairs        []PairRow
	Counts       string
	Timing       string // decision time by phase, when the run records it
	TimingNote   string
	Hidden       int // servers the round left alone, not drawn
}

// RoundServer is one server of a round map.
type RoundServer struct {
	Name  string
	Cells []RoundGPU
}

// RoundGPU is one GPU of a round map.
type RoundGPU struct {
	Name   string
	Jobs   []RoundChip
	Packed bool
	Label  string // the GPU in words, its text alternative
}

// RoundChip is a job on a GPU of a round map; Moved marks a job this
// round migrated, Started one it started (or restarted).
type RoundChip struct {
	Name, Style  string
	Moved, Start bool
}

// PairRow is one pair the packing matching chose.
type PairRow struct {
	Host, Guest, HostStyle, GuestStyle string
	Combined, Score                    string
}

// Rounds returns the round view of the timeline's run, or nil when the
// run recorded no Tesserae rounds.
func (a *App) Rounds() *RoundView {
	p := a.TLRun()
	if p == nil {
		return nil
	}
	v := p.views()
	if len(v.rounds) == 0 {
		return nil
	}
	return cachedView(&v.roundAt, &v.roundView, a.TL.T, func() *RoundView { return a.roundView(p, v) })
}

func (a *App) roundView(p *PolicyResult, v *snapViews) *RoundView {
	i := atOrBefore(v.roundT, a.TL.T)
	out := &RoundView{Index: i, Count: len(v.rounds)}
	if i < 0 {
		out.Title = "No round has changed the placement yet at this time."
		return out
	}
	r := v.rounds[i]
	t := v.roundT[i]
	out.Title = fmt.Sprintf("Round %d at %s (%d of %d rounds that changed the placement)", r.Round, results.Duration(t), i+1, len(v.rounds))
	moved, started := r.Migrated, r.Started
	keep := a.changedServers(r)
	out.Before = a.roundMap(p, r.Before, moved, nil, keep)
	out.After = a.roundMap(p, r.After, moved, started, keep)
	out.Hidden = len(a.Res.Cluster.Servers) - len(out.After)
	for _, pr := range r.Pairs {
		h, g := p.jobName(pr.Host), p.jobName(pr.Guest)
		out.Pairs = append(out.Pairs, PairRow{Host: h, Guest: g, HostStyle: p.jobStyle(pr.Host), GuestStyle: p.jobStyle(pr.Guest),
			Combined: fmt.Sprintf("%.2f", pr.Combined), Score: fmt.Sprintf("%.4g", pr.Score)})
	}
	out.Counts = fmt.Sprintf("%s of %d ranked jobs · %s · %s · %s", plural(len(r.Pairs), "pair"), r.Ordered,
		plural(len(r.Migrated), "migration"), plural(len(r.Preempted), "preemption"), plural(len(r.Started), "start"))
	out.Timing, out.TimingNote = decisionTiming(p, t)
	return out
}

// changedServers says which servers the maps draw: every one, or only
// those whose GPUs the round changed.
func (a *App) changedServers(r tesserae.RoundSnapshot) func(first, n int) bool {
	if a.TL.AllServers {
		return func(int, int) bool { return true }
	}
	return func(first, n int) bool {
		for g := first; g < first+n && g < len(r.Before) && g < len(r.After); g++ {
			if !slices.Equal(r.Before[g], r.After[g]) {
				return true
			}
		}
		return false
	}
}

// SetAllServers shows every server in the round maps, or only the changed.
func (a *App) SetAllServers(on bool) {
	a.TL.AllServers = on
	if p := a.TLRun(); p != nil {
		p.views().roundView = nil
	}
}

// roundMap lays a round's per-GPU job lists out by server, the servers
// keep accepts (by first GPU and GPU count).
func (a *App) roundMap(p *PolicyResult, gpus [][]int, moved, started []int, keep func(first, n int) bool) []RoundServer {
	c := a.Res.Cluster
	if c == nil {
		return nil
	}
	var out []RoundServer
	for _, s := range c.Servers {
		if !keep(int(s.FirstGPU), s.NumGPUs) {
			continue
		}
		row := RoundServer{Name: fmt.Sprintf("server %d", s.ID)}
		for _, g := range s.GPUs() {
			cell := RoundGPU{Name: fmt.Sprintf("s%d/g%d", s.ID, c.GPUs[g].Slot)}
			var words []string
			if int(g) < len(gpus) {
				for _, j := range gpus[g] {
					name := p.jobName(j)
					ch := RoundChip{Name: name, Style: p.jobStyle(j), Moved: slices.Contains(moved, j), Start: slices.Contains(started, j)}
					cell.Jobs = append(cell.Jobs, ch)
					w := name
					if ch.Moved {
						w += " (migrated this round)"
					} else if ch.Start {
						w += " (started this round)"
					}
					words = append(words, w)
				}
			}
			cell.Packed = len(cell.Jobs) > 1
			cell.Label = cell.Name + ": idle"
			if len(words) > 0 {
				cell.Label = cell.Name + ": " + strings.Join(words, " and ")
				if cell.Packed {
					cell.Label += ", packed"
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		out = append(out, row)
	}
	return out
}

// decisionTiming reads the round's decision time by phase from the run's
// tesserae/decision_ms/* series, or says that the run records none.
func decisionTiming(p *PolicyResult, t float64) (string, string) {
	var parts []string
	total := 0.0
	for _, s := range p.Out.Series {
		phase, ok := strings.CutPrefix(s.Name, DecisionSeriesPrefix)
		if !ok || s.Job >= 0 {
			continue
		}
		k := atOrBefore(s.T, t)
		if k < 0 || s.T[k] != t || math.IsNaN(s.V[k]) {
			continue
		}
		total += s.V[k]
		parts = append(parts, fmt.Sprintf("%s %.2f ms", phase, s.V[k]))
	}
	if len(parts) == 0 {
		return "", "This run does not record decision times by phase (series " + DecisionSeriesPrefix + "…), so the round is summarised by its counts."
	}
	return fmt.Sprintf("Decision time %.2f ms: %s.", total, strings.Join(parts, ", ")), ""
}

// TLRound moves the timeline to the previous (d < 0) or next (d > 0)
// recorded round, so the grid and the log follow.
func (a *App) TLRound(d int) {
	p := a.TLRun()
	if p == nil {
		return
	}
	ts := p.views().roundT
	if len(ts) == 0 {
		return
	}
	i := atOrBefore(ts, a.TL.T) + d
	a.TL.T = ts[max(0, min(len(ts)-1, i))]
}

// TLSetRound moves the timeline to recorded round i (0-based).
func (a *App) TLSetRound(i float64) {
	p := a.TLRun()
	if p == nil {
		return
	}
	if ts := p.views().roundT; len(ts) > 0 {
		a.TL.T = ts[max(0, min(len(ts)-1, int(i)))]
	}
}
