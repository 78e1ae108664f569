//go:build !js

package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/api"
	_ "github.com/schedlab/schedlab/sim/policy/all"
)

// The API runs a scenario with a script policy, and refuses a broken one
// at the script's field with its line.
func TestScriptPolicyOverAPI(t *testing.T) {
	srv := httptest.NewServer(api.New(api.Options{}))
	defer srv.Close()
	doc := func(src string) string {
		s, _ := json.Marshal(src)
		return `{"name": "s", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
			"workload": {"jobs": [
				{"id": "long", "arrival_s": 0, "model": "m", "gpus": 8, "duration_s": 600},
				{"id": "big", "arrival_s": 1, "model": "m", "gpus": 8, "duration_s": 500},
				{"id": "small", "arrival_s": 2, "model": "m", "gpus": 8, "duration_s": 100}]},
			"policies": [{"name": "sjf"}, {"name": "script", "label": "mine", "params": {"source": ` + string(s) + `}}]}`
	}
	wrap := func(src string) string { return `{"scenario": ` + doc(src) + `}` }
	post := func(path, body string) (int, string) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post("/v1/run", wrap("def priority(job, now):\n    return job.solo_s\n"))
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	var out struct {
		Results []struct {
			Policy  string
			Metrics struct {
				AvgJCT float64 `json:"avg_jct_s"`
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	// SJF: long 0-600, small 600-700, big 700-1200: JCTs 600, 698, 1199
	want := (600.0 + 698 + 1199) / 3
	if len(out.Results) != 2 || out.Results[1].Policy != "mine" || out.Results[0].Metrics.AvgJCT != want || out.Results[1].Metrics.AvgJCT != want {
		t.Errorf("got %+v, want both at avg JCT %v", out.Results, want)
	}
	code, body = post("/v1/validate", wrap("def priority(job, now):\n    return job.gpu\n"))
	if !strings.Contains(body, `policies[1].params.source`) || !strings.Contains(body, "script line 2") || !strings.Contains(body, "did you mean .gpus?") {
		t.Errorf("a typo: status %d, %s", code, body)
	}
}
