//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/results"
)

// TestServe: one address serves the site (its gzip copy where accepted)
// and the API.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	page := []byte("<!doctype html><title>schedlab</title>")
	os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(page)
	zw.Close()
	os.WriteFile(filepath.Join(dir, "index.html.gz"), gz.Bytes(), 0o644)
	h, site := serveHandler(dir, api.Options{})
	if !site {
		t.Fatal("the site was not found")
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("GET / with gzip: encoding %q, %d bytes", resp.Header.Get("Content-Encoding"), len(body))
	}
	resp, err = http.Get(srv.URL + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status": "ok"`) {
		t.Errorf("GET /v1/health: %d %s", resp.StatusCode, body)
	}
}

// TestRunRemote: `schedlab run STUDY --remote URL --format json` prints
// what the local run prints, byte for byte, and the text report too.
func TestRunRemote(t *testing.T) {
	srv := httptest.NewServer(api.New(api.Options{}))
	defer srv.Close()
	for _, format := range []string{"json", "table"} {
		var local, remote, errOut bytes.Buffer
		if code := dispatch([]string{"run", "sjf-bsbf-fig6a", "--quick", "--format", format}, &local, &errOut); code != exitOK {
			t.Fatalf("local run: exit %d: %s", code, errOut.String())
		}
		if code := dispatch([]string{"run", "sjf-bsbf-fig6a", "--quick", "--format", format, "--remote", srv.URL + "," + srv.URL, "--parallel", "3"}, &remote, &errOut); code != exitOK {
			t.Fatalf("remote run: exit %d: %s", code, errOut.String())
		}
		if !bytes.Equal(local.Bytes(), remote.Bytes()) {
			t.Errorf("%s: the remote run prints\n%s\nthe local one\n%s", format, remote.String(), local.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "load-sweep", "--remote", "ftp://x"}, &out, &errOut); code != exitInvalid || !strings.Contains(errOut.String(), "not an http") {
		t.Errorf("a bad URL: exit %d, %s", code, errOut.String())
	}
}

// TestReproduceRemote: reproduce with --remote writes the same report and
// figures as a local reproduce.
func TestReproduceRemote(t *testing.T) {
	srv := httptest.NewServer(api.New(api.Options{}))
	defer srv.Close()
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, extra := range [][]string{nil, {"--remote", srv.URL, "--parallel", "2"}} {
		var out, errOut bytes.Buffer
		args := append([]string{"reproduce", "--figure", "sjf-bsbf-fig6a", "--quick", "--formats", "svg", "--out", dirs[i]}, extra...)
		if code := dispatch(args, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
	}
	// The CPU a figure took is known where it ran: here, not remotely.
	for i, want := range []bool{true, false} {
		var rep results.Reproduction
		data, _ := os.ReadFile(filepath.Join(dirs[i], "report.json"))
		if err := json.Unmarshal(data, &rep); err != nil || len(rep.Papers) == 0 || len(rep.Papers[0].Figures) == 0 {
			t.Fatalf("report %d: %v", i, err)
		}
		if c := rep.Papers[0].Figures[0].Cost; (c.SecondsPerRun() > 0) != want {
			t.Errorf("report %d (remote %v): cost %+v", i, i == 1, c)
		}
	}
	for _, f := range []string{"report.json", "report.md", "figures/sjf-bsbf-fig6a.svg"} {
		a, errA := os.ReadFile(filepath.Join(dirs[0], f))
		b, errB := os.ReadFile(filepath.Join(dirs[1], f))
		if f == "report.json" { // the same but for when and how long each ran
			a, b = withoutRunInfo(t, a), withoutRunInfo(t, b)
		}
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the local and the remote reproduce (%v, %v)", f, errA, errB)
		}
	}
}

// withoutRunInfo is a report.json without its date and times, and
// without the CPU its figures took.
func withoutRunInfo(t *testing.T, data []byte) []byte {
	t.Helper()
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Run == nil {
		t.Error("report.json has no run information")
	}
	rep.Run = nil
	for i := range rep.Papers {
		for j := range rep.Papers[i].Figures {
			rep.Papers[i].Figures[j].Cost = nil
		}
	}
	out, _ := json.Marshal(rep)
	return out
}

// TestServeFlags: a wrong number among serve's limits is named with its
// value and what it must be, before anything listens.
func TestServeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-running", "0"}, "--max-running must be at least 1, got 0"},
		{[]string{"--workers", "-2"}, "--workers must be at least 1, got -2"},
		{[]string{"--max-answer-mb", "0"}, "--max-answer-mb must be at least 1, got 0"},
		{[]string{"--queue", "-1"}, "--queue must be at least 0 (0: none wait), got -1"},
		{[]string{"--timeout", "-5s"}, "--timeout must be at least 0 (0: no limit), got -5s"},
		{[]string{"--body-timeout", "0s"}, "--body-timeout must be more than 0, such as 30s, got 0s"},
	} {
		var out, errOut bytes.Buffer
		code := dispatch(append([]string{"serve", "--addr", "127.0.0.1:99999"}, c.args...), &out, &errOut)
		if code != exitInvalid || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("serve %s: exit %d, stderr %q; want exit %d saying %q", strings.Join(c.args, " "), code, errOut.String(), exitInvalid, c.want)
		}
	}
}
