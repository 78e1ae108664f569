// Package worker is the engine Web Worker's logic without the browser:
// it answers the messages of package protocol by running scenarios and
// drawing figures. wasm/browser, in its engine role, connects it to the
// worker's postMessage;
// native tests (and the UI's tests) call it directly.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/policy"
	_ "github.com/schedlab/schedlab/sim/policy/all" // every policy a scenario may name
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/web/protocol"
)

// Handler answers protocol messages. Post receives every reply; it may be
// called from several goroutines, one at a time.
type Handler struct {
	post func(protocol.Message)
	// Yield, if set, is called at every progress report of a run; the
	// worker uses it to let its event loop deliver "cancel" messages.
	Yield func()
	// ProgressEvery is the least wall time between two progress messages.
	ProgressEvery time.Duration
	// LoadFaces readies the figures' fonts before a run draws (New sets
	// plot.LoadFaces). The page's module fetches them (see sim/plot's
	// FaceData); when that fails, the run's numbers still go back, with
	// the reason its figures are missing.
	LoadFaces func() error

	mu      sync.Mutex // guards cancels and serializes post
	cancels map[int]context.CancelFunc
}

// New returns a handler that sends its replies to post.
func New(post func(protocol.Message)) *Handler {
	return &Handler{post: post, cancels: map[int]context.CancelFunc{}, ProgressEvery: 200 * time.Millisecond, LoadFaces: plot.LoadFaces}
}

func (h *Handler) send(m protocol.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.post(m)
}

func (h *Handler) fail(id int, e protocol.Error) {
	h.send(protocol.NewMessage(protocol.TypeError, id, e))
}

// Handle answers one message. Runs and draws go on in their own goroutine,
// so Handle never blocks (a worker must not block in its message callback).
func (h *Handler) Handle(m protocol.Message) {
	switch m.Type {
	case protocol.TypeRun:
		var req protocol.RunRequest
		if err := json.Unmarshal(m.JSON, &req); err != nil {
			h.fail(m.ID, protocol.Error{Message: "bad run request: " + err.Error()})
			return
		}
		h.cancellable(m.ID, func(ctx context.Context) { h.run(ctx, m.ID, req) })
	case protocol.TypeDraw:
		var req protocol.DrawRequest
		if err := json.Unmarshal(m.JSON, &req); err != nil {
			h.fail(m.ID, protocol.Error{Message: "bad draw request: " + err.Error()})
			return
		}
		go h.guard(m.ID, func() { h.draw(m.ID, req, m.Bin) })
	case protocol.TypeStudy:
		var req protocol.StudyRequest
		if !h.decode(m.ID, m.JSON, &req, "study") {
			return
		}
		h.cancellable(m.ID, func(ctx context.Context) { h.study(ctx, m.ID, req) })
	case protocol.TypeVerdicts:
		var req protocol.VerdictsRequest
		if h.decode(m.ID, m.JSON, &req, "verdicts") {
			go h.guard(m.ID, func() { h.verdicts(m.ID, req) })
		}
	case protocol.TypeImport:
		var req protocol.ImportRequest
		if h.decode(m.ID, m.JSON, &req, "import") {
			go h.guard(m.ID, func() {
				h.send(protocol.NewMessage(protocol.TypeImported, m.ID, protocol.ImportTrace(req, m.Bin[protocol.TraceKey])))
			})
		}
	case protocol.TypeStory:
		var req protocol.StoryRequest
		if h.decode(m.ID, m.JSON, &req, "story") {
			h.cancellable(m.ID, func(ctx context.Context) { h.story(ctx, m.ID, req) })
		}
	case protocol.TypeConform:
		var req protocol.ConformRequest
		if h.decode(m.ID, m.JSON, &req, "conform") {
			h.cancellable(m.ID, func(ctx context.Context) { h.conform(ctx, m.ID, req) })
		}
	case protocol.TypeCancel:
		h.mu.Lock()
		if c := h.cancels[m.ID]; c != nil {
			c()
		}
		h.mu.Unlock()
	case protocol.TypeList:
		h.send(protocol.NewMessage(protocol.TypeReady, 0, Ready()))
	default:
		h.fail(m.ID, protocol.Error{Message: fmt.Sprintf("unknown message type %q", m.Type)})
	}
}

