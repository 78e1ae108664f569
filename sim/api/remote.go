//go:build !nohttp && !js

package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// RemoteOptions say how RunRemote spreads a study over API servers.
type RemoteOptions struct {
	URLs     []string // base URLs of API servers, e.g. http://127.0.0.1:8787
	Parallel int      // points in flight at once (default: one per URL)
	// RetryFor is how long a point keeps being tried after a failure that
	// another try may mend (no answer, 5xx, 408, 429), moving to the next
	// server each time, with pauses growing to 5 s (or the server's
	// Retry-After); default DefaultRetryFor, long enough for a server
	// to be restarted.
	RetryFor time.Duration
	// Timeout bounds one request (default DefaultRequestTimeout): a server
	// that takes longer, because it hangs, loses the point to the next.
	Timeout time.Duration
	Client  *http.Client // default: a plain client
	// WholePoints sends every policy of a point in one request; by
	// default each policy goes alone when the study allows it
	// (experiment.SplitsByPolicy): smaller requests, within a Worker's
	// CPU and memory limits, and more of them to spread.
	WholePoints bool
	// Progress, if set, is called after each point with the count done.
	Progress func(done, total int)
	// Done are answers from an earlier run of the same study that
	// stopped (RemoteFailure.Done): they are not asked again.
	Done *RemotePoints
}

// RemotePoints are the answered points of a study run remotely, kept so
// that a run that stopped can be resumed: the answers as the servers sent
// them, by the point's place in the plan, and a key that says which
// study, version and split they belong to.
type RemotePoints struct {
	Key     string         `json:"key"`
	Study   string         `json:"study"`
	Total   int            `json:"points"`
	Answers []RemoteAnswer `json:"answers"`
}

// RemoteAnswer is one point's answer.
type RemoteAnswer struct {
	Task   int             `json:"task"`
	X      *float64        `json:"x,omitempty"`
	Seed   uint64          `json:"seed"`
	Policy *int            `json:"policy,omitempty"`
	Answer json.RawMessage `json:"answer"`
}

// RemoteFailure is a remote study that stopped: why, and the points
// answered before it did.
type RemoteFailure struct {
	Err  error
	Done *RemotePoints
}

func (f *RemoteFailure) Error() string { return f.Err.Error() }
func (f *RemoteFailure) Unwrap() error { return f.Err }

// remoteTask is one request of the plan.
type remoteTask struct {
	x      *float64
	seed   uint64
	policy *int
}

// remotePlan lists a study's requests in RunStudy's order of runs: points,
// then seeds, then policies.
func remotePlan(form *scenario.Scenario, whole bool) []remoteTask {
	seeds, xs := PlanPoints(form)
	policies := []*int{nil}
	if !whole && experiment.SplitsByPolicy(form) {
		policies = policies[:0]
		for i := range form.Policies {
			policies = append(policies, &i)
		}
	}
	var tasks []remoteTask
	for _, x := range xs {
		for _, seed := range seeds {
			for _, pol := range policies {
				t := remoteTask{seed: seed, policy: pol}
				if !isNaN(x) {
					x := x
					t.x = &x
				}
				tasks = append(tasks, t)
			}
		}
	}
	return tasks
}

// planKey identifies a study's plan: its document, version and split.
func planKey(sc *scenario.Scenario, quick, whole bool, n int) string {
	h := sha256.New()
	h.Write(sc.Document())
	fmt.Fprintf(h, "\x00quick=%v whole=%v tasks=%d", quick, whole, n)
	return hex.EncodeToString(h.Sum(nil))
}

