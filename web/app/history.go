package app

import (
	"compress/flate"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/doc"
)

// The run history: every finished run of the editor's scenario (not the
// runs of a figure, which its own view keeps) is remembered with its
// scenario, a label that says what changed since the run before, and
// what comparing two runs needs (each policy's metrics and completion
// time curve). The newest runs also keep everything they showed (Gantt
// charts, job records, the timeline), so that going back to one shows
// its results without running it again; the older ones ran
// deterministically for their seed, and going back runs them again.
//
// The history is kept in the browser's storage without its full
// results: after a reload, the metrics and curves of earlier runs are
// there, and their Gantt charts come back when they are run again.

// History bounds. A 10,000-job run's full results (job records, decision
// log, GPU intervals and Gantt images) are megabytes; its metrics and a
// thinned curve are a few kilobytes.
const (
	// HistoryLimit is how many runs the history keeps; the oldest goes
	// first.
	HistoryLimit = 10
	// HistoryFull is how many of the most recently used runs keep their
	// full results (Gantt charts included).
	HistoryFull = 3
	// historyCDFPoints is how many points of each policy's completion
	// time curve a run keeps (the curve is then within 1% of the exact
	// one, see metrics.ThinCDF).
	historyCDFPoints = 100
	// historyStoreMax bounds the history's share of the browser's
	// storage (about 5 MB in all, mostly for the scenario itself);
	// older runs are left out of storage past it.
	historyStoreMax = 256 << 10
)

const keyHistory = "schedlab.history.v1"

// History is the run history.
type History struct {
	// Runs are oldest first.
	Runs []*HistoryRun
	// A and B are the run numbers being compared (0: the defaults, the
	// two newest runs).
	A, B int
	// next is the number of the next run.
	next int
	// full are the runs that keep their full results, least recently
	// used first.
	full []*HistoryRun
	// cmp is the comparison last built, and the runs it is of.
	cmp *RunComparison
}

// HistoryRun is one run kept in the history.
type HistoryRun struct {
	// N numbers the runs in this browser, from 1.
	N    int
	At   time.Time
	Seed uint64
	// Title is the scenario's title as the results showed it.
	Title    string
	Policies []HistoryPolicy
	// Before is the run before it (0 for none), and docDiff what changed
	// in the scenario since.
	Before int
	docDiff
	// doc is the scenario as compact JSON, deflated ("s=…") when big.
	doc string
	// res are the full results, kept for the HistoryFull most recently
	// used runs of this visit; nil otherwise.
	res *Results
}

// HistoryPolicy is what a run keeps of one policy: its metrics and its
// job completion time curve (fraction of the finished jobs done by
// time X, in seconds).
type HistoryPolicy struct {
	Label   string          `json:"label"`
	Name    string          `json:"name"`
	Error   string          `json:"error,omitempty"`
	Metrics results.Summary `json:"metrics"`
	CDFX    []float64       `json:"cdf_x"`
	CDFY    []float64       `json:"cdf_y"`
}

// Change is one difference between two scenarios: the field (Path, and
// Where in words) and its value before and after.
type Change struct {
	Path, Where, From, To string
}

// Text is the change in words: "Cluster › server group 1 › Servers: 4 → 2".
func (c Change) Text() string { return c.Where + ": " + c.From + " → " + c.To }

// Short is the change with only the field's own name: "Servers 4 → 2".
func (c Change) Short() string {
	name := c.Where
	if i := strings.LastIndex(name, " › "); i >= 0 {
		name = name[i+len(" › "):]
	}
	return name + " " + c.From + " → " + c.To
}

// Doc is the run's scenario as compact JSON.
func (r *HistoryRun) Doc() string {
	if !strings.HasPrefix(r.doc, "s=") {
		return r.doc
	}
	t, err := DecodeShare(r.doc)
	if err != nil {
		return "" // deflated here from valid JSON; cannot happen
	}
	return string(doc.Compact(t))
}

// Kept reports whether the run keeps its full results (Gantt charts
// included), so that going back to it shows them without running it.
func (r *HistoryRun) Kept() bool { return r.res != nil }

// PolicyNames are the run's policies: "FIFO, SJF".
func (r *HistoryRun) PolicyNames() string {
	names := make([]string, len(r.Policies))
	for i, p := range r.Policies {
		names[i] = p.Label
	}
	return strings.Join(names, ", ")
}

// What says in a few words what the run changed since the run before it.
func (r *HistoryRun) What() string {
	switch {
	case r.Before == 0:
		return "the first run kept"
	case r.Other:
		return "another scenario"
	case r.Big:
		return "a change in a big scenario (not listed)"
	case len(r.Changes) == 0 && r.More == 0:
		return fmt.Sprintf("no change since run %d", r.Before)
	}
	var parts []string
	for i, c := range r.Changes {
		if i == 2 {
			break
		}
		parts = append(parts, c.Short())
	}
	if rest := len(r.Changes) + r.More - len(parts); rest > 0 {
		parts = append(parts, plural(rest, "other change"))
	}
	return strings.Join(parts, ", ")
}

