//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
)

// TestColdServerValidatesEveryScenario starts a fresh schedlab serve,
// four times, and sends each 100 validations of built-in scenarios at
// once, 100 in flight from the first moment, then two more from each
// client (each client starts at another scenario, so every scenario is
// among the first 100): every answer says valid. The schema's type cache
// used to publish an entry before filling it, and a server just started
// called valid scenarios' fields unknown (1-3 of 50 requests in 1 of 8
// cold starts; go test -race reports the race at once). Only a server's
// first requests can meet an entry being filled, so the test starts
// several servers rather than sending one thousands of requests. Each
// server lets all 100 work at once (--max-running 100), so that their
// decodes meet.
func TestColdServerValidatesEveryScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and sends them a thousand validations")
	}
	if raceDetector {
		// Minutes under -race; the race it guards against is in the
		// schema's type cache, which sim/schema's
		// TestColdCacheConcurrentDecode covers under -race in 12 s.
		t.Skip("1,200 validations take too long under -race")
	}
	const starts, clients, each = 4, 100, 3
	names := scenarios.Names()
	if len(names) > clients {
		t.Fatalf("%d built-in scenarios, more than the %d clients that each start at one", len(names), clients)
	}
	for round := range starts {
		srv := startServer(t, "", "--max-running", "100")
		client := &http.Client{Timeout: 5 * time.Minute}
		var mu sync.Mutex
		var bad []string
		start := make(chan struct{})
		began := time.Now()
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				<-start
				for i := range each {
					name := names[(c+i*(len(names)/each)+round)%len(names)]
					status, body, err := postJSON(client, srv.url+"/v1/validate", fmt.Sprintf(`{"scenario": %q}`, name))
					var v struct {
						Valid bool     `json:"valid"`
						Lines []string `json:"lines"`
					}
					if err == nil {
						err = json.Unmarshal(body, &v)
					}
					if err != nil || status != 200 || !v.Valid {
						mu.Lock()
						bad = append(bad, fmt.Sprintf("%s: status %d, %v, %v %.300s", name, status, err, v.Lines, body))
						mu.Unlock()
					}
				}
			})
		}
		close(start)
		wg.Wait()
		t.Logf("cold start %d: %d validations (%d clients × %d) in %v; the server's peak memory %d MB",
			round+1, clients*each, clients, each, time.Since(began).Round(time.Millisecond), srv.peakRSS()>>20)
		if len(bad) > 0 {
			t.Errorf("cold start %d: %d of %d validations failed; the server's stderr:\n%.3000s", round+1, len(bad), clients*each, srv.errors())
		}
		for i, b := range bad {
			if i == 10 {
				t.Errorf("… and %d more", len(bad)-10)
				break
			}
			t.Errorf("not valid: %s", b)
		}
		srv.noRace()
		srv.kill()
	}
}
