// Package protocol is the message protocol between the page (the Vugu UI)
// and the engine Web Workers, the two roles of schedlab's module
// (wasm/browser). Messages are
// JavaScript objects {type, id, json, bin}: "type" says what the message
// is, "id" ties replies to their request, "json" is a string holding the
// JSON payload below, and "bin" is an optional object of Uint8Arrays
// (figures, GPU intervals) that travel beside the JSON so that no base64
// is needed. In Go both sides see a Message.
//
// Page to worker:
//
//	{type: "init", module, url}             worker.js only: instantiate the engine
//	                                        from a compiled WebAssembly.Module (or
//	                                        fetch url); the page compiles it once
//	{type: "run", id, json: RunRequest}     run a scenario (all policies, or one)
//	{type: "draw", id, json: DrawRequest,   draw figures of finished runs, e.g. the
//	 bin: {"intervals-K": ...}}             JCT CDF over runs from several workers
//	{type: "cancel", id}                    stop run id (see below)
//	{type: "list"}                          ask for the built-in scenarios again
//
// Worker to page:
//
//	{type: "ready", json: Ready}            the engine is loaded
//	{type: "progress", id, json: Progress}  a few times a second during a run
//	{type: "result", id, json: Result,      a finished run; bin holds a PNG per
//	 bin: {name: PNG, "intervals-K": ...}}  figure and, if asked, each run's GPU
//	                                        intervals (see EncodeIntervals)
//	{type: "drawn", id, json: Drawn,        the figures of a draw request
//	 bin: {name: PNG or SVG}}
//	{type: "error", id, json: Error}        invalid scenario, failed or cancelled run
//	{type: "exit", json: Exit}              worker.js: the engine's Go program exited
//	                                        (out of memory, a fatal error); the
//	                                        worker is dead and must be replaced
//
// A worker may also die without a word: its "error" event (an uncaught
// exception, a WebAssembly trap) then tells the page, which treats it as
// an exit once the worker was ready.
//
// Cancelling: the engine checks for cancellation every few thousand events
// and yields to the worker's event loop at each progress report, so a
// "cancel" message stops a run within a fraction of a second and the worker
// answers with an Error whose Cancelled is true. A page that cannot wait may
// also terminate the worker and start a new one.
//
// Parallel runs: a RunRequest with Policy set runs only that policy of the
// scenario. Runs do not depend on each other (the jobs come from the seed
// alone), so the page sends each policy of a comparison to its own worker
// and merges the results; a DrawRequest then draws the figures that span
// policies. Errors about a scenario carry each problem's JSON path, so the
// page can show it next to the field that caused it.
package protocol

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/schema"
)

// Message types.
const (
	TypeRun      = "run"
	TypeDraw     = "draw"
	TypeCancel   = "cancel"
	TypeList     = "list"
	TypeReady    = "ready"
	TypeProgress = "progress"
	TypeResult   = "result"
	TypeDrawn    = "drawn"
	TypeError    = "error"
	TypeExit     = "exit"
)

// Exit says that the engine's Go program exited: Code is its exit code,
// Output the end of what it printed (Go's "fatal error: out of memory"
// and stack, for one).
type Exit struct {
	Code   int    `json:"code"`
	Output string `json:"output"`
}

// Message is one message in either direction, as Go sees it.
type Message struct {
	Type string
	ID   int
	JSON []byte
	Bin  map[string][]byte
}

// NewMessage encodes payload as the JSON of a message.
func NewMessage(typ string, id int, payload any) Message {
	data, err := json.Marshal(payload)
	if err != nil {
		data, _ = json.Marshal(Error{Message: "encoding a " + typ + " message: " + err.Error()})
		typ = TypeError
	}
	return Message{Type: typ, ID: id, JSON: data}
}

// ScenarioInfo describes a built-in scenario for the gallery.
type ScenarioInfo struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags,omitempty"`
}

// Ready is sent once the engine has started.
type Ready struct {
	Scenarios []ScenarioInfo `json:"scenarios"`
	Default   string         `json:"default"`
	Policies  []string       `json:"policies"`
}

