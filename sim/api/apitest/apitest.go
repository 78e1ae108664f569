//go:build !js && !nohttp

// Package apitest is the test suite of schedlab's JSON API, run against
// any base URL: an httptest server in sim/api's tests, and the Cloudflare
// Workers build in workerd in wasm/edge's. Expected answers are computed
// in the test process with the same code the CLI uses, so a server that
// runs the simulation differently (another platform, another build)
// fails byte for byte.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Client is what the suite needs to talk to a server.
var Client = &http.Client{Timeout: 2 * time.Minute}

// Run runs every test of the suite against the API at base (no
// trailing slash), e.g. "http://127.0.0.1:8787".
func Run(t *testing.T, base string) {
	t.Run("Health", func(t *testing.T) { testHealth(t, base) })
	t.Run("Lists", func(t *testing.T) { testLists(t, base) })
	t.Run("Validate", func(t *testing.T) { testValidate(t, base) })
	t.Run("RunMatchesCLI", func(t *testing.T) { testRun(t, base) })
	t.Run("RunOnePolicy", func(t *testing.T) { testRunOnePolicy(t, base) })
	t.Run("RunStudyMatchesCLI", func(t *testing.T) { testRunStudy(t, base) })
	t.Run("SweepPoint", func(t *testing.T) { testSweepPoint(t, base) })
	t.Run("Malformed", func(t *testing.T) { testMalformed(t, base) })
	t.Run("Limits", func(t *testing.T) { testLimits(t, base) })
	t.Run("Routes", func(t *testing.T) { testRoutes(t, base) })
}

// Do sends one request and returns the status and body.
func Do(t testing.TB, method, url string, body []byte) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, url, err)
	}
	return resp.StatusCode, data
}

func post(t *testing.T, url string, v any) (int, []byte) {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return Do(t, http.MethodPost, url, body)
}

func want(t *testing.T, what string, status, code int, body []byte) {
	t.Helper()
	if status != code {
		t.Fatalf("%s: status %d, want %d; body:\n%s", what, status, code, clip(body))
	}
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

func errorOf(t *testing.T, body []byte) api.Error {
	t.Helper()
	var e api.Error
	if err := json.Unmarshal(body, &e); err != nil || e.Msg == "" {
		t.Fatalf("not a JSON error with a message (%v):\n%s", err, clip(body))
	}
	return e
}

func health(t *testing.T, base string) map[string]any {
	status, body := Do(t, http.MethodGet, base+"/v1/health", nil)
	want(t, "GET /v1/health", status, 200, body)
	var h map[string]any
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func testHealth(t *testing.T, base string) {
	h := health(t, base)
	if h["status"] != "ok" || h["api"] != "v1" {
		t.Errorf("health: %v", h)
	}
	if _, ok := h["limits"].(map[string]any)["max_body_bytes"]; !ok {
		t.Errorf("health has no limits: %v", h)
	}
}

func testLists(t *testing.T, base string) {
	status, body := Do(t, http.MethodGet, base+"/v1/scenarios", nil)
	want(t, "GET /v1/scenarios", status, 200, body)
	var scs []api.ScenarioInfo
	if err := json.Unmarshal(body, &scs); err != nil {
		t.Fatal(err)
	}
	if len(scs) != len(scenarios.Names()) {
		t.Errorf("%d scenarios, want %d", len(scs), len(scenarios.Names()))
	}
	found := false
	for _, s := range scs {
		if s.Name == scenarios.Default && s.Default && s.Title != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("the default scenario %s is not listed as default with its title", scenarios.Default)
	}
	status, body = Do(t, http.MethodGet, base+"/v1/policies", nil)
	want(t, "GET /v1/policies", status, 200, body)
	var ps []api.PolicyInfo
	if err := json.Unmarshal(body, &ps); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range ps {
		names[p.Name] = true
	}
	for _, n := range []string{"fifo", "sjf", "tiresias"} {
		if !names[n] {
			t.Errorf("policy %s is not listed", n)
		}
	}
}

func testValidate(t *testing.T, base string) {
	status, body := post(t, base+"/v1/validate", map[string]any{"scenario": "tiny"})
	want(t, "validate tiny", status, 200, body)
	var v api.ValidateResponse
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	if !v.Valid || v.Name != "tiny" || len(v.Problems) != 0 {
		t.Errorf("tiny: %+v", v)
	}
	doc := brokenDoc(t)
	status, body = post(t, base+"/v1/validate", map[string]any{"scenario": doc})
	want(t, "validate a broken scenario", status, 200, body)
	v = api.ValidateResponse{}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	// The problems are the CLI's: the same as scenario.Parse finds.
	_, err := scenario.Parse(doc)
	if v.Valid || err == nil || strings.Join(v.Lines, "\n") != err.Error() {
		t.Errorf("broken scenario: got valid=%v lines\n%s\nwant\n%v", v.Valid, strings.Join(v.Lines, "\n"), err)
	}
	if len(v.Problems) == 0 || v.Problems[0].Path != "cluster.servers[0].gpus" {
		t.Errorf("the first problem should name cluster.servers[0].gpus: %+v", v.Problems)
	}
}

// brokenDoc is the tiny scenario with servers of no GPUs.
func brokenDoc(t *testing.T) json.RawMessage {
	data, _ := scenarios.Read("tiny")
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["cluster"].(map[string]any)["servers"].([]any)[0].(map[string]any)["gpus"] = 0
	out, _ := json.Marshal(m)
	return out
}

// local runs a built-in scenario as `schedlab run --format json` does.
func local(t *testing.T, name string, o api.RunOptions, policy int) []byte {
	t.Helper()
	data, _ := scenarios.Read(name)
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if policy >= 0 {
		if sc, err = sc.WithPolicy(policy); err != nil {
			t.Fatal(err)
		}
	}
	oc, err := api.Execute(context.Background(), sc, o)
	if err != nil {
		t.Fatal(err)
	}
	return cliJSON(t, oc.Output())
}

// cliJSON encodes v as cmd/schedlab prints it, written out here rather
// than taken from api.MarshalJSON so that a change of the API's encoding
// shows.
func cliJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func same(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-200)
		t.Errorf("%s differs from the local run at byte %d of %d/%d:\ngot  …%s\nwant …%s", what, i, len(got), len(want),
			got[lo:min(len(got), i+200)], want[lo:min(len(want), i+200)])
	}
}

