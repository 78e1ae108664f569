package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// PolicyResult is one policy's finished run.
type PolicyResult struct {
	Index     int
	Label     string
	Name      string
	Out       results.PolicyOutput
	Raw       json.RawMessage // the PolicyOutput as the engine wrote it
	Gantt     *Figure
	Timeline  protocol.Timeline
	Intervals []protocol.Interval
	ElapsedMS float64

	snaps   snapViews // the policy's snapshots decoded for the OJPP and Tesserae views
	story   storyData // the records of its jobs' stories (story.go)
	palette *results.KeyPalette
}

// Figure is one plot on the results page.
type Figure struct {
	Name    string // e.g. jct_cdf, gantt-fifo
	Title   string
	Caption string
	URL     string // blob URL of the PNG
	PNG     []byte
	Pending bool   // being drawn
	Err     string // drawing failed
	Busy    bool   // an SVG download is being prepared
	// LogX says the figure's time axis is on a log scale (the JCT CDF;
	// see App.SetLogTime).
	LogX bool
}

// Results are a finished run, ready to show.
type Results struct {
	RunID       int
	Doc         string
	Name        string
	Title       string
	Description string
	Seed        uint64
	// Point is the figure's sweep point and seed this run is, nil for
	// a run of the scenario as it stands.
	Point     *PointOf
	Policies  []*PolicyResult
	CDF       *Figure
	Queue     *Figure
	Extra     []*Figure  // figures the scenario asks for beyond the usual ones
	Reference *Reference // the paper's numbers beside ours, for paper scenarios
	Cluster   *cluster.Cluster
	WallMS    float64
	// StartMS is the part of WallMS spent waiting for the page's engine
	// workers to start (Run.StartMS).
	StartMS float64
	// Edited is set when the run's scenario is a changed built-in one;
	// Title and Description then say so (see markEdited).
	Edited bool
	// Notices are the scenario's notices, in words (see resultNotices).
	Notices []string
	// Built marks results computed when the site was built (Preview),
	// shown while the browser's own run of the same scenario goes on.
	// Check says how the live run compared with them once it replaced
	// them: "" before, CheckSame or CheckDiffers.
	Built bool
	Check string
	// builtWidth is the figure width built results were drawn at.
	builtWidth float64
	// drawn is the draw reply, kept when the App records (Preview).
	drawn protocol.Message
}

// policyResult decodes a worker's result for one policy.
func (a *App) policyResult(p *Part, m protocol.Message) (*PolicyResult, error) {
	res, out, raw, err := a.decoded(m)
	if err != nil {
		return nil, err
	}
	pr := &PolicyResult{Index: p.Index, Label: out.Policy, Name: out.Name, Out: out, Raw: raw, ElapsedMS: res.ElapsedMS}
	for _, f := range res.Figures {
		if b, ok := m.Bin[f.Name]; ok && strings.HasPrefix(f.Name, "gantt-") {
			pr.Gantt = &Figure{Name: f.Name, Title: f.Title, PNG: b, URL: a.P.BlobURL(b, "image/png"),
				Caption: "Which job held which GPU over time under " + pr.Label + ". Each row is a GPU and each bar a job, named on the bar where it fits; the colour is the job's model (the legend names them)."}
		}
	}
	if res.FiguresErr != "" {
		// The run's numbers came without its Gantt chart's image; the
		// images' list says why (the interactive chart needs none).
		pr.Gantt = &Figure{Name: "gantt-" + strconv.Itoa(p.Index), Title: "GPU allocation: " + pr.Label, Err: res.FiguresErr}
	}
	if len(res.Timelines) == 1 {
		pr.takeStory(res.Timelines[0], m.Bin)
	}
	if len(res.Timelines) == 1 && a.ahead != nil && a.ahead.id == m.ID {
		pr.Timeline = res.Timelines[0]
		pr.Timeline.Log, pr.Intervals = a.ahead.log, a.ahead.iv
	} else if len(res.Timelines) == 1 {
		pr.Timeline = res.Timelines[0]
		if b, ok := m.Bin[protocol.LogKey]; ok {
			if pr.Timeline.Log, err = protocol.DecodeLog(b); err != nil {
				return nil, err
			}
		}
		iv, err := protocol.DecodeIntervals(m.Bin[protocol.IntervalsKey(0)])
		if err != nil {
			return nil, err
		}
		pr.Intervals = iv
	}
	return pr, nil
}