// RunRequest asks for a run. Exactly one of Name (a built-in scenario) and
// Document (a scenario JSON document) is set. Seed 0 means the scenario's
// first seed.
type RunRequest struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
	Seed     uint64 `json:"seed,omitempty"`
	// Policy, when set, is the index of the only policy to run.
	Policy *int `json:"policy,omitempty"`
	// Figures lists the figures wanted as PNG, by name or kind ("gantt"
	// for every Gantt chart), whatever the scenario's own plot list says:
	// nil means the scenario's plots, an empty non-nil list none.
	Figures []string `json:"figures"`
	// Timeline asks for each run's GPU intervals and decision log.
	Timeline bool `json:"timeline,omitempty"`
	// MaxIntervals and MaxLog cap what a timeline ships (0: the defaults
	// below); a run with more intervals ships none and says so.
	MaxIntervals int `json:"max_intervals,omitempty"`
	MaxLog       int `json:"max_log,omitempty"`
	// Stories asks for the records that tell each job's story (see
	// StoryKey); they travel with the timeline.
	Stories bool `json:"stories,omitempty"`
	// Compact asks for a one-policy run's job records and decision log in
	// binary (see EncodeJobs, EncodeLog), so that the page never decodes
	// them from JSON.
	Compact bool    `json:"compact,omitempty"`
	Width   float64 `json:"width,omitempty"`  // inches, 0 for the default
	Height  float64 `json:"height,omitempty"` // inches, 0 for the default
}

// Default timeline caps: enough for every teaching scenario and for 10,000
// jobs, small enough to cross postMessage in a moment.
const (
	DefaultMaxIntervals = 300_000
	DefaultMaxLog       = 20_000
)

// Progress reports a run's progress.
type Progress struct {
	Policy   string  `json:"policy"`
	Run      int     `json:"run"`
	Runs     int     `json:"runs"`
	NowS     float64 `json:"now_s"`
	Finished int     `json:"finished"`
	Total    int     `json:"total"`
}

// Figure names a figure sent beside a result ("bin" holds its bytes under
// Name).
type Figure struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Kind  string `json:"kind"` // the plot kind that drew it, e.g. "shares"
}

// Result is a finished run of the policies asked for on one seed.
type Result struct {
	// Output is the JSON of a results.Output (sim/results), what
	// `schedlab run --format json` prints.
	Output  json.RawMessage `json:"output"`
	Figures []Figure        `json:"figures"`
	// FiguresErr says why the figures asked for were not drawn (their
	// fonts could not be fetched, see sim/plot's FaceData); the numbers
	// are whole.
	FiguresErr string `json:"figures_err,omitempty"`
	// Timelines has one entry per policy run when the request asked for
	// them; the intervals of entry K are in bin "intervals-K".
	Timelines []Timeline `json:"timelines,omitempty"`
	// ElapsedMS is the worker's wall time for simulating and drawing.
	ElapsedMS float64 `json:"elapsed_ms"`
}

// Timeline is what the page's timeline view needs beyond the job records:
// the decision log (the intervals travel in binary).
type Timeline struct {
	Policy string `json:"policy"`
	// Intervals is the number of intervals shipped; IntervalsOmitted is
	// the number recorded but not shipped because there were more than
	// the cap (then none are shipped).
	Intervals        int        `json:"intervals"`
	IntervalsOmitted int        `json:"intervals_omitted,omitempty"`
	Log              []LogEntry `json:"log"`
	// LogOmitted counts decision-log entries not shipped: over the cap,
	// or dropped by the engine's own cap.
	LogOmitted int `json:"log_omitted,omitempty"`
	// EndS is the simulated time at which the run ended.
	EndS float64 `json:"end_s"`
	// Notes and Tables count the story records shipped in bins
	// StoryKey(K) and TablesKey(K) when the request asked for stories;
	// NotesCut and TablesCut count those the recorder did not keep (its
	// caps), and NoStories says the run kept none.
	Notes     int   `json:"notes,omitempty"`
	Tables    int   `json:"tables,omitempty"`
	NotesCut  int64 `json:"notes_cut,omitempty"`
	TablesCut int64 `json:"tables_cut,omitempty"`
}

// LogEntry is one decision-log entry: at time T, about job index Job (-1:
// no job), a sentence.
type LogEntry struct {
	T   float64 `json:"t"`
	Job int     `json:"job"`
	Msg string  `json:"msg"`
}