// RunRemote runs every sweep point and seed of the study sc (in its full
// or quick version) as POST /v1/sweep-point requests spread over the
// servers, and assembles them into the study and its output. The output
// is byte for byte what RunStudy's gives for the same seeds: each point
// runs the same code on the same inputs, and the checks and series are
// computed here from the points' values by experiment.AssembleStudy, as
// the page does with its workers. When a point fails for good, the study
// stops with a *RemoteFailure that holds the points answered so far;
// given back as RemoteOptions.Done, they are not asked again, and the
// output is the same as an uninterrupted run's.
func RunRemote(ctx context.Context, sc *scenario.Scenario, quick bool, o RemoteOptions) (*experiment.Study, experiment.StudyOutput, error) {
	if len(o.URLs) == 0 {
		return nil, experiment.StudyOutput{}, errors.New("--remote: give at least one server URL")
	}
	form, err := StudyForm(sc, quick)
	if err != nil {
		return nil, experiment.StudyOutput{}, err
	}
	tasks := remotePlan(form, o.WholePoints)
	key := planKey(sc, quick, o.WholePoints, len(tasks))
	answers := make([][]byte, len(tasks))
	if o.Done != nil {
		if o.Done.Key != key {
			return nil, experiment.StudyOutput{}, fmt.Errorf("the saved points are of another study, version or split (study %s, %d points; this run has %s, %d points)", o.Done.Study, o.Done.Total, sc.Name, len(tasks))
		}
		for _, a := range o.Done.Answers {
			if a.Task >= 0 && a.Task < len(tasks) {
				answers[a.Task] = a.Answer
			}
		}
	}
	c := newRemoteClient(o)
	r := &remoteRun{c: c, sc: sc, quick: quick, tasks: tasks, answers: answers, progress: o.Progress}
	if err := r.run(ctx, max(o.Parallel, 1)); err != nil {
		return nil, experiment.StudyOutput{}, &RemoteFailure{Err: err, Done: r.saved(key, sc.Name)}
	}
	parts := make([]*results.StudyValues, len(tasks))
	var runs []experiment.StudyRunOutput
	for k, data := range answers {
		a, err := decodePoint(data)
		if err != nil {
			return nil, experiment.StudyOutput{}, fmt.Errorf("%s: %w", r.label(k), err)
		}
		parts[k] = a.Values
		runs = append(runs, a.Runs...)
	}
	st := experiment.AssembleStudy(form, parts)
	st.Quick = quick && sc.Quick != nil
	out := st.Output()
	out.Runs = runs
	return st, out, nil
}

// remoteRun is one RunRemote: its plan and the answers so far.
type remoteRun struct {
	c        *remoteClient
	sc       *scenario.Scenario
	quick    bool
	tasks    []remoteTask
	answers  [][]byte // nil: not answered yet
	progress func(done, total int)

	mu    sync.Mutex
	done  int
	cause error // the first point that failed for good
}

// run sends the points not yet answered, parallel at a time. The first
// point that fails for good stops the rest; its error is the one
// returned, not the cancellation the others see.
func (r *remoteRun) run(parent context.Context, parallel int) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	for _, a := range r.answers {
		if a != nil {
			r.done++
		}
	}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for k, t := range r.tasks {
		if r.answers[k] != nil {
			continue
		}
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			req := PointRequest{Scenario: r.sc.Document(), X: t.x, Seed: t.seed, Quick: r.quick, Policy: t.policy}
			data, err := r.c.point(ctx, k, req)
			r.mu.Lock()
			defer r.mu.Unlock()
			if err != nil {
				if r.cause == nil && ctx.Err() == nil {
					r.cause = fmt.Errorf("%s: %w", r.label(k), err)
					cancel() // one point failing for good stops the study
				}
				return
			}
			r.answers[k] = data
			r.done++
			if r.progress != nil {
				r.progress(r.done, len(r.tasks))
			}
		})
	}
	wg.Wait()
	if r.cause != nil {
		return r.cause
	}
	if parent.Err() != nil {
		return fmt.Errorf("interrupted with %d of %d points done", r.done, len(r.tasks))
	}
	return nil
}

func (r *remoteRun) label(k int) string {
	t := r.tasks[k]
	form, _ := StudyForm(r.sc, r.quick)
	return fmt.Sprintf("point %s seed %d%s", xLabel(t.x), t.seed, policyLabel(form, t.policy))
}

// saved are the answers so far, to resume from.
func (r *remoteRun) saved(key, name string) *RemotePoints {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := &RemotePoints{Key: key, Study: name, Total: len(r.tasks), Answers: []RemoteAnswer{}}
	for k, a := range r.answers {
		if a != nil {
			t := r.tasks[k]
			p.Answers = append(p.Answers, RemoteAnswer{Task: k, X: t.x, Seed: t.seed, Policy: t.policy, Answer: a})
		}
	}
	return p
}