// decodeOutput reads one policy's output: from the JSON alone, or, from
// a compact result (protocol.RunRequest.Compact), the job records from
// their binary and the exact JSON from its bin.
func decodeOutput(data json.RawMessage, bin map[string][]byte) (out results.PolicyOutput, raw json.RawMessage, err error) {
	return decodeOutputYielding(data, bin, nil)
}

// decodeOutputYielding is decodeOutput decoding job records in pieces,
// with yield (when not nil) between them.
func decodeOutputYielding(data json.RawMessage, bin map[string][]byte, yield func()) (out results.PolicyOutput, raw json.RawMessage, err error) {
	var whole results.Output
	if err := json.Unmarshal(data, &whole); err != nil {
		return out, nil, err
	}
	if len(whole.Results) != 1 {
		return out, nil, fmt.Errorf("expected one policy's results, got %d", len(whole.Results))
	}
	out = whole.Results[0]
	if jobs, ok := bin[protocol.JobsKey]; ok {
		if out.Jobs, err = protocol.DecodeJobsYielding(jobs, yield); err != nil {
			return out, nil, err
		}
		return out, bin[protocol.OutputKey], nil
	}
	var rawOut struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(data, &rawOut); err != nil {
		return out, nil, err
	}
	return out, rawOut.Results[0], nil
}

// finishResults turns a finished run into the results on show, and asks a
// worker to draw the figures that span policies. Results computed when the
// site was built (see Preview) stay on show until the live run's figures
// are drawn, and are then replaced by them.
func (a *App) finishResults(r *Run) {
	res, sc, err := a.newResults(r)
	if err != nil {
		a.setNotice("The run's scenario no longer parses: "+err.Error(), true)
		return
	}
	if p := r.Point; p != nil {
		// One point of a figure: not an edit of the scenario, though its
		// document differs from the built-in one.
		res.Point, res.Edited = p, false
		if a.Fig != nil && a.Fig.View != nil && a.Fig.View.Title != "" {
			res.Title = a.Fig.View.Title
		}
		where := a.Choices().PointText(p.X)
		res.Title += fmt.Sprintf(" — seed %d at %s", p.Seed, where)
		res.Description = fmt.Sprintf("One simulation of the figure, every policy, at %s with seed %d. What ran: %s.", where, p.Seed, Describe(sc))
	}
	if r.Point == nil {
		a.remember(res) // a run of the editor's scenario
	}
	built := a.Res
	if built == nil || !built.Built || built.Doc != res.Doc || built.Seed != res.Seed {
		built = nil
		a.showResults(res)
	} else {
		// The build-time results stay on show until the live figures are
		// drawn; the run's line says it ended meanwhile, in the place of
		// its progress bar, and about as long as the line that follows it
		// (replaceBuilt), so that nothing below moves.
		a.setNotice(simulated(res)+" Comparing them with the results computed when the site was built…", false)
		a.replacing = res
	}
	req, bin := res.drawRequest(append([]string{"jct_cdf", "queue_by_model"}, extraKinds(sc)...), "png", -1)
	req.Width = a.figureWidth()
	a.pool.draw(req, bin, func(m protocol.Message) {
		if a.record {
			res.drawn = m
		}
		a.applyDrawn(res, m)
		if a.replacing == res {
			a.replacing = nil
		}
		if built != nil && a.Res == built {
			a.replaceBuilt(built, res, drawnAtBuiltWidth(r, req.Width, built.builtWidth))
		}
		a.openingDone() // the first results are on screen
	})
}

