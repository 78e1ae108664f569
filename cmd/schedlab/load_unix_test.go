//go:build unix

package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
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
// (sjf-bsbf-table4's quick version, 52 runs of up to 480 jobs each; two
// of the full version's 520 runs at a time took it past 2 GB): the server runs two at
// a time and queues the rest, so its memory stays under 2 GB (it took
// 7.3 GB when it ran all 50 requests of 90 runs at once); then every
// client leaves, and the server is idle within seconds, its work
// cancelled.
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
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.url+"/v1/run", strings.NewReader(`{"scenario": "sjf-bsbf-table4", "quick": true}`))
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
	// The race detector keeps shadow memory several times the program's
	// own; fifty requests at once would still take far more.
	bound := int64(2 << 30)
	if raceDetector {
		bound *= 4
	}
	if int64(peak) > bound {
		t.Errorf("the server took %d MB, over %d MB", peak>>20, bound>>20)
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
	if raceDetector {
		t.Skip("bounds wall time, which the race detector multiplies")
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

// TestServeSlowHeaders: a client that sends its headers a byte a second
// is cut off after schedlab serve's 10 s for headers, and one whose body
// never comes gets 408 after --body-timeout.
func TestServeSlowHeaders(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's header time limit")
	}
	srv := startServer(t, "", "--body-timeout", "2s")
	addr := strings.TrimPrefix(srv.url, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	head := "POST /v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Slow: " + strings.Repeat("a", 60)
	closed := make(chan time.Duration, 1)
	go func() {
		for i := range len(head) {
			if _, err := conn.Write([]byte{head[i]}); err != nil {
				break
			}
			time.Sleep(time.Second)
		}
	}()
	go func() {
		io.Copy(io.Discard, conn) // returns when the server closes the connection
		closed <- time.Since(start)
	}()
	select {
	case d := <-closed:
		t.Logf("the server closed a connection sending its headers a byte a second after %v", d.Round(time.Millisecond))
		if d < 9*time.Second {
			t.Errorf("closed after %v, before the 10 s for headers", d)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("a connection sending its headers a byte a second is still open after 20 s")
	}
	a := rawRequest(t, addr, "POST /v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	if !strings.Contains(a, "408 Request Timeout") || !strings.Contains(a, "did not arrive within 2s") {
		t.Errorf("a body that never comes: %s", a)
	}
}

// rawRequest sends bytes and returns all the server sends back.
func rawRequest(t *testing.T, addr, data string) string {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	conn.Write([]byte(data))
	b, _ := io.ReadAll(conn)
	return string(b)
}
