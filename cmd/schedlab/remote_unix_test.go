//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// remoteGoWording is Go's own wording, which must not reach a user.
var remoteGoWording = regexp.MustCompile(`(^|\s)json: |Go struct|unmarshal|context canceled|context deadline|deadline exceeded|\bEOF\b|strconv\.|runtime error|%!|goroutine |panic:|dial tcp|connect: `)

// The catalogue of remote faults: servers killed, restarted, frozen,
// busy, refusing or lying while `schedlab run STUDY --remote` spreads the
// study over them. A fault another try can mend must end in the local
// run's output, byte for byte; one it cannot must end in an error that
// names the real cause, with the points done saved for --resume.

// syncBuffer is a buffer the test may read while the command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cli runs schedlab with args in this process.
type cli struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func runCLI(args ...string) cli {
	var out, errOut syncBuffer
	start := time.Now()
	code := dispatch(args, &out, &errOut)
	return cli{code, out.String(), errOut.String(), time.Since(start)}
}

// localStudy is `run NAME --quick --format json`, here.
func localStudy(t *testing.T, name string) string {
	t.Helper()
	r := runCLI("run", name, "--quick", "--format", "json")
	if r.code != exitOK {
		t.Fatalf("local run of %s: exit %d: %s", name, r.code, r.stderr)
	}
	return r.stdout
}

// remoteFault is one case of the catalogue.
type remoteFault struct {
	name string
	wait bool // mostly waits (an outage, a frozen server): not under -race
	run  func(t *testing.T, want string) (outcome string)
}

// outcome classifies a case: clear, unclear, hang or silent (the
// catalogue's totals); the reason goes to the log.
func sameOutput(t *testing.T, r cli, want string) string {
	t.Helper()
	if r.code != exitOK {
		t.Errorf("exit %d after %v:\n%.2000s", r.code, r.took, r.stderr)
		return "unclear"
	}
	if r.stdout != want {
		t.Errorf("the output differs from the local run's")
		return "silent"
	}
	return "clear"
}

func failsWith(t *testing.T, r cli, phrases ...string) string {
	t.Helper()
	if r.code == exitOK {
		t.Errorf("succeeded; want a failure saying %q", phrases)
		return "silent"
	}
	outcome := "clear"
	for _, p := range phrases {
		if !strings.Contains(r.stderr, p) {
			t.Errorf("stderr lacks %q:\n%.2000s", p, r.stderr)
			outcome = "unclear"
		}
	}
	if remoteGoWording.MatchString(r.stderr) {
		t.Errorf("Go's wording reaches the user:\n%.2000s", r.stderr)
		outcome = "unclear"
	}
	return outcome
}

