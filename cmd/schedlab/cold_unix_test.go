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

// TestColdServerValidatesEveryScenario starts a fresh schedlab serve and
// sends it 100 validations of every built-in scenario at once, 100 in
// flight from the first moment (each client starts at another scenario):
// every answer says valid. The schema's type cache used to publish an
// entry before filling it, and a server just started called valid
// scenarios' fields unknown (1-3 of 50 requests in 1 of 8 cold starts;
// go test -race reports the race at once). The server lets all 100 work
// at once (--max-running 100), so that their decodes meet.
func TestColdServerValidatesEveryScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and sends it thousands of validations")
	}
	if raceDetector {
		// 13.5 minutes under -race; the race it guards against is in the
		// schema's type cache, which sim/schema's
		// TestColdCacheConcurrentDecode covers under -race in 12 s.
		t.Skip("6,000 validations take too long under -race")
	}
	srv := startServer(t, "", "--max-running", "100")
	names := scenarios.Names()
	const clients = 100
	client := &http.Client{Timeout: 5 * time.Minute}
	var mu sync.Mutex
	var bad []string
	start := make(chan struct{})
	began := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			<-start
			for i := range names {
				name := names[(c+i)%len(names)]
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
	t.Logf("%d validations (%d clients × %d scenarios) on a cold server in %v; the server's peak memory %d MB",
		clients*len(names), clients, len(names), time.Since(began).Round(time.Millisecond), srv.peakRSS()>>20)
	if len(bad) > 0 {
		t.Errorf("%d of %d validations failed; the server's stderr:\n%.3000s", len(bad), clients*len(names), srv.errors())
	}
	for i, b := range bad {
		if i == 10 {
			t.Errorf("… and %d more", len(bad)-10)
			break
		}
		t.Errorf("not valid: %s", b)
	}
	srv.noRace()
}
