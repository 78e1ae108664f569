//go:build !js && !nohttp

package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/api/apitest"
	_ "github.com/schedlab/schedlab/sim/policy/all"
)

// TestAPI runs the suite against the handler behind httptest, which lets
// pages of any origin POST, as the Workers build does.
func TestAPI(t *testing.T) {
	srv := httptest.NewServer(api.New(api.Options{Limits: api.Limits{MaxBodyBytes: 1 << 20, MaxGPUs: 4096, MaxSimTimeS: 1e9}, AllowOrigins: []string{"*"}}))
	defer srv.Close()
	apitest.Run(t, srv.URL)
}

// TestRemoteMatchesLocal runs studies through two servers and compares
// them with local runs byte for byte: a sweep without checks, a paper
// figure with checks in quick mode, and a study without a sweep.
func TestRemoteMatchesLocal(t *testing.T) {
	var urls []string
	for range 2 {
		srv := httptest.NewServer(api.New(api.Options{}))
		defer srv.Close()
		urls = append(urls, srv.URL)
	}
	for _, c := range []struct {
		name  string
		quick bool
	}{{"load-sweep", false}, {"sjf-bsbf-fig6a", true}, {"sjf-bsbf-table2", true}} {
		t.Run(c.name, func(t *testing.T) { apitest.RemoteMatchesLocal(t, urls, c.name, c.quick, 3) })
		t.Run(c.name+"/whole", func(t *testing.T) { apitest.RemoteWholeMatchesLocal(t, urls, c.name, c.quick, 3) })
	}
}

// TestRemoteRetries: a server whose first answer is a 503 and a
// dead address slow nothing down but retries, and the result is the
// local one; a point the server refuses (4xx) fails the study at once.
func TestRemoteRetries(t *testing.T) {
	h := api.New(api.Options{})
	var n atomic.Int64
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			http.Error(w, `{"error": "busy"}`, http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer flaky.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close() // nothing listens there any more
	apitest.RemoteMatchesLocal(t, []string{flaky.URL, dead.URL}, "load-sweep", true, 2)
	if n.Load() < 2 {
		t.Errorf("the flaky server saw %d requests", n.Load())
	}

	small := httptest.NewServer(api.New(api.Options{Limits: api.Limits{MaxJobs: 1}}))
	defer small.Close()
	data, _ := scenarios.Read("load-sweep")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = api.RunRemote(context.Background(), sc, true, api.RemoteOptions{URLs: []string{small.URL}, RetryFor: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "422") || !strings.Contains(err.Error(), "jobs per run") {
		t.Errorf("a refused point: %v", err)
	}
}

// TestRetryBudgetCountsFromTheFailure: a point whose first request runs
// longer than the retry budget before the server drops it is still
// retried for the whole budget (the budget used to count from the first
// try, so a point that had worked for longer than it got no retry).
func TestRetryBudgetCountsFromTheFailure(t *testing.T) {
	h := api.New(api.Options{})
	var n atomic.Int64
	dropper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			time.Sleep(1500 * time.Millisecond) // longer than the budget
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close() // the server dies under the request
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer dropper.Close()
	data, _ := scenarios.Read("load-sweep")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.RunRemote(context.Background(), sc, true, api.RemoteOptions{URLs: []string{dropper.URL}, Parallel: 1, RetryFor: time.Second}); err != nil {
		t.Errorf("a point dropped after 1.5 s with a retry budget of 1 s: %v", err)
	}
	if n.Load() < 2 {
		t.Errorf("the server saw %d requests; the dropped point was not retried", n.Load())
	}
}

// TestPanicGivesTurnBack: a request whose work panics is answered 500 and
// gives its turn back; with one turn and no queue, the requests after it
// are served, not refused as busy for good.
func TestPanicGivesTurnBack(t *testing.T) {
	srv := httptest.NewServer(api.Panicking(api.Options{MaxRunning: 1, MaxQueued: -1}))
	defer srv.Close()
	for i := range 3 {
		status, body := apitest.Do(t, http.MethodPost, srv.URL+"/v1/validate", []byte(`{}`))
		if status != 500 || !strings.Contains(string(body), "internal error: a bug") {
			t.Fatalf("request %d: %d %s", i, status, body)
		}
	}
}