func testRun(t *testing.T, base string) {
	status, body := post(t, base+"/v1/run", map[string]any{"scenario": "fifo-vs-sjf", "seed": 7})
	want(t, "run fifo-vs-sjf", status, 200, body)
	same(t, "run fifo-vs-sjf seed 7", body, local(t, "fifo-vs-sjf", api.RunOptions{Seed: 7}, -1))
	// A document runs as its name does.
	data, _ := scenarios.Read("tiny")
	status, body = post(t, base+"/v1/run", map[string]any{"scenario": json.RawMessage(data)})
	want(t, "run the tiny document", status, 200, body)
	same(t, "run tiny", body, local(t, "tiny", api.RunOptions{}, -1))
}

func testRunOnePolicy(t *testing.T, base string) {
	status, body := post(t, base+"/v1/run", map[string]any{"scenario": "fifo-vs-sjf", "policy": 1})
	want(t, "run fifo-vs-sjf policy 1", status, 200, body)
	same(t, "run fifo-vs-sjf policy 1", body, local(t, "fifo-vs-sjf", api.RunOptions{}, 1))
	status, body = post(t, base+"/v1/run", map[string]any{"scenario": "fifo-vs-sjf", "policy": 9})
	want(t, "policy out of range", status, 400, body)
	if e := errorOf(t, body); e.Field != "policy" {
		t.Errorf("policy 9: field %q, want policy", e.Field)
	}
}

func testRunStudy(t *testing.T, base string) {
	status, body := post(t, base+"/v1/run", map[string]any{"scenario": "load-sweep", "quick": true})
	want(t, "run load-sweep quick", status, 200, body)
	same(t, "run load-sweep --quick", body, local(t, "load-sweep", api.RunOptions{Quick: true}, -1))
}