// CheckingBuilt says whether the results on show were computed when the
// site was built and the browser's own run of the same scenario is under
// way (or drawing its figures) to take their place.
func (a *App) CheckingBuilt() bool {
	return a.Res != nil && a.Res.Built && (a.Running() || a.replacing != nil)
}

// newResults builds the results of a finished run, its figures that span
// policies still to be drawn.
func (a *App) newResults(r *Run) (*Results, *scenario.Scenario, error) {
	sc, err := scenario.Parse([]byte(r.Doc))
	if err != nil {
		return nil, nil, err
	}
	// the cluster this seed ran on (some scenarios draw one per seed)
	spec, err := sc.Cluster.ForSeed(r.Seed)
	if err != nil {
		return nil, nil, err
	}
	c, _ := cluster.New(spec)
	res := &Results{RunID: r.ID, Doc: r.Doc, Name: sc.Name, Title: sc.Title, Description: sc.Description, Seed: r.Seed, Cluster: c, WallMS: r.WallMS, StartMS: r.StartMS}
	if original, edited := editedFrom(r.Doc); edited {
		res.markEdited(sc, original)
	}
	res.Notices = resultNotices(sc)
	for _, p := range r.Parts {
		res.Policies = append(res.Policies, p.Result)
	}
	res.Notices = append(res.Notices, streamedNotices(res.Policies)...)
	res.Reference = referenceFor(sc, res)
	res.CDF = &Figure{Name: "jct_cdf", Title: "Job completion times (CDF)", Pending: true,
		Caption: "For each time on the x axis, the share of jobs that completed within it (arrival to finish). Higher and further left is better."}
	res.Queue = &Figure{Name: "queue_by_model", Title: "Average queuing delay per model", Pending: true,
		Caption: "How long jobs of each model waited between arriving and first starting."}
	return res, sc, nil
}

// showResults puts res on show in place of the results before it.
func (a *App) showResults(res *Results) {
	if a.replacing != res {
		a.replacing = nil // another run's results take the place of the built ones
	}
	if old := a.Res; old != nil && old != res && !a.hist.holds(old) {
		old.release(a.P)
	}
	a.Res = res
	if a.TL.Policy >= len(res.Policies) {
		a.TL.Policy = 0
	}
	a.TL.reset(res)
	a.setNotice(simulated(res), false)
	a.noticeLessons()
}

// simulated is the run bar's line for results just simulated. When the
// run waited for the engine workers to start (the page's first run) and
// that was most of its time, the line says so apart, so that a first run
// of thirty jobs does not read as seconds of simulating.
func simulated(res *Results) string {
	what := plural(len(res.Policies), "policy")
	if res.StartShown() {
		return fmt.Sprintf("Simulated %s in %s (the simulator took %s to start in this browser).", what,
			results.Duration(res.SimulatedSeconds()), results.Duration(res.StartMS/1000))
	}
	return fmt.Sprintf("Simulated %s in %s.", what, results.Duration(res.SimulatedSeconds()))
}

// StartShown reports whether the engine workers' start is named apart
// from the run's time: it took at least startShownMS and at least half
// of the run's wall time.
func (res *Results) StartShown() bool {
	return res.StartMS >= startShownMS && res.StartMS*2 >= res.WallMS
}

// SimulatedSeconds is the run's time as the page states it: its wall
// time, less the engine workers' start when that is named apart.
func (res *Results) SimulatedSeconds() float64 {
	if res.StartShown() {
		return (res.WallMS - res.StartMS) / 1000
	}
	return res.WallMS / 1000
}

// startShownMS is the shortest wait for the engine workers that the run
// bar's line names apart.
const startShownMS = 500