// guard turns a panic into an error reply: a bug must not kill the worker
// silently and leave the page waiting.
func (h *Handler) guard(id int, f func()) {
	defer func() {
		if r := recover(); r != nil {
			h.fail(id, protocol.Error{Message: fmt.Sprintf("internal error: %v", r)})
		}
	}()
	f()
}

// Ready describes the engine: the built-in scenarios and the policies.
func Ready() protocol.Ready {
	r := protocol.Ready{Default: scenarios.Default, Policies: policy.Names()}
	// Only the fields shown are read: parsing all the built-in scenarios
	// in full held every new worker back for seconds before it could run
	// anything (they are valid; their tests parse each one).
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		info := protocol.ScenarioInfo{Name: n}
		if json.Unmarshal(data, &info) == nil {
			info.Name = n
			r.Scenarios = append(r.Scenarios, info)
		}
	}
	return r
}

// parse reads the request's scenario, reporting problems as an Error.
func parse(name, document string) (*scenario.Scenario, *protocol.Error) {
	doc := []byte(document)
	if name != "" {
		var ok bool
		if doc, ok = scenarios.Read(name); !ok {
			return nil, &protocol.Error{Message: "no built-in scenario named " + name}
		}
	}
	sc, err := scenario.Parse(doc)
	if err != nil {
		e := &protocol.Error{Message: "the scenario is not valid"}
		var ps schema.Problems
		if errors.As(err, &ps) {
			e.Problems = ps
		}
		return nil, e
	}
	return sc, nil
}

func (h *Handler) run(ctx context.Context, id int, req protocol.RunRequest) {
	start := time.Now()
	sc, perr := parse(req.Name, req.Document)
	if perr != nil {
		h.fail(id, *perr)
		return
	}
	seed := req.Seed
	if seed == 0 {
		seed = sc.RunSeeds()[0]
	}
	if req.Policy != nil {
		var err error
		if sc, err = sc.WithPolicy(*req.Policy); err != nil {
			h.fail(id, protocol.Error{Message: err.Error()})
			return
		}
	}
	var last time.Time
	rep, err := experiment.Execute(ctx, sc, experiment.Options{Seeds: []uint64{seed}, Snapshots: req.Timeline, Stories: req.Stories, StreamAbove: experiment.DefaultStreamAbove, Progress: func(p experiment.Progress) {
		if time.Since(last) >= h.ProgressEvery {
			last = time.Now()
			h.send(protocol.NewMessage(protocol.TypeProgress, id, protocol.Progress{Policy: p.Policy, Run: p.Run, Runs: p.Runs,
				NowS: p.NowS, Finished: p.Finished, Total: p.Total}))
			if h.Yield != nil {
				h.Yield()
			}
		}
	}})
	if err != nil {
		h.fail(id, protocol.Error{Message: err.Error(), Cancelled: ctx.Err() != nil})
		return
	}
	res := protocol.Result{Figures: []protocol.Figure{}}
	bin := map[string][]byte{}
	if res.Output, err = output(rep.Output(seed), req.Compact, bin); err != nil {
		h.fail(id, protocol.Error{Message: err.Error()})
		return
	}
	if req.Figures == nil || len(req.Figures) > 0 {
		if err := h.LoadFaces(); err != nil {
			// A run of minutes is not lost for its figures' fonts.
			res.FiguresErr = "The figures could not be drawn: " + err.Error()
			req.Figures = []string{}
		}
	}
	if req.Figures == nil || len(req.Figures) > 0 {
		if req.Figures != nil {
			// An explicit list wins over the scenario's own plots.
			all := *rep.Scenario
			all.Plots = nil
			rep.Scenario = &all
		}
		figs, err := rep.Figures(seed, plot.Options{Width: req.Width, Height: req.Height})
		if err != nil {
			h.fail(id, protocol.Error{Message: "drawing: " + err.Error()})
			return
		}
		for _, f := range figs {
			if req.Figures != nil && !contains(req.Figures, f.Name) && !contains(req.Figures, f.Kind) {
				continue
			}
			b, err := f.Figure.PNG()
			if err != nil {
				h.fail(id, protocol.Error{Message: "drawing " + f.Name + ": " + err.Error()})
				return
			}
			bin[f.Name] = b
			res.Figures = append(res.Figures, protocol.Figure{Name: f.Name, Title: f.Title})
		}
	}
	if req.Timeline {
		for k, r := range rep.ForSeed(seed) {
			tl, iv := timeline(r, req.MaxIntervals, req.MaxLog)
			if req.Compact && len(res.Timelines) == 0 && len(rep.ForSeed(seed)) == 1 {
				// the log in binary too: 20,000 entries are megabytes of JSON
				bin[protocol.LogKey] = protocol.EncodeLog(tl.Log)
				tl.Log = nil
			}
			if req.Stories && r.Result != nil {
				if err := storyBins(r.Result, k, &tl, bin); err != nil {
					h.fail(id, protocol.Error{Message: err.Error()})
					return
				}
			}
			res.Timelines = append(res.Timelines, tl)
			bin[protocol.IntervalsKey(k)] = iv
		}
	}
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	m := protocol.NewMessage(protocol.TypeResult, id, res)
	m.Bin = bin
	h.send(m)
}