func xLabel(x *float64) string {
	if x == nil {
		return "(no sweep)"
	}
	return fmt.Sprintf("x=%g", *x)
}

func policyLabel(sc *scenario.Scenario, i *int) string {
	if i == nil {
		return ""
	}
	return " policy " + sc.PolicyLabel(*i)
}

type remoteClient struct {
	o      RemoteOptions
	client *http.Client
}

func newRemoteClient(o RemoteOptions) *remoteClient {
	if o.RetryFor <= 0 {
		o.RetryFor = DefaultRetryFor
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultRequestTimeout
	}
	c := o.Client
	if c == nil {
		c = &http.Client{}
	}
	return &remoteClient{o: o, client: c}
}

// permanent is an answer that another try would not change (a 4xx).
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }

// retryable is a failure another try may mend, with the pause the server
// asked for (Retry-After), if any.
type retryable struct {
	err   error
	after time.Duration
}

func (r retryable) Error() string { return r.err.Error() }

// point sends one point, starting at server k mod n and moving to the
// next server on each retry, with a growing pause between tries, for as
// long as RetryFor allows. It returns the answer's bytes.
func (c *remoteClient) point(ctx context.Context, k int, req PointRequest) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	// The budget counts from the first failure: a point that worked for
	// longer than the budget before its server went away still gets it.
	var giveUp time.Time
	pause := 200 * time.Millisecond
	for try := 0; ; try++ {
		url := strings.TrimRight(c.o.URLs[(k+try)%len(c.o.URLs)], "/") + "/v1/sweep-point"
		data, err := c.send(ctx, url, body)
		if err == nil {
			return data, nil
		}
		var p permanent
		if errors.As(err, &p) {
			return nil, p.err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		wait := pause
		var r retryable
		if errors.As(err, &r) && r.after > wait {
			wait = r.after
		}
		if giveUp.IsZero() {
			giveUp = time.Now().Add(c.o.RetryFor)
		}
		if time.Now().Add(wait).After(giveUp) {
			tries := fmt.Sprintf("%d tries", try+1)
			if try == 0 {
				tries = "1 try"
			}
			return nil, fmt.Errorf("gave up after %s, retrying for up to %s from the first failure (the retry budget): %w", tries, c.o.RetryFor, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// send sends one request and returns the answer's bytes once they are
// checked to be a sweep point's answer.
func (c *remoteClient) send(ctx context.Context, url string, body []byte) ([]byte, error) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, permanent{err}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, retryable{err: netProblem(ctx, url, err, c.o.Timeout)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, retryable{err: netProblem(ctx, url, err, c.o.Timeout)}
	}
	if resp.StatusCode != http.StatusOK {
		var e Error
		msg := strings.TrimSpace(string(data))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		if json.Unmarshal(data, &e) == nil && e.Msg != "" {
			msg = e.Error()
		}
		err := fmt.Errorf("%s answered %s: %s", url, resp.Status, msg)
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusRequestTimeout {
			return nil, permanent{err}
		}
		after, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return nil, retryable{err: err, after: time.Duration(after) * time.Second}
	}
	if _, err := decodePoint(data); err != nil {
		return nil, retryable{err: fmt.Errorf("%s: %w", url, err)}
	}
	return data, nil
}

func decodePoint(data []byte) (*PointResponse, error) {
	var out PointResponse
	if err := json.Unmarshal(data, &out); err != nil || out.Values == nil {
		return nil, errors.New("the answer is not a sweep point's answer")
	}
	return &out, nil
}

// netProblem says in plain words why a request got no answer.
func netProblem(ctx context.Context, url string, err error, timeout time.Duration) error {
	var ne net.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Errorf("%s gave no answer within %s (the request timeout)", url, timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s (connection refused)", url)
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s closed the connection before answering", url)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("%s: no such host %s", url, dns.Name)
	}
	return fmt.Errorf("%s: %v", url, err)
}
