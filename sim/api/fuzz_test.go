package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/api"
)

// FuzzHandler sends arbitrary bodies to every POST endpoint: the answer
// is always JSON and never a 500 (the handler turns a panic into one).
// Small limits keep every accepted run short.
func FuzzHandler(f *testing.F) {
	h := api.New(api.Options{Limits: api.Limits{MaxBodyBytes: 64 << 10, MaxJobs: 200, MaxGPUs: 256, MaxRuns: 4}, Timeout: 5 * time.Second})
	for _, s := range []string{
		`{"scenario": "tiny"}`, `{"scenario": "tiny", "seed": 3, "policy": 0}`,
		`{"scenario": "load-sweep", "x": 4, "seed": 1, "quick": true}`,
		`{"scenario": {"name": "x", "cluster": {"servers": [{"count": 1, "gpus": 4}]}}}`,
		`{"scenario": null}`, `{"scenario": "tiny", "seed": 1e400}`, `{"x": NaN}`, `[`, `""`, ``,
	} {
		for _, p := range []uint8{0, 1, 2} {
			f.Add(p, []byte(s))
		}
	}
	paths := []string{"/v1/run", "/v1/validate", "/v1/sweep-point"}
	f.Fuzz(func(t *testing.T, p uint8, body []byte) {
		resp := h.Answer(context.Background(), api.Request{Method: "POST", Path: paths[int(p)%len(paths)], Body: bytes.NewReader(body), Length: int64(len(body)), ContentType: "application/json"})
		if resp.Status == 500 {
			t.Fatalf("500 for %q: %s", body, resp.Body)
		}
		if !json.Valid(resp.Body) {
			t.Fatalf("not JSON for %q: %s", body, resp.Body)
		}
	})
}
