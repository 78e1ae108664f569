// Package api is schedlab's JSON API: one handler, versioned under /v1,
// that validates and runs scenarios and single points of a study's sweep.
// The same handler is served by `schedlab serve` and by go test through
// httptest (as an http.Handler), and on Cloudflare Workers (wasm/edge,
// through Handler.Answer), so it draws no plots: the gonum/plot code is
// left out when built with the noplot tag. Built with the nohttp tag as
// well, the package leaves out its net/http side (ServeHTTP and
// RunRemote): the Workers bundle then links no net/http, which alone
// would add about 0.6 MB to its gzipped size (see docs/development.md's
// size budgets).
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
	"io"
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
	o      Options
	routes map[string]route
}

// A route is one endpoint: a GET or a POST one.
type route struct {
	get  getFunc
	post postFunc
}

type getFunc func() (any, *Error)
type postFunc func(ctx context.Context, body []byte) (any, *Error)

// New returns the API handler.
func New(o Options) *Handler {
	o.Limits = o.Limits.withDefaults()
	h := &Handler{o: o}
	h.routes = map[string]route{
		"/v1/health":      {get: h.health},
		"/v1/scenarios":   {get: h.scenarios},
		"/v1/policies":    {get: h.policies},
		"/v1/validate":    {post: h.validate},
		"/v1/run":         {post: h.run},
		"/v1/sweep-point": {post: h.sweepPoint},
	}
	return h
}

// Limits are the limits the handler applies, defaults filled in.
func (h *Handler) Limits() Limits { return h.o.Limits }

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

// Request is one request as a transport hands it over: net/http in
// ServeHTTP, the Workers runtime's JavaScript in wasm/edge.
type Request struct {
	Method string
	Path   string    // the URL's path, without its query
	Body   io.Reader // nil for none
	Length int64     // the body's declared length in bytes; -1: unknown
}

// Response is the API's answer: a status, the headers to send and a
// body, JSON but for a 204.
type Response struct {
	Status int
	Header [][2]string // name, value
	Body   []byte
}

// Answer answers one request. A panic anywhere below becomes a 500 with
// a message rather than a dropped connection (on Workers, a dead
// instance).
func (h *Handler) Answer(ctx context.Context, r Request) (resp Response) {
	defer func() {
		if v := recover(); v != nil {
			resp = errorResponse(&Error{Status: statusInternalServerError, Msg: fmt.Sprintf("internal error: %v", v), stack: string(debug.Stack())})
		}
	}()
	if r.Method == methodOptions {
		return withCORS(Response{Status: statusNoContent, Header: [][2]string{
			{"Access-Control-Allow-Methods", "GET, POST, OPTIONS"},
			{"Access-Control-Allow-Headers", "Content-Type"},
		}})
	}
	rt, ok := h.routes[r.Path]
	switch {
	case !ok:
		return errorResponse(&Error{Status: statusNotFound, Msg: fmt.Sprintf("no such endpoint %s; the API has /v1/health, /v1/scenarios, /v1/policies, /v1/validate, /v1/run and /v1/sweep-point", r.Path)})
	case rt.get != nil:
		return h.get(rt.get, r)
	default:
		return h.post(ctx, rt.post, r)
	}
}

// Statuses and methods by name, as net/http has them: only http.go and
// remote.go import net/http (see the package comment).
const (
	statusOK                    = 200
	statusNoContent             = 204
	statusBadRequest            = 400
	statusNotFound              = 404
	statusMethodNotAllowed      = 405
	statusRequestEntityTooLarge = 413
	statusUnprocessableEntity   = 422
	statusInternalServerError   = 500
	statusServiceUnavailable    = 503

	methodGet     = "GET"
	methodHead    = "HEAD"
	methodPost    = "POST"
	methodOptions = "OPTIONS"
)

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

func errorResponse(e *Error) Response {
	return jsonResponse(e.Status, e)
}

// jsonResponse is v indented as the CLI prints it.
func jsonResponse(status int, v any) Response {
	data, err := MarshalJSON(v)
	if err != nil {
		status = statusInternalServerError
		data, _ = MarshalJSON(&Error{Msg: "encoding the answer: " + err.Error()})
	}
	return withCORS(Response{Status: status, Header: [][2]string{{"Content-Type", "application/json; charset=utf-8"}}, Body: data})
}

// withCORS lets pages on any origin call the API.
func withCORS(r Response) Response {
	r.Header = append([][2]string{{"Access-Control-Allow-Origin", "*"}}, r.Header...)
	return r
}

func (h *Handler) get(f getFunc, r Request) Response {
	if r.Method != methodGet && r.Method != methodHead {
		resp := errorResponse(&Error{Status: statusMethodNotAllowed, Msg: r.Path + " takes GET, not " + r.Method})
		resp.Header = append(resp.Header, [2]string{"Allow", "GET"})
		return resp
	}
	v, e := f()
	if e != nil {
		return errorResponse(e)
	}
	return jsonResponse(statusOK, v)
}

func (h *Handler) post(ctx context.Context, f postFunc, r Request) Response {
	if r.Method != methodPost {
		resp := errorResponse(&Error{Status: statusMethodNotAllowed, Msg: r.Path + " takes POST with a JSON body, not " + r.Method})
		resp.Header = append(resp.Header, [2]string{"Allow", "POST"})
		return resp
	}
	body, e := h.readBody(r)
	if e != nil {
		return errorResponse(e)
	}
	if h.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
		defer cancel()
	}
	v, e := f(ctx, body)
	if e != nil {
		return errorResponse(e)
	}
	return jsonResponse(statusOK, v)
}