// Label is the run in one line: "Run 3 · 2 min ago · FIFO, SJF · Servers 4 → 2".
func (r *HistoryRun) Label(now time.Time) string {
	return fmt.Sprintf("Run %d · %s · %s · %s", r.N, Ago(now, r.At), r.PolicyNames(), r.What())
}

// Ago says how long ago t was: "just now", "4 min ago", "2 h ago", "on 28 Nov".
func Ago(now, t time.Time) string {
	switch d := now.Sub(t); {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return "on " + t.Format("2 Jan")
}

// HistoryRuns are the runs kept, newest first.
func (a *App) HistoryRuns() []*HistoryRun {
	out := slices.Clone(a.hist.Runs)
	slices.Reverse(out)
	return out
}

// HistoryRun is the kept run numbered n, nil when there is none.
func (a *App) HistoryRun(n int) *HistoryRun {
	for _, r := range a.hist.Runs {
		if r.N == n {
			return r
		}
	}
	return nil
}

// remember keeps the results of a finished run of the editor's scenario
// in the history. A run of a scenario and seed already kept refreshes
// that run instead of adding one: pressing Run twice adds nothing.
func (a *App) remember(res *Results) {
	h := &a.hist
	kept := historyDoc(res.Doc)
	for _, r := range h.Runs {
		if r.Seed == res.Seed && r.doc == kept {
			r.Policies = historyPolicies(res)
			a.keepFull(r, res)
			a.saveHistory()
			return
		}
	}
	h.next = max(h.next, h.lastN()) + 1
	r := &HistoryRun{N: h.next, At: a.P.Now(), Seed: res.Seed, Title: res.Title, Policies: historyPolicies(res), doc: kept}
	if n := len(h.Runs); n > 0 {
		prev := h.Runs[n-1]
		r.Before = prev.N
		r.docDiff = compareDocs(prev.Doc(), res.Doc)
	}
	h.Runs = append(h.Runs, r)
	for len(h.Runs) > HistoryLimit {
		a.dropFull(h.Runs[0])
		h.Runs = h.Runs[1:]
	}
	a.keepFull(r, res)
	h.cmp = nil
	a.saveHistory()
}

// lastN is the number of the newest run kept, 0 for none.
func (h *History) lastN() int {
	if len(h.Runs) == 0 {
		return 0
	}
	return h.Runs[len(h.Runs)-1].N
}

// historyDoc is how a run keeps its scenario: a big one (an imported
// trace of tens of thousands of jobs) deflated, as the browser stores it.
func historyDoc(compact string) string {
	if len(compact) >= BigDocument {
		return encodeDeflated([]byte(compact), flate.BestSpeed)
	}
	return compact
}

// keepFull gives run r the full results res and makes it the most
// recently used of the runs that keep theirs; the least recently used
// past HistoryFull drop theirs.
func (a *App) keepFull(r *HistoryRun, res *Results) {
	h := &a.hist
	if r.res != nil && r.res != res {
		a.dropFull(r)
	}
	r.res = res
	h.full = slices.DeleteFunc(h.full, func(x *HistoryRun) bool { return x == r })
	h.full = append(h.full, r)
	for len(h.full) > HistoryFull {
		a.dropFull(h.full[0])
	}
}

// dropFull makes run r forget its full results, freeing their images
// unless they are on show.
func (a *App) dropFull(r *HistoryRun) {
	h := &a.hist
	h.full = slices.DeleteFunc(h.full, func(x *HistoryRun) bool { return x == r })
	if r.res != nil && r.res != a.Res {
		r.res.release(a.P)
	}
	r.res = nil
	h.cmp = nil
}

// holds reports whether a kept run holds res, whose images must then stay.
func (h *History) holds(res *Results) bool {
	for _, r := range h.full {
		if r.res == res {
			return true
		}
	}
	return false
}

// historyPolicies is what the history keeps of each policy of res.
func historyPolicies(res *Results) []HistoryPolicy {
	out := make([]HistoryPolicy, len(res.Policies))
	for i, p := range res.Policies {
		out[i] = HistoryPolicy{Label: p.Label, Name: p.Name, Error: p.Out.Error, Metrics: p.Out.Metrics}
		out[i].CDFX, out[i].CDFY = policyCDF(p.Out)
	}
	return out
}

// policyCDF is a policy's job completion time curve, thinned to
// historyCDFPoints: from its job records, or from the thinned curve a
// streamed run sends in their place.
func policyCDF(out results.PolicyOutput) (x, y []float64) {
	if out.Streamed {
		if c := out.JCTCDF; c != nil && len(c.X) == len(c.Y) {
			return thinSteps(c.X, c.Y, historyCDFPoints)
		}
		return nil, nil
	}
	var jct []float64
	for _, j := range out.Jobs {
		if j.JCTS != nil {
			jct = append(jct, *j.JCTS)
		}
	}
	slices.Sort(jct)
	return metrics.ThinCDF(jct, historyCDFPoints)
}

// thinSteps keeps at most k points of a step curve, the last among them.
func thinSteps(x, y []float64, k int) ([]float64, []float64) {
	n := len(x)
	if n <= k {
		return slices.Clone(x), slices.Clone(y)
	}
	ox, oy := make([]float64, 0, k), make([]float64, 0, k)
	for i := 1; i <= k; i++ {
		j := (i*n+k-1)/k - 1
		ox, oy = append(ox, x[j]), append(oy, y[j])
	}
	return ox, oy
}

// storedRun is a run as the browser keeps it.
type storedRun struct {
	N        int             `json:"n"`
	At       int64           `json:"at_ms"`
	Seed     uint64          `json:"seed"`
	Title    string          `json:"title"`
	Doc      string          `json:"doc"`
	Policies []HistoryPolicy `json:"policies"`
	Changes  []Change        `json:"changes,omitempty"`
	More     int             `json:"more,omitempty"`
	Before   int             `json:"before,omitempty"`
	Other    bool            `json:"other,omitempty"`
	Big      bool            `json:"big,omitempty"`
}

type storedHistory struct {
	Next int         `json:"next"`
	Runs []storedRun `json:"runs"`
}

// saveHistory stores the history without its full results, newest runs
// first within historyStoreMax. The history is a convenience: when the
// browser's storage is full it is not kept, and the scenario's own
// saving says so if that fails too.
func (a *App) saveHistory() {
	h := &a.hist
	var runs []storedRun
	size := 0
	for i := len(h.Runs) - 1; i >= 0; i-- {
		r := h.Runs[i]
		s := storedRun{N: r.N, At: r.At.UnixMilli(), Seed: r.Seed, Title: r.Title, Doc: r.doc, Policies: r.Policies,
			Changes: r.Changes, More: r.More, Before: r.Before, Other: r.Other, Big: r.Big}
		b, _ := json.Marshal(s) // plain data
		if len(b) > historyStoreMax/4 {
			continue // a big scenario (an imported trace) is kept for this visit only
		}
		if size += len(b); size > historyStoreMax {
			break
		}
		runs = append(runs, s)
	}
	slices.Reverse(runs)
	data, _ := json.Marshal(storedHistory{Next: h.next, Runs: runs})
	_ = a.P.Save(keyHistory, string(data))
}

// loadHistory reads the history the browser kept; one it cannot read is
// left out (it holds only copies of runs).
func (a *App) loadHistory() {
	s, ok := a.P.Load(keyHistory)
	if !ok {
		return
	}
	var st storedHistory
	if json.Unmarshal([]byte(s), &st) != nil {
		return
	}
	h := &a.hist
	for _, r := range st.Runs {
		if r.N <= 0 || r.Doc == "" {
			continue
		}
		h.Runs = append(h.Runs, &HistoryRun{N: r.N, At: time.UnixMilli(r.At), Seed: r.Seed, Title: r.Title, doc: r.Doc, Policies: r.Policies,
			Before: r.Before, docDiff: docDiff{Changes: r.Changes, More: r.More, Other: r.Other, Big: r.Big}})
	}
	if len(h.Runs) > HistoryLimit {
		h.Runs = h.Runs[len(h.Runs)-HistoryLimit:]
	}
	h.next = max(st.Next, h.lastN())
}

// GoBack loads the scenario of run n into the editor. When the run kept
// its full results they are shown as they were, without running again;
// otherwise it runs again, with the same seed, so with the same results.
// The scenario it replaces can be brought back (Undo), and every run of
// it is in the history already.
func (a *App) GoBack(n int) {
	r := a.HistoryRun(n)
	if r == nil {
		return
	}
	tree, err := doc.Parse([]byte(r.Doc()))
	if err != nil {
		a.setNotice(fmt.Sprintf("Run %d's scenario could not be read: %v", n, err), true)
		return
	}
	if a.Running() {
		a.CancelRun()
	}
	a.load(tree)
	a.Tab = TabResults
	if res := r.res; res != nil {
		a.keepFull(r, res)
		a.showResults(res)
		a.setNotice(fmt.Sprintf("Back to run %d's scenario. Its results are shown as they were; nothing ran again.", n), false)
		return
	}
	a.StartRun()
	a.setNotice(fmt.Sprintf("Back to run %d's scenario. Its full results were not kept, so it runs again: the same seed gives the same results.", n), false)
}

// OpenHistory shows the history in the Scenario view.
func (a *App) OpenHistory() {
	a.Tab = TabScenario
	delete(a.Ed.Closed, "history")
	a.P.Focus("toggle-history")
}
