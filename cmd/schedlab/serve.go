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
	timeout := fs.Duration("timeout", 10*time.Minute, "longest a request may run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab serve [--addr HOST:PORT] [--dir DIR] [--workers N] [--timeout D]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == nil {
			fs.Usage()
		}
		return exitInvalid
	}
	h, site := serveHandler(*dir, api.Options{Workers: *workers, Timeout: *timeout})
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
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "schedlab serve:", err)
		return exitFailed
	}
	return exitOK
}

// serveHandler is the API under /v1/ and the site in dir elsewhere; site
// is false when dir holds no index.html.
func serveHandler(dir string, o api.Options) (h http.Handler, site bool) {
	mux := http.NewServeMux()
	mux.Handle("/v1/", api.New(o))
	if _, err := os.Stat(dir + "/index.html"); err == nil {
		mux.Handle("/", static.Handler(dir))
		return mux, true
	}
	mux.Handle("/", api.New(o))
	return mux, false
}