func remoteFaults() []remoteFault {
	const study = "sjf-bsbf-fig6a"
	return []remoteFault{
		{"server killed, back after 5 s", false, func(t *testing.T, want string) string {
			srv := startServer(t, "")
			front := killAfter(t, srv, 2, 5*time.Second)
			r := runCLI("run", study, "--quick", "--format", "json", "--remote", front, "--parallel", "2")
			if r.took < 5*time.Second {
				t.Errorf("done in %v, before the server was back: the study ended before the kill, and the case tested nothing", r.took)
			}
			return sameOutput(t, r, want)
		}},
		{"server down for 30 s (the default retry budget)", true, func(t *testing.T, want string) string {
			srv := startServer(t, "")
			srv.kill()
			time.AfterFunc(30*time.Second, srv.restart)
			r := runCLI("run", study, "--quick", "--format", "json", "--remote", srv.url, "--parallel", "2")
			if r.took < 30*time.Second {
				t.Errorf("done in %v, before the server was back", r.took)
			}
			return sameOutput(t, r, want)
		}},
		{"one of two servers frozen", true, func(t *testing.T, want string) string {
			a, b := startServer(t, ""), startServer(t, "")
			a.freeze()
			defer a.thaw()
			r := runCLI("run", study, "--quick", "--format", "json", "--remote", a.url+","+b.url, "--parallel", "4", "--request-timeout", "5s")
			// Stalled points used to wait for the frozen server for good; 5
			// minutes is far above the few seconds a point takes (under
			// -race, on a loaded machine, the study took 2 minutes).
			if r.took > 5*time.Minute {
				t.Errorf("took %v with a frozen server and a 5 s request timeout", r.took)
				return "hang"
			}
			return sameOutput(t, r, want)
		}},
		{"a busy server (one run at a time, no queue)", false, func(t *testing.T, want string) string {
			srv := startServer(t, "", "--max-running", "1", "--queue", "0")
			r := runCLI("run", study, "--quick", "--format", "json", "--remote", srv.url, "--parallel", "6")
			return sameOutput(t, r, want)
		}},
		{"server killed for good: points saved, then resumed", false, func(t *testing.T, want string) string {
			srv := startServer(t, "")
			front := killAfter(t, srv, 4, 0)
			points := filepath.Join(t.TempDir(), "fig6a.points.json")
			r := runCLI("run", study, "--quick", "--format", "json", "--remote", front, "--parallel", "2", "--retry-for", "3s", "--resume", points)
			outcome := failsWith(t, r, "nothing answers at "+front+"/v1/sweep-point (connection refused)", "gave up after", "are saved in "+points, "--resume "+points)
			if strings.Contains(r.stderr, "context canceled") {
				t.Errorf("the error is a sibling's cancellation:\n%s", r.stderr)
				outcome = "unclear"
			}
			var saved struct {
				Answers []json.RawMessage `json:"answers"`
				Total   int               `json:"points"`
			}
			data, err := os.ReadFile(points)
			if err != nil || json.Unmarshal(data, &saved) != nil || len(saved.Answers) == 0 || len(saved.Answers) >= saved.Total {
				t.Errorf("the points done were not saved in %s (%v): %.300s", points, err, data)
				return "unclear"
			}
			t.Logf("%d of %d points saved", len(saved.Answers), saved.Total)
			srv.restart()
			r2 := runCLI("run", study, "--quick", "--format", "json", "--remote", srv.url, "--resume", points)
			if o := sameOutput(t, r2, want); o != "clear" {
				return o
			}
			if !strings.Contains(r2.stderr, fmt.Sprintf("resuming with %d of %d points done", len(saved.Answers), saved.Total)) {
				t.Errorf("the resumed run does not say it resumes:\n%s", r2.stderr)
				return "unclear"
			}
			return outcome
		}},
		{"every point refused (422)", false, func(t *testing.T, want string) string {
			srv := startServer(t, "")
			// Two points of 120,000 jobs: within the scenario limits, above
			// the server's 100,000 jobs per run.
			doc := `{"name": "big", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
				"workload": {"generator": {"kind": "poisson", "jobs": 120000, "jobs_per_hour": 1000, "gpu_mix": [{"gpus": 1, "weight": 1}],
					"duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "m", "weight": 1}]}},
				"policies": [{"name": "fifo"}], "sweep": {"label": "restart", "values": [1, 2], "params": ["engine.restart_s"]}}`
			file := writeTemp(t, "big.json", doc)
			r := runCLI("run", file, "--remote", srv.url, "--resume", filepath.Join(t.TempDir(), "p.json"))
			return failsWith(t, r, "422 Unprocessable Entity", "a run has 120000 jobs, above this server's limit of 100000 jobs per run")
		}},
		{"a server that answers garbage", false, func(t *testing.T, want string) string {
			liar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"values": null}`))
			}))
			defer liar.Close()
			r := runCLI("run", study, "--quick", "--remote", liar.URL, "--retry-for", "1s", "--resume", filepath.Join(t.TempDir(), "p.json"))
			return failsWith(t, r, "the answer is not a sweep point's answer")
		}},
		{"a server slower than the request timeout", false, func(t *testing.T, want string) string {
			slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body) // then net/http notices the client leave
				select {
				case <-r.Context().Done():
				case <-time.After(time.Minute):
				}
			}))
			defer slow.Close()
			r := runCLI("run", study, "--quick", "--remote", slow.URL, "--request-timeout", "1s", "--retry-for", "2s", "--resume", filepath.Join(t.TempDir(), "p.json"))
			if r.took > 30*time.Second {
				return "hang"
			}
			return failsWith(t, r, "gave no answer within 1s (the request timeout)")
		}},
		{"--remote on a plain scenario", false, func(t *testing.T, want string) string {
			r := runCLI("run", "fifo-vs-sjf", "--remote", "http://127.0.0.1:1")
			if r.code != exitInvalid {
				t.Errorf("exit %d, want %d", r.code, exitInvalid)
			}
			return failsWith(t, r, "--remote and --resume run a study's sweep points on servers, and fifo-vs-sjf is not a study")
		}},
		{"--resume with a file that is not saved points", false, func(t *testing.T, want string) string {
			file := writeTemp(t, "p.json", `{"hello": 1}`)
			r := runCLI("run", study, "--quick", "--remote", "http://127.0.0.1:1", "--resume", file)
			return failsWith(t, r, "not a file of saved sweep points")
		}},
		{"--resume with another study's points", false, func(t *testing.T, want string) string {
			file := writeTemp(t, "p.json", `{"key": "abc", "study": "load-sweep", "points": 6, "answers": []}`)
			r := runCLI("run", study, "--quick", "--remote", "http://127.0.0.1:1", "--resume", file)
			return failsWith(t, r, "the saved points are of another study, version or split (study load-sweep, 6 points; this run has sjf-bsbf-fig6a, ") // its point count follows the scenario
		}},
		{"--request-timeout 0", false, func(t *testing.T, want string) string {
			r := runCLI("run", study, "--quick", "--remote", "http://127.0.0.1:1", "--request-timeout", "0s")
			return failsWith(t, r, "--request-timeout is 0s; it must be more than 0")
		}},
		{"--retry-for -1s", false, func(t *testing.T, want string) string {
			r := runCLI("run", study, "--quick", "--remote", "http://127.0.0.1:1", "--retry-for", "-1s")
			return failsWith(t, r, "--retry-for is -1s; it must be 0 (no retries) or more")
		}},
	}
}

// killAfter is a front for srv that passes requests on until n answers
// have gone back, then kills srv and stops listening, so that a study
// sent to it loses its server after exactly n points however fast they
// go (watching the progress for the kill let a quick study finish
// first). With back > 0 the server starts again that long after and the
// front listens again on its address; with 0 both stay down. Each
// request comes on a connection of its own, so that no open connection
// outlives the front.
func killAfter(t *testing.T, srv *server, n int64, back time.Duration) (url string) {
	t.Helper()
	target, err := neturl.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	proxy := httputil.NewSingleHostReverseProxy(target)
	var answered atomic.Int64
	var once sync.Once
	front := &http.Server{}
	comeBack := func() {
		srv.restart()
		again, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("the front cannot listen again on %s: %v", addr, err)
			return
		}
		go front.Serve(again)
	}
	front.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxy.ServeHTTP(w, r)
		if answered.Add(1) == n {
			once.Do(func() {
				ln.Close()
				srv.kill()
				if back > 0 {
					time.AfterFunc(back, comeBack)
				}
			})
		}
	})
	front.SetKeepAlivesEnabled(false)
	go front.Serve(ln)
	t.Cleanup(func() { front.Close() })
	return "http://" + addr
}

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRemoteFaultCatalogue(t *testing.T) {
	if testing.Short() {
		t.Skip("starts, kills and freezes servers")
	}
	want := localStudy(t, "sjf-bsbf-fig6a")
	totals := map[string]int{}
	for _, c := range remoteFaults() {
		t.Run(c.name, func(t *testing.T) {
			if c.wait && raceDetector {
				t.Skip("mostly waits; slow under -race")
			}
			start := time.Now()
			o := c.run(t, want)
			totals[o]++
			t.Logf("%s: %s in %v", c.name, o, time.Since(start).Round(100*time.Millisecond))
		})
	}
	t.Logf("remote faults: %d clear, %d unclear, %d hang, %d OOM, %d silent", totals["clear"], totals["unclear"], totals["hang"], totals["OOM"], totals["silent"])
}