// DrawRequest asks for figures of runs that may come from several workers.
// Runs lists the runs in policy order; for a Gantt chart of run K the
// request carries its intervals in bin "intervals-K".
type DrawRequest struct {
	Document string    `json:"document"`
	Seed     uint64    `json:"seed"`
	Runs     []DrawRun `json:"runs"`
	// Figures lists the figure names wanted ("jct_cdf", "queue_by_model",
	// "gantt-<policy>"); nil means every figure the data allows.
	Figures []string `json:"figures"`
	// Format is "png" (the default) or "svg" (naming its font, Liberation
	// Sans, with the metric-compatible Arial as the first fallback).
	Format string  `json:"format,omitempty"`
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
	// LogX draws time axes (the JCT CDF's) on a log scale, so that one
	// long tail does not squeeze every other curve to the left.
	LogX bool `json:"log_x,omitempty"`
}

// DrawRun is one finished run: its label, policy name and PolicyOutput
// JSON. The page leaves Output out and sends the JSON as bin "output-K"
// (RunOutputKey): encoding megabytes of job records into the request's
// JSON froze its main thread for seconds.
type DrawRun struct {
	Label  string          `json:"label"`
	Name   string          `json:"name"`
	Output json.RawMessage `json:"output,omitempty"`
}

// RunOutputKey is the bin name of run k's PolicyOutput JSON in a draw
// request.
func RunOutputKey(k int) string { return fmt.Sprintf("output-%d", k) }

// Drawn answers a DrawRequest; bin holds each figure's bytes under its name.
type Drawn struct {
	Format  string   `json:"format"`
	Figures []Figure `json:"figures"`
}

// Error is a failure; Problems is set when the scenario was invalid.
type Error struct {
	Message   string           `json:"message"`
	Problems  []schema.Problem `json:"problems,omitempty"`
	Cancelled bool             `json:"cancelled,omitempty"`
}

// Interval is one stretch of time job Job (an index into the run's jobs)
// held GPU GPU (an index into the cluster's GPUs).
type Interval struct {
	GPU    int32
	Job    int32
	StartS float64
	EndS   float64
}

// intervalSize is the bytes of one encoded interval.
const intervalSize = 24

// EncodeIntervals packs intervals little-endian: GPU int32, Job int32,
// StartS float64, EndS float64, 24 bytes each.
func EncodeIntervals(iv []Interval) []byte {
	b := make([]byte, len(iv)*intervalSize)
	for i, x := range iv {
		o := b[i*intervalSize:]
		binary.LittleEndian.PutUint32(o, uint32(x.GPU))
		binary.LittleEndian.PutUint32(o[4:], uint32(x.Job))
		binary.LittleEndian.PutUint64(o[8:], math.Float64bits(x.StartS))
		binary.LittleEndian.PutUint64(o[16:], math.Float64bits(x.EndS))
	}
	return b
}

// DecodeIntervals unpacks EncodeIntervals' bytes.
func DecodeIntervals(b []byte) ([]Interval, error) { return DecodeIntervalsYielding(b, nil) }

// DecodeIntervalsYielding is DecodeIntervals calling yield (when not nil)
// after every 10×YieldEvery intervals (a simpler record than a job's).
func DecodeIntervalsYielding(b []byte, yield func()) ([]Interval, error) {
	if len(b)%intervalSize != 0 {
		return nil, fmt.Errorf("protocol: %d bytes of intervals is not a multiple of %d", len(b), intervalSize)
	}
	iv := make([]Interval, len(b)/intervalSize)
	for i := range iv {
		if yield != nil && i > 0 && i%(10*YieldEvery) == 0 {
			yield()
		}
		o := b[i*intervalSize:]
		iv[i] = Interval{
			GPU:    int32(binary.LittleEndian.Uint32(o)),
			Job:    int32(binary.LittleEndian.Uint32(o[4:])),
			StartS: math.Float64frombits(binary.LittleEndian.Uint64(o[8:])),
			EndS:   math.Float64frombits(binary.LittleEndian.Uint64(o[16:])),
		}
	}
	return iv, nil
}

// IntervalsKey is the bin name of run k's intervals.
func IntervalsKey(k int) string { return fmt.Sprintf("intervals-%d", k) }