// timeline packs a run's intervals and decision log within the caps.
func timeline(r *experiment.Run, maxIntervals, maxLog int) (protocol.Timeline, []byte) {
	if maxIntervals <= 0 {
		maxIntervals = protocol.DefaultMaxIntervals
	}
	if maxLog <= 0 {
		maxLog = protocol.DefaultMaxLog
	}
	tl := protocol.Timeline{Policy: r.Policy, Log: []protocol.LogEntry{}}
	if r.Result == nil {
		return tl, nil
	}
	res := r.Result
	tl.EndS = res.Stats.EndS
	var iv []protocol.Interval
	if n := len(res.Intervals); n > maxIntervals || r.Streamed {
		// a streamed run has no job records for the intervals to name
		tl.IntervalsOmitted = n
	} else {
		iv = make([]protocol.Interval, n)
		for i, x := range res.Intervals {
			iv[i] = protocol.Interval{GPU: int32(x.GPU), Job: int32(x.Job), StartS: x.StartS, EndS: x.EndS}
		}
		tl.Intervals = n
	}
	for i, d := range res.Log {
		if i >= maxLog {
			break
		}
		tl.Log = append(tl.Log, protocol.LogEntry{T: d.TimeS, Job: int(d.Job), Msg: d.Msg()})
	}
	tl.LogOmitted = max(len(res.Log)-maxLog, 0) + int(res.Stats.DroppedLog)
	return tl, protocol.EncodeIntervals(iv)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// output encodes a run's output as JSON, or, compact and for one policy,
// with the job records in binary in bin (see protocol.EncodeJobs) and the
// policy's whole output JSON beside them.
func output(o results.Output, compact bool, bin map[string][]byte) ([]byte, error) {
	if !compact || len(o.Results) != 1 {
		return json.Marshal(o)
	}
	whole, err := json.Marshal(o.Results[0])
	if err != nil {
		return nil, err
	}
	bin[protocol.OutputKey] = whole
	bin[protocol.JobsKey] = protocol.EncodeJobs(o.Results[0].Jobs)
	o.Results = []results.PolicyOutput{o.Results[0]}
	o.Results[0].Jobs = nil
	return json.Marshal(o)
}

// cancellable runs work in its own goroutine under a context that a
// cancel message for id ends, and forgets the cancel when work returns.
func (h *Handler) cancellable(id int, work func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	h.mu.Lock()
	h.cancels[id] = cancel
	h.mu.Unlock()
	go func() {
		defer func() {
			h.mu.Lock()
			delete(h.cancels, id)
			h.mu.Unlock()
			cancel()
		}()
		h.guard(id, func() { work(ctx) })
	}()
}
