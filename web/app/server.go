package app

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/results"
)

// A figure's full re-run may run its simulations on a schedlab server
// (`schedlab serve`, or the API on Workers) instead of this browser's
// engine workers: each sweep point and seed is one POST /v1/sweep-point,
// the same request `schedlab reproduce --remote` sends. The server runs
// the same engine, so its values are byte for byte what a worker here
// would compute; the page still evaluates the checks and compares the
// run with the record on one local worker.

// FetchReply is a server's answer to Platform.Fetch: the HTTP status and
// body, the Retry-After header, or Err when no answer came (the server is
// down, or the browser refused the answer).
type FetchReply struct {
	Status     int
	RetryAfter string
	Body       []byte
	Err        error
}

// Server run settings.
const (
	// KeyServer holds the last server address a figure ran on.
	KeyServer = "schedlab.server.v1"
	// serverParallel is how many points are asked of the server at once:
	// a `schedlab serve` runs two at a time by default and queues the
	// rest, so four keeps it busy without a long queue.
	serverParallel = 4
	// serverRetryFor is how long a point keeps being asked after answers
	// that another try may mend (no answer, 408, 429, 5xx).
	serverRetryFor = 2 * time.Minute
)

// ServerURL is the address typed for a server run (kept in storage).
func (a *App) ServerURL() string {
	if a.server == "" {
		a.server, _ = a.P.Load(KeyServer)
	}
	return a.server
}

// SetServerURL keeps the address typed for a server run.
func (a *App) SetServerURL(s string) {
	a.server = strings.TrimSpace(s)
	_ = a.P.Save(KeyServer, a.server)
}

// serverBase checks a server address and returns it without a trailing
// slash, or a sentence that says what is wrong with it.
func serverBase(s string) (string, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if s == "" {
		return "", fmt.Errorf("type the address of a schedlab server first, such as http://127.0.0.1:8080")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not a web address: it should start with http:// or https:// and name a computer, such as http://127.0.0.1:8080", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q has a query or a # part; give only the server's address, such as http://127.0.0.1:8080", s)
	}
	return s, nil
}

// RerunOnServer runs the open figure's full set-up with its simulations
// on the server whose address ServerURL holds. It first asks the server
// for its health, so that a wrong address fails at once with a clear
// message.
func (a *App) RerunOnServer() {
	base, err := serverBase(a.ServerURL())
	if err != nil {
		a.setNotice("The server run could not start: "+err.Error()+".", true)
		return
	}
	if a.Fig == nil || !a.HasFullMode() {
		a.setNotice("Only a paper figure's full set-up runs on a server; open one from the Gallery.", true)
		return
	}
	a.Tab = TabFigure
	a.CancelFigure()
	a.Fig.Err = "" // the last run's failure, if any, is not this one's
	a.ServerCheck = "Asking " + base + " whether it is a schedlab server…"
	a.P.Fetch("GET", base+"/v1/health", nil, func(r FetchReply) {
		if msg := healthProblem(base, a.P.Location(), r); msg != "" {
			a.ServerCheck = ""
			a.setNotice(msg, true)
			return
		}
		a.ServerCheck = ""
		a.startServerRun(base)
	})
}

