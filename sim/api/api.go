// Package api is schedlab's JSON API: one http.Handler, versioned under
// /v1, that validates and runs scenarios and single points of a study's
// sweep. The same handler is served by `schedlab serve`, by go test
// through httptest, and on Cloudflare Workers (wasm/edge), so it draws no
// plots: the gonum/plot code is left out when built with the noplot tag,
// which keeps the Workers bundle small.
//
//	GET  /v1/health        {"status":"ok","api":"v1"}
//	GET  /v1/scenarios     the built-in scenarios
//	GET  /v1/policies      the registered policies and their parameters
//	POST /v1/validate      {"scenario": …} → {"valid":…, "problems":[{"path","message"}]}
//	POST /v1/run           {"scenario": …, "seed"?, "policy"?, "quick"?} → what `schedlab run --format json` prints
//	POST /v1/sweep-point   {"scenario": …, "x"?, "seed", "quick"?} → that point's values and runs
//
// A scenario is a JSON object (the document) or a string (a built-in
// scenario's name). Errors are JSON too: {"error": "...", "field"?: "...",
// "problems"?: [...]}, with 400 for malformed input, 404 for an unknown
// path, 405 for a wrong method, 413 for a body over the size limit and
// 422 for a scenario over the API's limits on GPUs, jobs, runs or
// simulated time.
package api

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	// Every policy family registers itself, so a scenario may name any.
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/schema"
)

// Version is the API's version, the prefix of every path.
const Version = "v1"

// Limits bound what one request may ask for.
type Limits struct {
	MaxBodyBytes int64   // request body; above it 413
	MaxGPUs      int64   // GPUs of the cluster; above it 422
	MaxJobs      int64   // jobs of one run; above it 422
	MaxRuns      int64   // runs of one request (points × seeds × policies); above it 422
	MaxSimTimeS  float64 // simulated time a run may reach (its engine.max_time_s, 0 meaning the engine's 10 years); above it 422
}

// DefaultLimits are generous for a local server; an edge deployment with
// a CPU limit per request wants smaller ones. The simulated-time limit is
// the engine's own default budget, so every scenario that runs in the CLI
// is accepted.
var DefaultLimits = Limits{
	MaxBodyBytes: 8 << 20,
	MaxGPUs:      20_000,
	MaxJobs:      100_000,
	MaxRuns:      2_000,
	MaxSimTimeS:  10 * 365 * 24 * 3600,
}

// Options configure the handler.
type Options struct {
	Limits  Limits        // zero fields take DefaultLimits' values
	Workers int           // runs of one request in parallel (0: one at a time)
	Timeout time.Duration // wall-clock limit per request; 0: none
}

// Handler is the API.
type Handler struct {
	o   Options
	mux *http.ServeMux
}

// New returns the API handler.
func New(o Options) *Handler {
	o.Limits = o.Limits.withDefaults()
	h := &Handler{o: o, mux: http.NewServeMux()}
	h.mux.HandleFunc("/v1/health", h.get(h.health))
	h.mux.HandleFunc("/v1/scenarios", h.get(h.scenarios))
	h.mux.HandleFunc("/v1/policies", h.get(h.policies))
	h.mux.HandleFunc("/v1/validate", h.post(h.validate))
	h.mux.HandleFunc("/v1/run", h.post(h.run))
	h.mux.HandleFunc("/v1/sweep-point", h.post(h.sweepPoint))
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("no such endpoint %s; the API has /v1/health, /v1/scenarios, /v1/policies, /v1/validate, /v1/run and /v1/sweep-point", r.URL.Path)})
	})
	return h
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxBodyBytes > 0 {
		d.MaxBodyBytes = l.MaxBodyBytes
	}
	if l.MaxGPUs > 0 {
		d.MaxGPUs = l.MaxGPUs
	}
	if l.MaxJobs > 0 {
		d.MaxJobs = l.MaxJobs
	}
	if l.MaxRuns > 0 {
		d.MaxRuns = l.MaxRuns
	}
	if l.MaxSimTimeS > 0 {
		d.MaxSimTimeS = l.MaxSimTimeS
	}
	return d
}

// ServeHTTP answers one request. A panic anywhere below becomes a 500
// with a message rather than a dropped connection (on Workers, a dead
// instance).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			writeError(w, &Error{Status: http.StatusInternalServerError, Msg: fmt.Sprintf("internal error: %v", v), stack: string(debug.Stack())})
		}
	}()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// Error is an API error: its status and a sentence, the request field it
// is about, and a scenario's problems.
type Error struct {
	Status   int              `json:"-"`
	Msg      string           `json:"error"`
	Field    string           `json:"field,omitempty"`
	Problems []schema.Problem `json:"problems,omitempty"`
	stack    string
}

func (e *Error) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Msg
	}
	return e.Msg
}

func writeError(w http.ResponseWriter, e *Error) {
	writeJSON(w, e.Status, e)
}

// writeJSON writes v indented as the CLI prints it.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := MarshalJSON(v)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = MarshalJSON(&Error{Msg: "encoding the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(data)
}

type getFunc func(r *http.Request) (any, *Error)
type postFunc func(ctx context.Context, body []byte) (any, *Error)

func (h *Handler) get(f getFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET")
			writeError(w, &Error{Status: http.StatusMethodNotAllowed, Msg: r.URL.Path + " takes GET, not " + r.Method})
			return
		}
		v, e := f(r)
		if e != nil {
			writeError(w, e)
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

func (h *Handler) post(f postFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeError(w, &Error{Status: http.StatusMethodNotAllowed, Msg: r.URL.Path + " takes POST with a JSON body, not " + r.Method})
			return
		}
		body, e := h.readBody(r)
		if e != nil {
			writeError(w, e)
			return
		}
		ctx := r.Context()
		if h.o.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
			defer cancel()
		}
		v, e := f(ctx, body)
		if e != nil {
			writeError(w, e)
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}