// applyDrawn takes the figures that span policies from a worker's reply
// to the draw request of finishResults.
func (a *App) applyDrawn(res *Results, m protocol.Message) {
	for _, f := range []*Figure{res.CDF, res.Queue} {
		f.Pending = false
	}
	if m.Type != protocol.TypeDrawn {
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		res.CDF.Err, res.Queue.Err = e.Message, e.Message
		return
	}
	for _, f := range []*Figure{res.CDF, res.Queue} {
		if b, ok := m.Bin[f.Name]; ok {
			f.PNG = b
			f.URL = a.P.BlobURL(b, "image/png")
		} else {
			f.Err = "nothing to draw"
		}
	}
	var drawn protocol.Drawn
	_ = json.Unmarshal(m.JSON, &drawn)
	for _, d := range drawn.Figures {
		if b, ok := m.Bin[d.Name]; ok && d.Name != res.CDF.Name && d.Name != res.Queue.Name {
			res.Extra = append(res.Extra, &Figure{Name: d.Name, Title: d.Title, Caption: extraCaption(d.Kind),
				PNG: b, URL: a.P.BlobURL(b, "image/png")})
		}
	}
}

// release frees the blob URLs of old results.
func (res *Results) release(p Platform) {
	for _, f := range res.Figures() {
		if f.URL != "" {
			p.RevokeURL(f.URL)
		}
	}
}

// Figures lists the figures in display order: CDF, queuing delay, the
// scenario's extra figures, then a Gantt chart per policy.
func (res *Results) Figures() []*Figure {
	out := append([]*Figure{res.CDF, res.Queue}, res.Extra...)
	for _, p := range res.Policies {
		if p.Gantt != nil {
			out = append(out, p.Gantt)
		}
	}
	return out
}

// MainFigures are the figures the Results view shows as images: all but
// the Gantt charts, which its interactive chart draws (their images sit
// below it, for downloads).
func (res *Results) MainFigures() []*Figure {
	return append([]*Figure{res.CDF, res.Queue}, res.Extra...)
}

// drawRequest asks for figures of these results; gantt is the policy
// whose intervals travel along (-1: none).
func (res *Results) drawRequest(figures []string, format string, gantt int) (protocol.DrawRequest, map[string][]byte) {
	req := protocol.DrawRequest{Document: res.drawDocument(), Seed: res.Seed, Figures: figures, Format: format}
	bin := map[string][]byte{}
	for k, p := range res.Policies {
		req.Runs = append(req.Runs, protocol.DrawRun{Label: p.Label, Name: p.Name})
		bin[protocol.RunOutputKey(k)] = p.Raw
		if k == gantt {
			bin[protocol.IntervalsKey(k)] = protocol.EncodeIntervals(p.Intervals)
		}
	}
	return req, bin
}

// Stale reports whether the scenario changed since these results.
func (a *App) Stale() bool {
	return a.Res != nil && a.Res.Point == nil && a.Res.Doc != a.Ed.JSON()
}

// DownloadPNG saves a figure's PNG.
func (a *App) DownloadPNG(f *Figure) {
	if len(f.PNG) > 0 {
		a.P.Download(a.fileStem()+"-"+f.Name+".png", "image/png", f.PNG)
	}
}

// DownloadSVG asks a worker to draw a figure as SVG (naming its font),
// then saves it.
func (a *App) DownloadSVG(f *Figure) {
	res := a.Res
	if res == nil || f.Busy {
		return
	}
	gantt := -1
	for k, p := range res.Policies {
		if p.Gantt == f {
			gantt = k
		}
	}
	if gantt >= 0 && len(res.Policies[gantt].Intervals) == 0 {
		f.Err = "this run has too many GPU intervals to redraw here; download the PNG"
		return
	}
	f.Busy = true
	req, bin := res.drawRequest([]string{f.Name}, "svg", gantt) // SVG: the full size
	req.LogX = f.LogX
	name := a.fileStem() + "-" + f.Name + ".svg"
	a.pool.draw(req, bin, func(m protocol.Message) {
		f.Busy = false
		if b, ok := m.Bin[f.Name]; ok && m.Type == protocol.TypeDrawn {
			a.P.Download(name, "image/svg+xml", b)
			return
		}
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		f.Err = "SVG: " + e.Message
	})
}