// healthProblem says why a GET /v1/health reply does not come from a
// schedlab server able to run points, or "" when it does.
func healthProblem(base, page string, r FetchReply) string {
	if r.Err != nil {
		return fmt.Sprintf("No server answered at %s (%v). Start one with `schedlab serve --addr 127.0.0.1:8080 --allow-origin %s` and check the address: this page reaches servers on https://, and on http:// only on this computer (localhost or 127.0.0.1).", base, r.Err, origin(page))
	}
	var h struct {
		Status string `json:"status"`
		API    string `json:"api"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &h) != nil || h.API != "v1" {
		return fmt.Sprintf("%s answered, but not as a schedlab server does (HTTP %d). Check the address: it is the one `schedlab serve` prints.", base, r.Status)
	}
	return ""
}

// origin is the scheme and host of a page address, as a server's
// --allow-origin wants it.
func origin(page string) string {
	u, err := url.Parse(page)
	if err != nil || u.Host == "" {
		return "*"
	}
	return u.Scheme + "://" + u.Host
}

// startServerRun starts the full re-run with its units on the server at
// base, and one local worker for the checks.
func (a *App) startServerRun(base string) {
	doc, sc, ok := a.figureDocument(ModeFull)
	if !ok {
		return
	}
	f := &FigureRun{Name: sc.Name, Doc: doc, State: RunRunning, Started: a.P.Now(), Mode: ModeFull, sc: sc, Server: base, editorDoc: a.Ed.JSON()}
	f.Units = figureUnits(sc)
	f.Workers = min(serverParallel, len(f.Units))
	a.Fig = f
	a.Pick = FigurePick{Policy: -1}
	a.dropResults()
	a.pool.ensure(1)
	a.sendToServer(f)
}

// pointRequest is the body of POST /v1/sweep-point.
type pointRequest struct {
	Scenario json.RawMessage `json:"scenario"`
	X        *float64        `json:"x,omitempty"`
	Seed     uint64          `json:"seed"`
	Policy   *int            `json:"policy,omitempty"`
}

// sendToServer asks the server for queued units until serverParallel are
// in flight.
func (a *App) sendToServer(f *FigureRun) {
	for _, u := range f.Units {
		if f.State != RunRunning || f.inFlight >= serverParallel {
			return
		}
		if u.State == PartQueued && !u.waiting {
			a.askServer(f, u)
		}
	}
}

// askServer sends one unit to the server.
func (a *App) askServer(f *FigureRun, u *FigureUnit) {
	req := pointRequest{Scenario: json.RawMessage(f.Doc), Seed: u.Seed}
	if !math.IsNaN(u.X) {
		x := u.X
		req.X = &x
	}
	if u.Policy >= 0 {
		p := u.Policy
		req.Policy = &p
	}
	body, err := json.Marshal(req)
	if err != nil {
		a.failFigure(f, "writing a request for the server: "+err.Error())
		return
	}
	u.State, u.worker = PartRunning, -1
	if u.started.IsZero() {
		u.started = a.P.Now()
	}
	f.inFlight++
	a.P.Fetch("POST", f.Server+"/v1/sweep-point", body, func(r FetchReply) {
		f.inFlight--
		a.onServerReply(f, u, r)
	})
}

// onServerReply takes the server's answer for a unit: its values, a
// failure to try again later, or an error that ends the run.
func (a *App) onServerReply(f *FigureRun, u *FigureUnit, r FetchReply) {
	if f.State != RunRunning || u.State != PartRunning {
		return
	}
	if r.Err == nil && r.Status == 200 {
		var ans struct {
			Values *results.StudyValues `json:"values"`
		}
		if err := json.Unmarshal(r.Body, &ans); err != nil || ans.Values == nil {
			a.failFigure(f, fmt.Sprintf("the server's answer for %s could not be read", unitLabel(f, u)))
			return
		}
		u.State, u.ended = PartDone, a.P.Now()
		f.answered++
		f.Parts = append(f.Parts, *ans.Values)
		f.again = true
		a.pool.dispatch()
		a.sendToServer(f)
		return
	}
	if r.Err != nil && f.answered == 0 {
		// The server answered its health check, so a request that gets
		// no answer at all before any point came back is, in a browser,
		// the server not allowing this page's origin to POST.
		a.failFigure(f, fmt.Sprintf("the server at %s answers, but not this page's runs (%v). A server at another address than the page must allow it: start it with `%s`", f.Server, r.Err, a.ServeCommand()))
		return
	}
	if retryable(r) {
		if u.firstFail.IsZero() {
			u.firstFail = a.P.Now()
		}
		if a.P.Now().Sub(u.firstFail) < serverRetryFor {
			u.State, u.waiting = PartQueued, true
			u.tries++
			a.P.After(retryPause(r, u.tries), func() {
				u.waiting = false
				a.sendToServer(f)
			})
			a.sendToServer(f)
			return
		}
		a.failFigure(f, fmt.Sprintf("the server at %s stopped answering: %s was tried for %s (%s)", f.Server, unitLabel(f, u), secs(serverRetryFor.Seconds()), replyWords(r)))
		return
	}
	a.failFigure(f, fmt.Sprintf("the server refused %s: %s", unitLabel(f, u), replyWords(r)))
}

// retryable reports whether another try may mend a failed request.
func retryable(r FetchReply) bool {
	return r.Err != nil || r.Status == 408 || r.Status == 429 || r.Status >= 500
}

// retryPause is the wait before a unit's next try: the server's
// Retry-After when it gives one, else half a second doubling to 5 s.
func retryPause(r FetchReply, tries int) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(r.RetryAfter)); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, 30*time.Second)
	}
	return min(500*time.Millisecond<<min(tries-1, 4), 5*time.Second)
}

// replyWords describes a failed reply: the server's own error sentence
// when it sent one.
func replyWords(r FetchReply) string {
	if r.Err != nil {
		return "no answer: " + r.Err.Error()
	}
	var e struct {
		Error string `json:"error"`
		Field string `json:"field"`
	}
	if json.Unmarshal(r.Body, &e) == nil && e.Error != "" {
		if e.Field != "" {
			return fmt.Sprintf("HTTP %d, %s: %s", r.Status, e.Field, e.Error)
		}
		return fmt.Sprintf("HTTP %d, %s", r.Status, e.Error)
	}
	return fmt.Sprintf("HTTP %d", r.Status)
}

// unitLabel names a unit for a message: its sweep value and seed.
func unitLabel(f *FigureRun, u *FigureUnit) string {
	s := "seed " + strconv.FormatUint(u.Seed, 10)
	if u.Policy >= 0 && f.sc != nil {
		s += " of " + f.sc.PolicyLabel(u.Policy)
	}
	if !math.IsNaN(u.X) && f.sc != nil && f.sc.Sweep != nil {
		s = fmt.Sprintf("the point at %s %s, %s", f.sc.Sweep.Label, strconv.FormatFloat(u.X, 'g', -1, 64), s)
	}
	return s
}

// ServeCommand is the command that starts a schedlab server this page
// may send its runs to.
func (a *App) ServeCommand() string {
	return "schedlab serve --addr 127.0.0.1:8080 --allow-origin " + origin(a.P.Location())
}
