// Package api is schedlab's JSON API: one handler, versioned under /v1,
// that validates and runs scenarios and single points of a study's sweep.
// The same handler is served by `schedlab serve` and by go test through
// httptest (as an http.Handler), and on Cloudflare Workers (wasm/edge,
// through Handler.Answer), so it draws no plots: the gonum/plot code is
// left out when built with the noplot tag. Built with the nohttp tag as
// well, the package leaves out its net/http side (ServeHTTP and
// RunRemote): the Workers bundle then links no net/http, which alone
// would add about 0.6 MB to its gzipped size (see docs/development.md's
// size budgets). Any WebAssembly build (js) leaves that side out too:
// under node Go's net package has only an in-process stand-in for the
// network (net/http's client uses the Fetch API only in browsers, and
// schedlab's page does not import this package), and net/http with its
// TLS was a third of the command line's module, compiled and
// initialised at every start.
//
//	GET  /v1/health        {"status":"ok","api":"v1","limits":{…},"load":{…}}
//	GET  /v1/scenarios     the built-in scenarios
//	GET  /v1/policies      the registered policies and their parameters
//	POST /v1/validate      {"scenario": …} → {"valid":…, "problems":[{"path","message"}]}
//	POST /v1/run           {"scenario": …, "seed"?, "policy"?, "quick"?} → what `schedlab run --format json` prints
//	POST /v1/sweep-point   {"scenario": …, "x"?, "seed", "quick"?} → that point's values and runs
//
// A scenario is a JSON object (the document) or a string (a built-in
// scenario's name). Errors are JSON too: {"error": "...", "field"?: "...",
// "problems"?: [...]}, with 400 for malformed input, 404 for an unknown
// path, 405 for a wrong method, 408 for a body that arrives too slowly,
// 413 for a body over the size limit, 415 for a POST that is not sent as
// application/json, 422 for a scenario over the API's limits on GPUs,
// jobs, runs, simulated time or answer size, and 503 when the server is
// busy (with Retry-After) or a request ran past its time limit.
//
// Every POST is admitted before its body is read: at most MaxRunning
// requests work at once and MaxQueued more wait; the request's time
// limit counts from its arrival, waiting included.
package api

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
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
	// MaxAnswerBytes bounds an answer: a run's per-job records are about
	// 450 bytes a job, so 100,000 jobs × 10 policies would be 441 MB,
	// built in memory before a byte is sent. Above it 422, before the
	// run when the jobs and policies make it certain, after it otherwise.
	MaxAnswerBytes int64
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
	// One policy on 100,000 jobs (45 MB) fits.
	MaxAnswerBytes: 64 << 20,
}

// Options configure the handler.
type Options struct {
	Limits  Limits        // zero fields take DefaultLimits' values
	Workers int           // runs of one request in parallel (0: one at a time)
	Timeout time.Duration // wall-clock limit per request, from its arrival; 0: none
	// MaxRunning is how many requests do work at once (0: one per CPU);
	// MaxQueued how many more may wait for a turn (0: DefaultMaxQueued,
	// negative: none). A request beyond both gets 503 with Retry-After.
	MaxRunning, MaxQueued int
	// BodyTimeout bounds the time a client may take to send a request's
	// body (0: DefaultBodyTimeout); slower, it gets 408. It needs a
	// transport that sets read deadlines (Request.SetReadDeadline, which
	// ServeHTTP sets; on Workers the runtime reads the body first).
	BodyTimeout time.Duration
	// AllowOrigins are the web origins (such as "https://example.org", or
	// "*" for any) whose pages may POST to the API from a browser. By
	// default none may: the API answers the browser's preflight without
	// permission, so a page elsewhere cannot start runs on a developer's
	// server. GET answers are open to any origin.
	AllowOrigins []string
}

// DefaultMaxQueued is how many requests may wait for a turn by default.
const DefaultMaxQueued = 64

// DefaultBodyTimeout is how long a client may take to send a body by
// default: 8 MiB at 300 KB/s.
const DefaultBodyTimeout = 30 * time.Second