// SetLogTime redraws the JCT CDF with its time axis on a log scale (on)
// or a linear one.
func (a *App) SetLogTime(on bool) {
	res := a.Res
	if res == nil || res.CDF == nil || res.CDF.LogX == on || res.CDF.Pending {
		return
	}
	f := res.CDF
	f.LogX, f.Pending, f.Err = on, true, ""
	req, bin := res.drawRequest([]string{f.Name}, "png", -1)
	req.Width, req.LogX = a.figureWidth(), on
	a.pool.draw(req, bin, func(m protocol.Message) {
		f.Pending = false
		if b, ok := m.Bin[f.Name]; ok && m.Type == protocol.TypeDrawn {
			if f.URL != "" {
				a.P.RevokeURL(f.URL)
			}
			f.PNG, f.URL = b, a.P.BlobURL(b, "image/png")
			return
		}
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		f.Err = e.Message
	})
}

func (a *App) fileStem() string {
	if a.Res != nil && a.Res.Name != "" {
		return slug(a.Res.Name)
	}
	return "schedlab"
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// ResultsJSON is the results in the format of `schedlab run --format json`.
func (res *Results) JSON() []byte {
	out := struct {
		Scenario string            `json:"scenario"`
		Seed     uint64            `json:"seed"`
		Results  []json.RawMessage `json:"results"`
	}{Scenario: res.Name, Seed: res.Seed}
	for _, p := range res.Policies {
		out.Results = append(out.Results, p.Raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
	return b.Bytes()
}

// SummaryCSV is one row of metrics per policy, in the columns of the
// command line's summary.csv.
func (res *Results) SummaryCSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(results.SummaryHeader)
	for _, p := range res.Policies {
		w.Write(results.SummaryRow(p.Label, res.Seed, p.Out.Metrics, p.Out.Error))
	}
	w.Flush()
	return b.Bytes()
}

// JobsCSV is one row per job and policy.
func (res *Results) JobsCSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"policy", "seed", "id", "model", "gpus", "status", "arrival_s", "start_s", "finish_s", "jct_s", "queue_s", "preemptions", "migrations", "weight", "entity"})
	for _, p := range res.Policies {
		for _, j := range p.Out.Jobs {
			w.Write([]string{p.Label, strconv.FormatUint(res.Seed, 10), j.ID, j.Model, strconv.Itoa(j.GPUs), j.Status,
				results.Num(j.ArrivalS), opt(j.StartS), opt(j.FinishS), opt(j.JCTS), opt(j.QueueS), strconv.Itoa(j.Preemptions), strconv.Itoa(j.Migrations),
				results.Num(j.Weight), j.Entity})
		}
	}
	w.Flush()
	return b.Bytes()
}

func opt(x *float64) string {
	if x == nil {
		return ""
	}
	return results.Num(*x)
}

// Download saves the results in a format: "json", "metrics.csv" or "jobs.csv".
func (a *App) Download(what string) {
	res := a.Res
	if res == nil {
		return
	}
	stem := a.fileStem()
	switch what {
	case "json":
		a.P.Download(stem+"-results.json", "application/json", res.JSON())
	case "metrics.csv":
		a.P.Download(stem+"-metrics.csv", "text/csv", res.SummaryCSV())
	case "jobs.csv":
		a.P.Download(stem+"-jobs.csv", "text/csv", res.JobsCSV())
	}
}

// Metric is a column of the metrics table.
type Metric struct {
	Key, Title, Help string
	Higher           bool // higher is better
	get              func(p *PolicyResult) float64
	format           func(float64) string
}

