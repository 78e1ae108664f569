//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// remoteOptions say how the sweep points go to the servers.
type remoteOptions = api.RemoteOptions

// runStudyRemote runs a study's sweep points on the servers.
func runStudyRemote(ctx context.Context, sc *scenario.Scenario, quick bool, o *remoteOptions) (*experiment.Study, experiment.StudyOutput, error) {
	return api.RunRemote(ctx, sc, quick, *o)
}

// options reads the flags into RemoteOptions.
func (f remoteFlags) options(parallel int) (api.RemoteOptions, error) {
	list, err := remoteURLs(*f.urls)
	if err != nil {
		return api.RemoteOptions{}, err
	}
	if *f.retryFor < 0 {
		return api.RemoteOptions{}, fmt.Errorf("--retry-for is %s; it must be 0 (no retries) or more", *f.retryFor)
	}
	if *f.timeout <= 0 {
		return api.RemoteOptions{}, fmt.Errorf("--request-timeout is %s; it must be more than 0, such as 10m", *f.timeout)
	}
	return api.RemoteOptions{URLs: list, Parallel: parallel, RetryFor: max(*f.retryFor, time.Nanosecond), Timeout: *f.timeout}, nil
}

// runRemote runs a study's sweep points on API servers (schedlab serve,
// or the Workers build) and prints what runStudy prints for it. Plots
// and --out are local only: the servers send back values and run
// summaries, not the runs' records. When it stops before the end, the
// points done so far are saved, in the --resume file or in a file named
// after the study, and --resume FILE continues from them.
func runRemote(sc *scenario.Scenario, quick bool, format string, rf remoteFlags, parallel int, resume string, stdout, stderr io.Writer) int {
	if parallel < 1 {
		fmt.Fprintln(stderr, "schedlab: --parallel must be at least 1")
		return exitInvalid
	}
	o, err := rf.options(parallel)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitInvalid
	}
	save := resume
	if resume != "" {
		done, err := readPoints(resume)
		if err != nil {
			fmt.Fprintf(stderr, "schedlab: --resume %s: %v\n", resume, err)
			return exitInvalid
		}
		if done != nil {
			fmt.Fprintf(stderr, "remote: resuming with %d of %d points done (%s)\n", len(done.Answers), done.Total, resume)
		}
		o.Done = done
	} else {
		save = pointsFile(sc, quick)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := start
	o.Progress = func(done, total int) {
		if now := time.Now(); now.Sub(last) > time.Second || done == total {
			last = now
			fmt.Fprintf(stderr, "remote: %d/%d points done in %.1f s\n", done, total, now.Sub(start).Seconds())
		}
	}
	st, out, err := api.RunRemote(ctx, sc, quick, o)
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		var f *api.RemoteFailure
		if errors.As(err, &f) && len(f.Done.Answers) > 0 {
			if werr := writePoints(save, f.Done); werr != nil {
				fmt.Fprintf(stderr, "schedlab: saving the %d points done: %v\n", len(f.Done.Answers), werr)
			} else {
				fmt.Fprintf(stderr, "schedlab: the %d of %d points done are saved in %s; run the same command with --resume %s to continue from them\n",
					len(f.Done.Answers), f.Done.Total, save, save)
			}
		}
		return exitFailed
	}
	if resume != "" {
		os.Remove(resume) // done: its points are in the output
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

// pointsFile is where a stopped remote study's points go without
// --resume: NAME[-quick].points.json in the current folder.
func pointsFile(sc *scenario.Scenario, quick bool) string {
	name := sc.Name
	if quick && sc.Quick != nil {
		name += "-quick"
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, name)
	return name + ".points.json"
}

// readPoints reads saved points; a file that does not exist is no points.
func readPoints(path string) (*api.RemotePoints, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p api.RemotePoints
	if err := json.Unmarshal(data, &p); err != nil || p.Key == "" {
		return nil, fmt.Errorf("not a file of saved sweep points (schedlab run --remote writes them when it stops early)")
	}
	return &p, nil
}

func writePoints(path string, p *api.RemotePoints) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
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