// Handler is the API.
type Handler struct {
	o      Options
	routes map[string]route
	admit  *admission
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
	if o.MaxRunning <= 0 {
		o.MaxRunning = runtime.NumCPU()
	}
	switch {
	case o.MaxQueued == 0:
		o.MaxQueued = DefaultMaxQueued
	case o.MaxQueued < 0:
		o.MaxQueued = 0
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	h := &Handler{o: o, admit: newAdmission(o.MaxRunning, o.MaxQueued)}
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
	if l.MaxAnswerBytes > 0 {
		d.MaxAnswerBytes = l.MaxAnswerBytes
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

	ContentType string // the Content-Type header
	Origin      string // the Origin header: the web page's origin, when a browser sends it

	// SetReadDeadline, when the transport has it, bounds the time left
	// to read Body (a zero time lifts the bound); nil when the body is in
	// memory already.
	SetReadDeadline func(time.Time) error
}

// Response is the API's answer: a status, the headers to send and a
// body, JSON but for a 204.
type Response struct {
	Status int
	Header [][2]string // name, value
	Body   []byte
	// Close asks the transport to close the connection after the answer:
	// the rest of a refused body is not read.
	Close bool
}

// Answer answers one request. A panic anywhere below becomes a 500 with
// a message rather than a dropped connection (on Workers, a dead
// instance).
func (h *Handler) Answer(ctx context.Context, r Request) (resp Response) {
	defer func() {
		if v := recover(); v != nil {
			resp = errorResponse(&Error{Status: statusInternalServerError, Msg: fmt.Sprintf("internal error: %v", v), stack: string(debug.Stack())})
		}
		resp = h.withCORS(resp, r)
	}()
	if r.Method == methodOptions {
		return h.preflight(r.Origin)
	}
	rt, ok := h.routes[r.Path]
	switch {
	case !ok:
		return errorResponse(&Error{Status: statusNotFound, Msg: fmt.Sprintf("no such endpoint %s; the API has /v1/health, /v1/scenarios, /v1/policies, /v1/validate, /v1/run and /v1/sweep-point", cut(r.Path))})
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
	statusRequestTimeout        = 408
	statusRequestEntityTooLarge = 413
	statusUnsupportedMediaType  = 415
	statusUnprocessableEntity   = 422
	statusInternalServerError   = 500
	statusServiceUnavailable    = 503

	methodGet     = "GET"
	methodHead    = "HEAD"
	methodPost    = "POST"
	methodOptions = "OPTIONS"
)

// preflight answers a browser asking whether a page of origin may POST:
// yes only for the origins in Options.AllowOrigins. GET needs no
// preflight, and its answers are open to every origin.
func (h *Handler) preflight(origin string) Response {
	resp := Response{Status: statusNoContent, Header: [][2]string{{"Vary", "Origin"}}}
	if h.allowed(origin) {
		resp.Header = append(resp.Header,
			[2]string{"Access-Control-Allow-Methods", "GET, POST, OPTIONS"},
			[2]string{"Access-Control-Allow-Headers", "Content-Type"},
			[2]string{"Access-Control-Max-Age", "600"})
	}
	return resp
}

func (h *Handler) allowed(origin string) bool {
	return origin != "" && (slices.Contains(h.o.AllowOrigins, origin) || slices.Contains(h.o.AllowOrigins, "*"))
}

// withCORS tells browsers which pages may read the answer: a GET's, any
// page; a POST's (and a preflight's), the pages of the origins allowed.
func (h *Handler) withCORS(resp Response, r Request) Response {
	allow := "*"
	if r.Method == methodPost || r.Method == methodOptions {
		if !h.allowed(r.Origin) {
			return resp
		}
		allow = r.Origin
		if r.Method == methodPost {
			resp.Header = append(resp.Header, [2]string{"Vary", "Origin"})
		}
	}
	resp.Header = append([][2]string{{"Access-Control-Allow-Origin", allow}}, resp.Header...)
	return resp
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

func errorResponse(e *Error) Response {
	return jsonResponse(e.Status, e)
}

// quote quotes a value of the request for a message, cut to 80
// characters: a 50 MB field is not worth echoing.
func quote(s string) string {
	const most = 80
	n := 0
	for i := range s {
		if n == most {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(s)
}

// jsonResponse is v indented as the CLI prints it.
func jsonResponse(status int, v any) Response {
	data, err := MarshalJSON(v)
	if err != nil {
		status = statusInternalServerError
		data, _ = MarshalJSON(&Error{Msg: "encoding the answer: " + err.Error()})
	}
	return Response{Status: status, Header: [][2]string{{"Content-Type", "application/json; charset=utf-8"}}, Body: data}
}

func (h *Handler) get(f getFunc, r Request) Response {
	if r.Method != methodGet && r.Method != methodHead {
		resp := errorResponse(&Error{Status: statusMethodNotAllowed, Msg: r.Path + " takes GET, not " + cut(r.Method)})
		resp.Header = append(resp.Header, [2]string{"Allow", "GET"})
		return resp
	}
	v, e := f()
	if e != nil {
		return errorResponse(e)
	}
	return jsonResponse(statusOK, v)
}

// post runs f on a POST's body: a JSON body only, admitted (or refused
// at once when the server is full), read within the body time limit,
// worked on in its turn, within the request's time limit from arrival.
func (h *Handler) post(ctx context.Context, f postFunc, r Request) Response {
	if r.Method != methodPost {
		resp := errorResponse(&Error{Status: statusMethodNotAllowed, Msg: r.Path + " takes POST with a JSON body, not " + cut(r.Method)})
		resp.Header = append(resp.Header, [2]string{"Allow", "POST"})
		return resp
	}
	if e := jsonContent(r.ContentType); e != nil {
		return errorResponse(e)
	}
	if !h.admit.enter() {
		return h.busy("the server is busy: it works on at most %d request(s) at once with %d more waiting, and all are taken", h.o.MaxRunning, h.o.MaxQueued)
	}
	defer h.admit.leave()
	if h.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
		defer cancel()
	}
	body, e := h.readBody(r)
	if e != nil {
		resp := errorResponse(e)
		// The rest of the body is not read: net/http would otherwise
		// wait for it before sending the answer.
		resp.Close = true
		return resp
	}
	if err := h.admit.wait(ctx); err != nil {
		return h.stopped(ctx, "while it waited for its turn")
	}
	start := time.Now()
	v, e := func() (any, *Error) {
		defer func() { h.admit.done(time.Since(start)) }() // a panic too gives the turn back
		return f(ctx, body)
	}()
	if e != nil {
		return errorResponse(e)
	}
	return h.answer(v)
}

// jsonContent refuses a POST not sent as application/json. A browser
// sends a page's cross-origin POST without asking first only when its
// type is a form's or plain text, so this keeps pages elsewhere from
// starting runs on the server.
func jsonContent(ct string) *Error {
	if mt, _, _ := strings.Cut(ct, ";"); strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		return nil
	}
	got := "no Content-Type"
	if ct != "" {
		got = "Content-Type " + quote(ct)
	}
	return &Error{Status: statusUnsupportedMediaType, Msg: "send the body as JSON with the header Content-Type: application/json (the request has " + got + ")"}
}

// busy refuses a request for now with 503 and when to try again.
func (h *Handler) busy(format string, a ...any) Response {
	after := h.admit.retryAfter()
	resp := errorResponse(&Error{Status: statusServiceUnavailable, Msg: fmt.Sprintf(format, a...) + fmt.Sprintf("; try again in %d s", after)})
	resp.Header = append(resp.Header, [2]string{"Retry-After", strconv.Itoa(after)})
	return resp
}

// stopped answers a request whose time ran out or whose client left.
func (h *Handler) stopped(ctx context.Context, when string) Response {
	if ctx.Err() == context.DeadlineExceeded {
		return h.busy("the request reached this server's time limit of %s %s and was stopped", h.o.Timeout, when)
	}
	return errorResponse(&Error{Status: statusServiceUnavailable, Msg: "the request was cancelled " + when + " (the client closed the connection)"})
}
