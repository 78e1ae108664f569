//go:build !js

package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/api"
)

// The catalogue of hostile API requests: each must be answered with its
// status and a plain message (no Go wording, request values quoted to 80
// characters), within its time bound, without the process growing by a
// gigabyte. The totals sort them as clear, unclear, hang, OOM or silent
// (accepted where it should have been refused).

// goWording is Go's own wording, which must not reach a user.
var goWording = regexp.MustCompile(`(^|\s)json: |Go struct|unmarshal|context canceled|context deadline|deadline exceeded|\bEOF\b|strconv\.|runtime error|%!|goroutine |panic:|http: |dial tcp`)

// answer is what a case got back.
type answer struct {
	status int
	header http.Header
	body   []byte
	err    error
}

type apiCase struct {
	name   string
	server string // which of catalogueServers (default "std")
	// send, if set, sends the request itself; otherwise method (POST),
	// path, ctype (application/json) and body are sent.
	send                func(t *testing.T, base string) answer
	method, path, ctype string
	body                string
	status              int
	want                []string // phrases of the answer's body
	field               string   // the error's field, if any
	header              string   // a header the answer must have
	noHeader            string   // a header it must not have
	within              time.Duration
}

// catalogueServers are the servers the cases go to: small limits so that
// every refusal is quick.
var catalogueServers = map[string]api.Options{
	"std": {Limits: api.Limits{MaxBodyBytes: 1 << 20, MaxAnswerBytes: 2 << 20}, BodyTimeout: 2 * time.Second, Timeout: 5 * time.Second, Workers: 1},
	// The defaults but the time limit, as schedlab serve runs.
	"default": {Timeout: 10 * time.Second},
	// One request at a time and none waiting.
	"busy": {MaxRunning: 1, MaxQueued: -1, Timeout: 30 * time.Second, Workers: 1},
	// One at a time, one waiting, a short time limit.
	"queued": {MaxRunning: 1, MaxQueued: 1, Timeout: 2 * time.Second, Workers: 1},
	"cors":   {AllowOrigins: []string{"https://lab.example"}},
	// The default limits, a time limit of 5 s.
	"timed": {Timeout: 5 * time.Second, Workers: 1},
}

// handlers are the catalogue's servers' handlers, by name.
var handlers = map[string]*api.Handler{}

// heavyRun is a request that runs for minutes: Pollux re-dividing 20,000
// GPUs among thousands of jobs every minute.
func heavyRun(t *testing.T) string {
	data, _ := scenarios.Read("sjf-bsbf-table4")
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"sweep", "reference", "checks", "quick", "seeds", "measure"} {
		delete(m, k)
	}
	m["cluster"].(map[string]any)["servers"].([]any)[0].(map[string]any)["count"] = 5000
	gen := m["workload"].(map[string]any)["generator"].(map[string]any)
	gen["base_jobs"], gen["window_h"] = 20000, 0.5
	m["policies"] = []any{map[string]any{"name": "pollux"}}
	doc, _ := json.Marshal(map[string]any{"scenario": m})
	return string(doc)
}

// poissonRun is a run of n one-GPU jobs under the given policies.
func poissonRun(n int, policies ...string) string {
	var ps []string
	for i, p := range policies {
		ps = append(ps, fmt.Sprintf(`{"name": %q, "label": "P%d"}`, p, i))
	}
	return fmt.Sprintf(`{"scenario": {"name": "many", "cluster": {"servers": [{"count": 4, "gpus": 4, "gpu_type": "V100"}]},
		"workload": {"generator": {"kind": "poisson", "jobs": %d, "jobs_per_hour": 100000, "gpu_mix": [{"gpus": 1, "weight": 1}],
			"duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "m", "weight": 1}]}},
		"policies": [%s]}}`, n, strings.Join(ps, ", "))
}