func testSweepPoint(t *testing.T, base string) {
	data, _ := scenarios.Read("load-sweep")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	form, err := api.StudyForm(sc, true)
	if err != nil {
		t.Fatal(err)
	}
	vals, runs, err := experiment.RunSplitPoint(context.Background(), form, 14, 1, -1)
	if err != nil {
		t.Fatal(err)
	}
	wantBody := cliJSON(t, api.PointResponse{Values: vals, Runs: runs})
	status, body := post(t, base+"/v1/sweep-point", map[string]any{"scenario": "load-sweep", "quick": true, "x": 14, "seed": 1})
	want(t, "sweep-point load-sweep x=14", status, 200, body)
	same(t, "sweep-point load-sweep x=14 seed 1", body, wantBody)
	var got api.PointResponse
	if err := json.Unmarshal(body, &got); err != nil || len(got.Runs) != len(sc.Policies) {
		t.Errorf("sweep-point: %d runs, want %d (%v)", len(got.Runs), len(sc.Policies), err)
	}
	status, body = post(t, base+"/v1/sweep-point", map[string]any{"scenario": "load-sweep", "quick": true, "x": 15, "seed": 1})
	want(t, "sweep-point at a value not swept", status, 400, body)
	if e := errorOf(t, body); e.Field != "x" || !strings.Contains(e.Msg, "[4, 14, 20]") {
		t.Errorf("x=15: %+v", e)
	}
	status, body = post(t, base+"/v1/sweep-point", map[string]any{"scenario": "tiny", "seed": 1})
	want(t, "sweep-point of a plain scenario", status, 400, body)
	// One policy alone, where the study's metrics compare policies: refused.
	status, body = post(t, base+"/v1/sweep-point", map[string]any{"scenario": "gavel-fig10-ftf-multi", "quick": true, "x": 0.2, "seed": 1, "policy": 0})
	want(t, "sweep-point of one policy of a study that compares them", status, 400, body)
	if e := errorOf(t, body); e.Field != "policy" {
		t.Errorf("policy alone: field %q, want policy", e.Field)
	}
}

func testMalformed(t *testing.T, base string) {
	cases := []struct {
		path, body, field string
	}{
		{"/v1/run", `{"scenario": "tiny"`, ""},
		{"/v1/run", `[1, 2]`, ""},
		{"/v1/run", ``, ""},
		{"/v1/run", `{}`, "scenario"},
		{"/v1/run", `{"scenario": 5}`, "scenario"},
		{"/v1/run", `{"scenario": "no-such-scenario"}`, "scenario"},
		{"/v1/run", `{"scenario": "tiny", "seed": "x"}`, "seed"},
		{"/v1/run", `{"scenario": "tiny", "seed": -1}`, "seed"},
		{"/v1/run", `{"scenario": "tiny", "sede": 1}`, "sede"},
		{"/v1/run", `{"scenario": {"name": "x"}}`, "scenario"},
		{"/v1/run", `{"scenario": "tiny"} {}`, ""},
		{"/v1/validate", `{"scenario": true}`, "scenario"},
		{"/v1/sweep-point", `{"scenario": "load-sweep", "x": "4", "seed": 1}`, "x"},
		{"/v1/sweep-point", `{"scenario": "load-sweep", "x": 4}`, "seed"},
		{"/v1/sweep-point", `{"scenario": "load-sweep", "seed": 1}`, "x"},
	}
	for _, c := range cases {
		status, body := Do(t, http.MethodPost, base+c.path, []byte(c.body))
		if status != 400 {
			t.Errorf("POST %s %s: status %d, want 400; %s", c.path, c.body, status, clip(body))
			continue
		}
		if e := errorOf(t, body); e.Field != c.field {
			t.Errorf("POST %s %s: field %q, want %q (%s)", c.path, c.body, e.Field, c.field, e.Msg)
		}
	}
}

