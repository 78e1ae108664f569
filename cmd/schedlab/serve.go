//go:build !js

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schedlab/schedlab/build/static"
	"github.com/schedlab/schedlab/sim/api"
)

// cmdServe serves the built site and the JSON API on one address: /v1/…
// is the API, everything else the site's files (precompressed copies
// where the browser takes them, as build/serve does).
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "address to listen on")
	dir := fs.String("dir", "build/out", "the built site to serve (make site); without it, only the API")
	workers := fs.Int("workers", runtime.NumCPU(), "runs of one request in parallel")
	timeout := fs.Duration("timeout", 10*time.Minute, "longest a request may take, from its arrival (waiting for its turn included)")
	running := fs.Int("max-running", runtime.NumCPU(), "requests that do work at once")
	queued := fs.Int("queue", api.DefaultMaxQueued, "requests that may wait for a turn; more are refused with 503 and Retry-After (0: none wait)")
	bodyTimeout := fs.Duration("body-timeout", api.DefaultBodyTimeout, "longest a client may take to send a request's body")
	maxAnswer := fs.Int64("max-answer-mb", api.DefaultLimits.MaxAnswerBytes>>20, "largest answer in MiB (a run's per-job records are about 450 bytes a job)")
	origins := fs.String("allow-origin", "", "web origins whose pages may POST to the API from a browser, comma-separated (e.g. https://example.org, or * for any); by default none")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab serve [--addr HOST:PORT] [--dir DIR] [--workers N] [--timeout D] [--max-running N] [--queue N] [--body-timeout D] [--max-answer-mb N] [--allow-origin LIST]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == nil {
			fs.Usage()
		}
		return exitInvalid
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"--workers", int64(*workers)}, {"--max-running", int64(*running)}, {"--max-answer-mb", *maxAnswer}} {
		if f.v < 1 {
			fmt.Fprintf(stderr, "schedlab serve: %s must be at least 1, got %d\n", f.name, f.v)
			return exitInvalid
		}
	}
	for _, f := range []struct {
		bad  bool
		name string
		v    any
		want string
	}{
		{*queued < 0, "--queue", *queued, "at least 0 (0: none wait)"},
		{*timeout < 0, "--timeout", *timeout, "at least 0 (0: no limit)"},
		{*bodyTimeout <= 0, "--body-timeout", *bodyTimeout, "more than 0, such as 30s"},
	} {
		if f.bad {
			fmt.Fprintf(stderr, "schedlab serve: %s must be %s, got %v\n", f.name, f.want, f.v)
			return exitInvalid
		}
	}
	o := api.Options{Workers: *workers, Timeout: *timeout, MaxRunning: *running, MaxQueued: *queued, BodyTimeout: *bodyTimeout,
		Limits: api.Limits{MaxAnswerBytes: *maxAnswer << 20}, AllowOrigins: splitList(*origins)}
	if *queued == 0 {
		o.MaxQueued = -1
	}
	h, site := serveHandler(*dir, o)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab serve:", err)
		return exitFailed
	}
	if site {
		fmt.Fprintf(stdout, "schedlab is at http://%s/ and its API at http://%s/v1/ (Ctrl-C stops)\n", ln.Addr(), ln.Addr())
	} else {
		fmt.Fprintf(stdout, "no built site in %s (make site builds it): serving only the API at http://%s/v1/ (Ctrl-C stops)\n", *dir, ln.Addr())
	}
	if f, ok := stdout.(interface{ Flush() }); ok {
		f.Flush()
	}
	if err := newServer(h).Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "schedlab serve:", err)
		return exitFailed
	}
	return exitOK
}

// newServer is the HTTP server of schedlab serve. Headers must arrive
// within 10 s and an idle connection closes after 2 minutes; the API sets
// its own deadline for a body (--body-timeout). There is no ReadTimeout:
// net/http keeps reading a connection while its handler runs, to notice a
// client leaving, and that read timing out would cancel a long run.
func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}

func splitList(s string) []string {
	var out []string
	for v := range strings.SplitSeq(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// serveHandler is the API under /v1/ and the site in dir elsewhere; site
// is false when dir holds no index.html.
func serveHandler(dir string, o api.Options) (h http.Handler, site bool) {
	a := api.New(o) // one handler: one queue for every request
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		return a, false
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", a)
	mux.Handle("/", static.Handler(dir))
	return mux, true
}