// raw sends bytes on a fresh connection and reads the answer; pace, if
// set, sends the rest one byte per pace.
func raw(base, head, body string, pace time.Duration) answer {
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		return answer{err: err}
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(conn, head); err != nil {
		return answer{err: err}
	}
	go func() {
		if pace == 0 {
			io.WriteString(conn, body)
			return
		}
		for i := range len(body) {
			if _, err := io.WriteString(conn, body[i:i+1]); err != nil {
				return
			}
			time.Sleep(pace)
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b, err}
}

func post(base, path, ctype, body string, extra http.Header) answer {
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	if err != nil {
		return answer{err: err}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	return do(req)
}

func do(req *http.Request) answer {
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b, err}
}

// load is the server's queue as GET /v1/health tells it.
func load(base string) api.Load {
	var h api.Health
	resp, err := http.Get(base + "/v1/health")
	if err == nil {
		json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
	}
	return h.Load
}

// occupy starts a heavy run and waits until it is running; stop cancels
// it (its client leaves).
func occupy(t *testing.T, base string) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/run", strings.NewReader(heavyRun(t)))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	for deadline := time.Now().Add(time.Minute); load(base).Running == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the heavy run did not start within a minute")
		}
	}
	return func() { cancel(); <-done }
}

func apiCatalogue() []apiCase {
	long := strings.Repeat("x", 100_000)
	return []apiCase{
		// Content types: a page elsewhere cannot POST without a preflight.
		{name: "text/plain POST", path: "/v1/run", ctype: "text/plain", body: `{"scenario": "tiny"}`, status: 415,
			want: []string{"Content-Type: application/json", `(the request has Content-Type \"text/plain\")`}, noHeader: "Access-Control-Allow-Origin"},
		{name: "no Content-Type", path: "/v1/run", ctype: "-", body: `{"scenario": "tiny"}`, status: 415, want: []string{"(the request has no Content-Type)"}},
		{name: "a form POST", path: "/v1/validate", ctype: "application/x-www-form-urlencoded", body: `scenario=tiny`, status: 415, want: []string{"Content-Type: application/json"}},
		{name: "multipart POST", path: "/v1/validate", ctype: "multipart/form-data; boundary=x", body: "--x--", status: 415, want: []string{"Content-Type: application/json"}},
		{name: "JSON with a charset is fine", path: "/v1/validate", ctype: "application/json; charset=utf-8", body: `{"scenario": "tiny"}`, status: 200, want: []string{`"valid": true`}},

		// Keys given twice.
		{name: "scenario given twice", path: "/v1/run", body: `{"scenario": "tiny", "scenario": "fifo-vs-sjf"}`, status: 400, field: "scenario", want: []string{"is given twice"}},
		{name: "seed given twice", path: "/v1/run", body: `{"scenario": "tiny", "seed": 1, "seed": 2}`, status: 400, field: "seed", want: []string{"is given twice"}},
		{name: "a key twice in the scenario (run)", path: "/v1/run", body: `{"scenario": {"name": "x", "name": "y"}}`, status: 400, field: "scenario",
			want: []string{`"path": "name"`, "is given twice in one object (the second time at line 1, column 15)"}},
		{name: "a key twice in the scenario (validate)", path: "/v1/validate",
			body: `{"scenario": {"name": "x", "cluster": {"servers": [{"count": 1, "gpus": 4, "count": 2}]}}}`, status: 200,
			want: []string{`"valid": false`, `cluster.servers[0].count: is given twice in one object`}},

		// Values quoted, cut to 80 characters.
		{name: "a 100 KB unknown field", path: "/v1/run", body: `{"scenario": "tiny", "` + long + `": 1}`, status: 400, field: strings.Repeat("x", 80) + "…", want: []string{"unknown field"}},
		{name: "a 100 KB scenario name", path: "/v1/run", body: `{"scenario": "` + long + `"}`, status: 400, field: "scenario",
			want: []string{`no built-in scenario named \"` + strings.Repeat("x", 80) + `\"…`}},
		{name: "a 10 KB path", method: http.MethodGet, path: "/v1/" + strings.Repeat("p", 10_000), status: 404, want: []string{"no such endpoint /v1/ppp"}},
		{name: "nested 20,000 deep", path: "/v1/run", body: `{"scenario": ` + strings.Repeat("[", 20_000), status: 400, want: []string{"nests lists and objects more than 10,000 deep"}},
		{name: "seed 1e400", path: "/v1/run", body: `{"scenario": "tiny", "seed": 1e400}`, status: 400, field: "seed", want: []string{"must be a non-negative whole number, got a JSON number 1e400"}},
		{name: "policy -1", path: "/v1/run", body: `{"scenario": "fifo-vs-sjf", "policy": -1}`, status: 400, field: "policy"},
		{name: "invalid UTF-8 in a name", path: "/v1/run", body: "{\"scenario\": \"\xff\xfe\"}", status: 400, field: "scenario", want: []string{"no built-in scenario named"}},

		// Bodies: too large, too slow, or shorter than announced.
		{name: "a body over the limit", path: "/v1/run", body: `{"scenario": "tiny", "pad": "` + strings.Repeat("x", 2<<20) + `"}`, status: 413, want: []string{"the limit is 1048576 bytes"}},
		{name: "a chunked body over the limit", send: func(t *testing.T, base string) answer {
			req, _ := http.NewRequest(http.MethodPost, base+"/v1/run", io.MultiReader(strings.NewReader(`{"scenario": "tiny", "pad": "`), strings.NewReader(strings.Repeat("x", 2<<20))))
			req.Header.Set("Content-Type", "application/json")
			req.ContentLength = -1
			return do(req)
		}, status: 413, want: []string{"more than the limit"}},
		// On the default server (a body time limit of 30 s): the 413
		// waits at most a second for the rest of the body.
		{name: "Content-Length 10^12 with a short body", server: "default", send: func(t *testing.T, base string) answer {
			return raw(base, "POST /v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n", `{"scenario": "tiny"}`, 0)
		}, status: 413, want: []string{"the request body is 1000000000000 bytes; the limit is 8388608 bytes"}, within: 3 * time.Second},
		{name: "Content-Length 1000, 20 bytes sent", send: func(t *testing.T, base string) answer {
			return raw(base, "POST /v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", `{"scenario": "tiny"}`, 0)
		}, status: 408, want: []string{"the request body did not arrive within 2s"}, within: 4 * time.Second},
		{name: "a body at a byte every 300 ms", send: func(t *testing.T, base string) answer {
			body := `{"scenario": "tiny"}`
			return raw(base, fmt.Sprintf("POST /v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body)), body, 300*time.Millisecond)
		}, status: 408, want: []string{"the request body did not arrive within 2s"}, within: 4 * time.Second},

		// Answers too large.
		{name: "an answer certain to be over the limit", path: "/v1/run", body: poissonRun(20000, "fifo", "sjf"), status: 422, field: "scenario",
			want: []string{"the answer would be more than 9.5 MiB (a record for each of 20000 jobs in each of 2 runs), above this server's limit of 2.0 MiB per answer", "one policy at a time"}},
		{name: "an answer found over the limit while written", path: "/v1/run", body: poissonRun(8000, "fifo"), status: 422, field: "scenario",
			want: []string{"the answer is more than 2.0 MiB, this server's limit per answer"}},
		{name: "100,000 jobs × 10 policies on 20,000 GPUs (441 MB)", server: "default", send: func(t *testing.T, base string) answer {
			body := strings.Replace(poissonRun(100000, "fifo", "sjf", "fifo", "sjf", "fifo", "sjf", "fifo", "sjf", "fifo", "sjf"), `"count": 4, "gpus": 4`, `"count": 2500, "gpus": 8`, 1)
			return post(base, "/v1/run", "application/json", body, nil)
		}, status: 422, field: "scenario", want: []string{"the answer would be more than 238.4 MiB", "limit of 64.0 MiB per answer"}},

		// Time.
		{name: "a run past the time limit", server: "timed", send: func(t *testing.T, base string) answer {
			return post(base, "/v1/run", "application/json", heavyRun(t), nil)
		}, status: 503, want: []string{"the request reached this server's time limit of 5s and was stopped", "fewer jobs"}, within: 8 * time.Second},
		{name: "a client that leaves: its work stops", server: "timed", send: func(t *testing.T, base string) answer {
			stop := occupy(t, base)
			left := time.Now()
			stop()
			for load(base).Running > 0 {
				if time.Since(left) > 3*time.Second {
					return answer{err: fmt.Errorf("the work went on for %v after the client left", time.Since(left))}
				}
				time.Sleep(10 * time.Millisecond)
			}
			return answer{status: 200, body: []byte(fmt.Sprintf("stopped %v after the client left", time.Since(left).Round(time.Millisecond)))}
		}, status: 200, want: []string{"after the client left"}},

		// Admission.
		{name: "a full server: 503 with Retry-After", server: "busy", send: func(t *testing.T, base string) answer {
			defer occupy(t, base)()
			return post(base, "/v1/validate", "application/json", `{"scenario": "tiny"}`, nil)
		}, status: 503, header: "Retry-After", want: []string{"the server is busy: it works on at most 1 request(s) at once with 0 more waiting, and all are taken; try again in"}},
		{name: "waiting past the time limit", server: "queued", send: func(t *testing.T, base string) answer {
			defer api.HoldTurn(handlers["queued"])()
			return post(base, "/v1/validate", "application/json", `{"scenario": "tiny"}`, nil)
		}, status: 503, header: "Retry-After", want: []string{"the request reached this server's time limit of 2s while it waited for its turn"}, within: 4 * time.Second},

		// CORS.
		{name: "a preflight from another origin", send: func(t *testing.T, base string) answer {
			req, _ := http.NewRequest(http.MethodOptions, base+"/v1/run", nil)
			req.Header.Set("Origin", "https://evil.example")
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type")
			return do(req)
		}, status: 204, noHeader: "Access-Control-Allow-Origin"},
		{name: "a preflight from an allowed origin", server: "cors", send: func(t *testing.T, base string) answer {
			req, _ := http.NewRequest(http.MethodOptions, base+"/v1/run", nil)
			req.Header.Set("Origin", "https://lab.example")
			req.Header.Set("Access-Control-Request-Method", "POST")
			return do(req)
		}, status: 204, header: "Access-Control-Allow-Origin"},
		{name: "a POST from another origin gets no permission", send: func(t *testing.T, base string) answer {
			return post(base, "/v1/validate", "application/json", `{"scenario": "tiny"}`, http.Header{"Origin": {"https://evil.example"}})
		}, status: 200, noHeader: "Access-Control-Allow-Origin"},
		{name: "GET is open to every origin", method: http.MethodGet, path: "/v1/health", status: 200, header: "Access-Control-Allow-Origin"},

		// The request's own limits.
		{name: "a run over the job limit", path: "/v1/run", body: poissonRun(120000, "fifo"), server: "default", status: 422, field: "scenario", want: []string{"a run has 120000 jobs, above this server's limit of 100000 jobs per run"}},
		{name: "validating a 1,000,000-job generator", path: "/v1/validate", body: strings.Replace(poissonRun(1000000, "fifo"), `"scenario": {`, `"scenario": {`, 1), status: 200, want: []string{`"valid": true`}, within: 60 * time.Second},
	}
}

// quotedTooLong finds a quoted value of more than 80 characters (with
// its quotes and the … that marks a cut, 83).
func quotedTooLong(s string) string {
	for _, m := range regexp.MustCompile(`"(?:[^"\\]|\\.)*"`).FindAllString(s, -1) {
		if utf8.RuneCountInString(m) > 83 {
			return m[:min(len(m), 120)]
		}
	}
	return ""
}

// judge sorts one answer as clear, unclear, hang or silent, saying why.
func judge(t *testing.T, c apiCase, a answer, took time.Duration) string {
	t.Helper()
	within := c.within
	if within == 0 {
		within = 20 * time.Second
	}
	if took > within {
		t.Errorf("answered after %v, more than %v", took, within)
		return "hang"
	}
	if a.err != nil {
		t.Errorf("no answer: %v", a.err)
		return "hang"
	}
	body := string(a.body)
	if c.status >= 400 && a.status < 300 {
		t.Errorf("status %d, want %d: %.500s", a.status, c.status, body)
		return "silent"
	}
	outcome := "clear"
	unclear := func(format string, args ...any) {
		t.Errorf(format, args...)
		outcome = "unclear"
	}
	if a.status != c.status {
		unclear("status %d, want %d: %.500s", a.status, c.status, body)
	}
	for _, w := range c.want {
		if !strings.Contains(body, w) {
			unclear("the answer lacks %q: %.1000s", w, body)
		}
	}
	if a.status >= 400 {
		var e api.Error
		if err := json.Unmarshal(a.body, &e); err != nil || e.Msg == "" {
			unclear("not a JSON error with a message: %.500s", body)
		}
		if e.Field != c.field {
			unclear("field %q, want %q", e.Field, c.field)
		}
		if m := goWording.FindString(body); m != "" {
			unclear("Go's wording (%q) reaches the user: %.1000s", m, body)
		}
		if q := quotedTooLong(e.Msg); q != "" {
			unclear("a quoted value of more than 80 characters: %s", q)
		}
		if len(e.Msg)+len(e.Field) > 1000 {
			unclear("a message of %d bytes", len(e.Msg)+len(e.Field))
		}
	}
	if c.header != "" && a.header.Get(c.header) == "" {
		unclear("no %s header", c.header)
	}
	if c.noHeader != "" && a.header.Get(c.noHeader) != "" {
		t.Errorf("the answer has %s: %s", c.noHeader, a.header.Get(c.noHeader))
		return "silent"
	}
	return outcome
}

func TestAPICatalogue(t *testing.T) {
	if testing.Short() {
		t.Skip("runs requests of minutes until their limits stop them")
	}
	bases := map[string]string{}
	for name, o := range catalogueServers {
		handlers[name] = api.New(o)
		srv := httptest.NewServer(handlers[name])
		defer srv.Close()
		bases[name] = srv.URL
	}
	totals := map[string]int{}
	var slowest time.Duration
	for _, c := range apiCatalogue() {
		t.Run(c.name, func(t *testing.T) {
			base := bases[c.server]
			if c.server == "" {
				base = bases["std"]
			}
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			var a answer
			switch {
			case c.send != nil:
				a = c.send(t, base)
			case c.method == http.MethodGet:
				req, _ := http.NewRequest(http.MethodGet, base+c.path, nil)
				a = do(req)
			default:
				ctype := c.ctype
				switch ctype {
				case "":
					ctype = "application/json"
				case "-":
					ctype = ""
				}
				a = post(base, c.path, ctype, c.body, nil)
			}
			took := time.Since(start)
			slowest = max(slowest, took)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			o := judge(t, c, a, took)
			if grew := int64(after.Sys) - int64(before.Sys); grew > 1<<30 {
				t.Errorf("the process grew by %d MB", grew>>20)
				o = "OOM"
			}
			totals[o]++
			t.Logf("%s: %s, status %d in %v: %.200s", c.name, o, a.status, took.Round(time.Millisecond), strings.Join(strings.Fields(string(a.body)), " "))
		})
	}
	t.Logf("API requests: %d clear, %d unclear, %d hang, %d OOM, %d silent; the slowest answered in %v",
		totals["clear"], totals["unclear"], totals["hang"], totals["OOM"], totals["silent"], slowest.Round(time.Millisecond))
}
