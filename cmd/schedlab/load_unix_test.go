//go:build unix

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/api"
)

// TestServeUnderLoad sends schedlab serve 50 heavy requests at once
// (sjf-bsbf-table4, 90 runs each): the server runs two at a time and
// queues the rest, so its memory stays far under 2 GB (it took 7.3 GB
// when it ran all 50 at once); then every client leaves, and the server
// is idle within seconds, its work cancelled.
func TestServeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a server for half a minute")
	}
	srv := startServer(t, "", "--max-running", "2", "--workers", "2")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var ok, busy, other atomic.Int64
	for range 50 {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.url+"/v1/run", strings.NewReader(`{"scenario": "sjf-bsbf-table4"}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			switch {
			case err != nil:
			case resp.StatusCode == 200:
				ok.Add(1)
			case resp.StatusCode == 503:
				busy.Add(1)
			default:
				other.Add(1)
			}
			if err == nil {
				resp.Body.Close()
			}
		})
	}
	time.Sleep(20 * time.Second)
	peak := srv.peakRSS()
	cancel()
	left := time.Now()
	wg.Wait()
	var l api.Load
	for {
		l = serverLoad(t, srv.url)
		if l.Running == 0 && l.Waiting == 0 {
			break
		}
		if time.Since(left) > 10*time.Second {
			t.Fatalf("10 s after every client left, the server still has %d requests at work and %d waiting", l.Running, l.Waiting)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("50 requests at once: %d answered in 20 s, %d refused as busy, %d other; peak memory %d MB; idle %v after the clients left",
		ok.Load(), busy.Load(), other.Load(), peak>>20, time.Since(left).Round(time.Millisecond))
	if peak > 2<<30 {
		t.Errorf("the server took %d MB", peak>>20)
	}
	if busy.Load()+other.Load() > 0 {
		t.Errorf("%d requests refused as busy and %d otherwise; the queue holds 64", busy.Load(), other.Load())
	}
	srv.noRace()
}

// TestServeTimeout: with --timeout 10s, a request of 100,000 Pollux jobs
// on 20,000 GPUs (whose every round takes seconds) is answered within 12
// s, 503 saying the limit; it was answered after 146 s with --timeout 15s.
func TestServeTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a request to its time limit")
	}
	srv := startServer(t, "", "--timeout", "10s")
	data, _ := scenarios.Read("sjf-bsbf-table4")
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"sweep", "reference", "checks", "quick", "seeds", "measure"} {
		delete(m, k)
	}
	m["cluster"].(map[string]any)["servers"].([]any)[0].(map[string]any)["count"] = 5000
	m["workload"].(map[string]any)["generator"].(map[string]any)["base_jobs"] = 50000 // × scale 2
	m["policies"] = []any{map[string]any{"name": "pollux"}}
	body, _ := json.Marshal(map[string]any{"scenario": m})
	start := time.Now()
	status, answer, err := postJSON(&http.Client{Timeout: 5 * time.Minute}, srv.url+"/v1/run", string(body))
	took := time.Since(start)
	t.Logf("answered %d after %v: %s", status, took.Round(time.Millisecond), answer)
	if err != nil || status != 503 || !strings.Contains(string(answer), "reached this server's time limit of 10s") {
		t.Errorf("got %d %v: %s", status, err, answer)
	}
	if took > 12*time.Second {
		t.Errorf("answered after %v, more than 12 s", took)
	}
}

func serverLoad(t *testing.T, url string) api.Load {
	resp, err := http.Get(url + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h api.Health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h.Load
}