func testLimits(t *testing.T, base string) {
	lim := health(t, base)["limits"].(map[string]any)
	maxBody := int(lim["max_body_bytes"].(float64))
	big := append([]byte(`{"scenario": "tiny", "pad": "`), bytes.Repeat([]byte("x"), maxBody)...)
	big = append(big, `"}`...)
	status, body := Do(t, http.MethodPost, base+"/v1/run", big)
	want(t, "a body over the limit", status, 413, body)
	errorOf(t, body)

	// A cluster above the GPU limit: 422 naming the limit, before any run.
	data, _ := scenarios.Read("tiny")
	var m map[string]any
	json.Unmarshal(data, &m)
	srv := m["cluster"].(map[string]any)["servers"].([]any)[0].(map[string]any)
	maxGPUs := int(lim["max_gpus"].(float64))
	srv["count"], srv["gpus"] = maxGPUs/8+1, 8
	doc, _ := json.Marshal(m)
	status, body = post(t, base+"/v1/run", map[string]any{"scenario": json.RawMessage(doc)})
	want(t, "a cluster over the GPU limit", status, 422, body)
	if e := errorOf(t, body); !strings.Contains(e.Msg, fmt.Sprint(maxGPUs)) {
		t.Errorf("GPU limit: %q does not name the limit %d", e.Msg, maxGPUs)
	}
	// A simulated-time budget above the limit.
	m["cluster"].(map[string]any)["servers"].([]any)[0] = map[string]any{"count": 1, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": 16}
	data, _ = scenarios.Read("tiny")
	json.Unmarshal(data, &m)
	eng, _ := m["engine"].(map[string]any)
	if eng == nil {
		eng = map[string]any{}
		m["engine"] = eng
	}
	eng["max_time_s"] = lim["max_sim_time_s"].(float64) * 2
	doc, _ = json.Marshal(m)
	status, body = post(t, base+"/v1/run", map[string]any{"scenario": json.RawMessage(doc)})
	want(t, "a time budget over the limit", status, 422, body)
	if e := errorOf(t, body); !strings.Contains(e.Msg, "max_time_s") {
		t.Errorf("time limit: %q does not name engine.max_time_s", e.Msg)
	}
}

func testRoutes(t *testing.T, base string) {
	status, body := Do(t, http.MethodGet, base+"/v1/nothing", nil)
	want(t, "an unknown path", status, 404, body)
	errorOf(t, body)
	status, body = Do(t, http.MethodGet, base+"/v1/run", nil)
	want(t, "GET /v1/run", status, 405, body)
	errorOf(t, body)
	status, body = Do(t, http.MethodPost, base+"/v1/health", []byte("{}"))
	want(t, "POST /v1/health", status, 405, body)
	// The servers under test let pages on any origin call the API: a
	// preflight gets a 204 granting the page's origin, and every GET
	// answer allows any origin.
	const page = "https://page.example"
	for _, c := range []struct {
		method, path, allow string
		status              int
	}{{http.MethodOptions, "/v1/run", page, 204}, {http.MethodGet, "/v1/health", "*", 200}} {
		req, err := http.NewRequest(c.method, base+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", page)
		resp, err := Client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.path, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want(t, c.method+" "+c.path, resp.StatusCode, c.status, data)
		if o := resp.Header.Get("Access-Control-Allow-Origin"); o != c.allow {
			t.Errorf("%s %s: Access-Control-Allow-Origin %q, want %q", c.method, c.path, o, c.allow)
		}
		if c.status == 204 && (len(data) != 0 || !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST")) {
			t.Errorf("%s %s: body %q, Access-Control-Allow-Methods %q", c.method, c.path, data, resp.Header.Get("Access-Control-Allow-Methods"))
		}
	}
}

// RemoteMatchesLocal runs the built-in study name through api.RunRemote
// on the servers at urls and checks that its JSON output is the local
// run's, byte for byte.
func RemoteMatchesLocal(t *testing.T, urls []string, name string, quick bool, parallel int) {
	t.Helper()
	remoteMatchesLocal(t, urls, name, quick, api.RemoteOptions{URLs: urls, Parallel: parallel, Client: Client})
}

// RemoteWholeMatchesLocal is RemoteMatchesLocal with every policy of a
// point in one request.
func RemoteWholeMatchesLocal(t *testing.T, urls []string, name string, quick bool, parallel int) {
	t.Helper()
	remoteMatchesLocal(t, urls, name, quick, api.RemoteOptions{URLs: urls, Parallel: parallel, Client: Client, WholePoints: true})
}

func remoteMatchesLocal(t *testing.T, urls []string, name string, quick bool, o api.RemoteOptions) {
	t.Helper()
	data, _ := scenarios.Read(name)
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: quick, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	wantOut := cliJSON(t, st.Output())
	_, out, err := api.RunRemote(context.Background(), sc, quick, o)
	if err != nil {
		t.Fatal(err)
	}
	same(t, fmt.Sprintf("%s (quick %v) run remotely", name, quick), cliJSON(t, out), wantOut)
}