// Metrics are the columns of the metrics table.
var Metrics = []Metric{
	{Key: "avg_jct_s", Title: "Average JCT", Help: "mean job completion time: finish minus arrival", get: func(p *PolicyResult) float64 { return p.Out.Metrics.AvgJCT }, format: results.Duration},
	{Key: "p50_jct_s", Title: "Median JCT", Help: "half of the jobs completed faster than this", get: func(p *PolicyResult) float64 { return p.Out.Metrics.P50JCT }, format: results.Duration},
	{Key: "p95_jct_s", Title: "p95 JCT", Help: "95% of the jobs completed faster than this", get: func(p *PolicyResult) float64 { return p.Out.Metrics.P95JCT }, format: results.Duration},
	{Key: "avg_queue_s", Title: "Average queuing delay", Help: "mean time from arrival to first start", get: func(p *PolicyResult) float64 { return p.Out.Metrics.AvgQueue }, format: results.Duration},
	{Key: "makespan_s", Title: "Makespan", Help: "from the first arrival to the last completion", get: func(p *PolicyResult) float64 { return p.Out.Metrics.Makespan }, format: results.Duration},
	{Key: "utilization", Title: "Utilization", Help: "share of GPU time during the makespan in which a GPU held a job", Higher: true, get: func(p *PolicyResult) float64 { return p.Out.Metrics.Utilization }, format: results.Percent},
}

// Cell is one value of the metrics table.
type Cell struct {
	Text  string
	Exact string // the value with full precision, for tests and tooltips
	Best  bool
}

// MetricRow is one policy's row of the metrics table.
type MetricRow struct {
	Label    string
	Finished string
	Error    string
	Cells    []Cell
}

// MetricRows builds the metrics table, marking the best value of each
// column among the policies that finished every job.
func (res *Results) MetricRows() []MetricRow {
	rows := make([]MetricRow, len(res.Policies))
	for i, p := range res.Policies {
		m := p.Out.Metrics
		rows[i] = MetricRow{Label: p.Label, Error: p.Out.Error, Finished: fmt.Sprintf("%s of %s", results.Thousands(m.Finished), results.Thousands(m.Jobs))}
	}
	for _, col := range Metrics {
		for i, c := range col.cells(res.Policies) {
			rows[i].Cells = append(rows[i].Cells, c)
		}
	}
	return rows
}

// cells formats the column's value for each policy and stars the best as
// shown: every cell that displays the best value of a policy that
// finished every job, so that equal-looking values are never told apart,
// and none when all such policies display the same value.
func (col Metric) cells(ps []*PolicyResult) []Cell {
	best := math.NaN()
	for _, p := range ps {
		if v := col.get(p); complete(p) && (math.IsNaN(best) || col.Higher && v > best || !col.Higher && v < best) {
			best = v
		}
	}
	bestText := col.format(best)
	out := make([]Cell, len(ps))
	tie := true
	for i, p := range ps {
		v := col.get(p)
		out[i] = Cell{Text: col.format(v), Exact: strconv.FormatFloat(v, 'g', -1, 64)}
		if complete(p) {
			out[i].Best = out[i].Text == bestText
			tie = tie && out[i].Best
		}
	}
	if tie {
		for i := range out {
			out[i].Best = false
		}
	}
	return out
}

func complete(p *PolicyResult) bool {
	m := p.Out.Metrics
	return p.Out.Error == "" && m.Finished == m.Jobs && m.Jobs > 0
}

// extraCaption explains a figure of one of the extra plot kinds.
func extraCaption(kind string) string {
	switch {
	case kind == "wait_by_model":
		return "How long jobs of each model held no GPUs: the queuing before the first start plus, for policies that preempt, every wait after a preemption."
	case kind == "shares":
		return "For each job, the share of its time on each GPU type the policy aimed for (target) against the share it actually ran there (received)."
	case strings.HasPrefix(kind, "series:"):
		return "A quantity the policy recorded as it ran, over simulated time (for Gavel, the objective of each allocation it solved for)."
	}
	return ""
}

// extraKinds are the plot kinds a scenario asks for beyond the CDF, the
// queuing delays and the Gantt charts the page always shows.
func extraKinds(sc *scenario.Scenario) []string {
	var out []string
	for _, k := range sc.PlotList() {
		if !slices.Contains(scenario.PlotKinds, k) {
			out = append(out, k)
		}
	}
	return out
}
