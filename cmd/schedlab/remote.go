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
	var list []string
	for u := range strings.SplitSeq(urls, ",") {
		if u = strings.TrimSpace(u); u != "" {
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
				fmt.Fprintf(stderr, "schedlab: --remote: %q is not an http:// or https:// URL\n", u)
				return exitInvalid
			}
			list = append(list, u)
		}
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
