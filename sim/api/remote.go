//go:build !nohttp

package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// RemoteOptions say how RunRemote spreads a study over API servers.
type RemoteOptions struct {
	URLs     []string      // base URLs of API servers, e.g. http://127.0.0.1:8787
	Parallel int           // points in flight at once (default: one per URL)
	Retries  int           // further tries of a point after a failure (default 3)
	Timeout  time.Duration // per request (default 10 minutes)
	Client   *http.Client  // default: a plain client
	// WholePoints sends every policy of a point in one request; by
	// default each policy goes alone when the study allows it
	// (experiment.SplitsByPolicy): smaller requests, within a Worker's
	// CPU and memory limits, and more of them to spread.
	WholePoints bool
	// Progress, if set, is called after each point with the count done.
	Progress func(done, total int)
}

// RunRemote runs every sweep point and seed of the study sc (in its full
// or quick version) as POST /v1/sweep-point requests spread over the
// servers, and assembles them into the study and its output. The output
// is byte for byte what RunStudy's gives for the same seeds: each point
// runs the same code on the same inputs, and the checks and series are
// computed here from the points' values by experiment.AssembleStudy, as
// the page does with its workers.
func RunRemote(ctx context.Context, sc *scenario.Scenario, quick bool, o RemoteOptions) (*experiment.Study, experiment.StudyOutput, error) {
	if len(o.URLs) == 0 {
		return nil, experiment.StudyOutput{}, errors.New("--remote: give at least one server URL")
	}
	form, err := StudyForm(sc, quick)
	if err != nil {
		return nil, experiment.StudyOutput{}, err
	}
	seeds, xs := PlanPoints(form)
	type task struct {
		x      *float64
		seed   uint64
		policy *int
	}
	policies := []*int{nil}
	if !o.WholePoints && experiment.SplitsByPolicy(form) {
		policies = policies[:0]
		for i := range form.Policies {
			policies = append(policies, &i)
		}
	}
	// In RunStudy's order of runs: points, then seeds, then policies.
	var tasks []task
	for _, x := range xs {
		for _, seed := range seeds {
			for _, pol := range policies {
				t := task{seed: seed, policy: pol}
				if !isNaN(x) {
					x := x
					t.x = &x
				}
				tasks = append(tasks, t)
			}
		}
	}
	answers := make([]*PointResponse, len(tasks))
	errs := make([]error, len(tasks))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := newRemoteClient(o)
	sem := make(chan struct{}, max(o.Parallel, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for k, t := range tasks {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			req := PointRequest{Scenario: sc.Document(), X: t.x, Seed: t.seed, Quick: quick, Policy: t.policy}
			answers[k], errs[k] = c.point(ctx, k, req)
			if errs[k] != nil {
				cancel() // one point failing for good fails the study
			}
			mu.Lock()
			done++
			if o.Progress != nil {
				o.Progress(done, len(tasks))
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return nil, experiment.StudyOutput{}, fmt.Errorf("point %s seed %d%s: %w", xLabel(tasks[k].x), tasks[k].seed, policyLabel(form, tasks[k].policy), err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, experiment.StudyOutput{}, err
	}
	parts := make([]*results.StudyValues, len(tasks))
	var runs []experiment.StudyRunOutput
	for k, a := range answers {
		parts[k] = a.Values
		runs = append(runs, a.Runs...)
	}
	st := experiment.AssembleStudy(form, parts)
	st.Quick = quick && sc.Quick != nil
	out := st.Output()
	out.Runs = runs
	return st, out, nil
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
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Minute
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

// point sends one point, starting at server k mod n and moving to the
// next server on each retry, with a growing pause between tries.
func (c *remoteClient) point(ctx context.Context, k int, req PointRequest) (*PointResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var last error
	for try := 0; try <= c.o.Retries; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(try*try) * 200 * time.Millisecond):
			}
		}
		url := strings.TrimRight(c.o.URLs[(k+try)%len(c.o.URLs)], "/") + "/v1/sweep-point"
		resp, err := c.send(ctx, url, body)
		if err == nil {
			return resp, nil
		}
		var p permanent
		if errors.As(err, &p) {
			return nil, p.err
		}
		last = fmt.Errorf("%s: %w", url, err)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return nil, fmt.Errorf("after %d tries: %w", c.o.Retries+1, last)
}

func (c *remoteClient) send(ctx context.Context, url string, body []byte) (*PointResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, permanent{err}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var e Error
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Msg != "" {
			msg = e.Error()
		}
		err := fmt.Errorf("%s: %s", resp.Status, msg)
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusRequestTimeout {
			return nil, permanent{fmt.Errorf("%s: %w", url, err)}
		}
		return nil, err
	}
	var out PointResponse
	if err := json.Unmarshal(data, &out); err != nil || out.Values == nil {
		return nil, fmt.Errorf("not a sweep-point answer: %v", err)
	}
	return &out, nil
}
