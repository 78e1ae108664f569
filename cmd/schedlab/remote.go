package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/scenario"
)

// runRemote runs a study's sweep points on API servers (schedlab serve,
// or the Workers build) and prints what runStudy prints for it. Plots
// and --out are local only: the servers send back values and run
// summaries, not the runs' records.
func runRemote(sc *scenario.Scenario, quick bool, format, urls string, parallel int, stdout, stderr io.Writer) int {
	if parallel < 1 {
		fmt.Fprintln(stderr, "schedlab: --parallel must be at least 1")
		return exitInvalid
	}
	list, err := remoteURLs(urls)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitInvalid
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := start
	st, out, err := api.RunRemote(ctx, sc, quick, api.RemoteOptions{URLs: list, Parallel: parallel,
		Progress: func(done, total int) {
			if now := time.Now(); now.Sub(last) > time.Second || done == total {
				last = now
				fmt.Fprintf(stderr, "remote: %d/%d points done in %.1f s\n", done, total, now.Sub(start).Seconds())
			}
		}})
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	if format == "json" {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
	} else {
		st.WriteOutputText(stdout, out)
	}
	for _, r := range out.Runs {
		if r.Error != "" {
			return exitFailed
		}
	}
	return exitOK
}

// remoteURLs reads --remote: http(s) URLs separated by commas.
func remoteURLs(arg string) ([]string, error) {
	var list []string
	for u := range strings.SplitSeq(arg, ",") {
		if u = strings.TrimSpace(u); u != "" {
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
				return nil, fmt.Errorf("--remote: %q is not an http:// or https:// URL", u)
			}
			list = append(list, u)
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("--remote: give at least one server URL")
	}
	return list, nil
}
