package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/scenario"
)

// runStudy runs a scenario that reproduces a paper figure or table: every
// sweep value, seed and policy, then the paper's numbers beside ours and a
// verdict per check.
func runStudy(sc *scenario.Scenario, quick bool, format, out string, workers int, paranoid bool, sink experiment.LPSink, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(stderr)
	st, err := experiment.RunStudy(ctx, sc, experiment.StudyOptions{Quick: quick, Workers: workers, Paranoid: paranoid, Progress: prog.update, LPSink: sink, Compact: out == ""})
	prog.done()
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	if format == "json" {
		if err := writeJSON(stdout, st.Output()); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
	} else {
		st.WriteText(stdout)
	}
	if out != "" {
		if err := writeStudy(st, out); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
		fmt.Fprintf(stderr, "wrote plots and results to %s\n", out)
	}
	for _, p := range st.Points {
		if len(p.Report.Failed()) > 0 {
			return exitFailed
		}
	}
	return exitOK
}

// writeStudy writes study.json, jobs.csv of every run, the sweep figure,
// and the scenario's own plots of the first seed when there is no sweep.
func writeStudy(st *experiment.Study, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := writeFile(filepath.Join(dir, "study.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st.Output())
	})
	if err != nil {
		return err
	}
	err = writeFile(filepath.Join(dir, "jobs.csv"), func(w io.Writer) error {
		for i, p := range st.Points {
			if err := p.Report.WriteJobsCSV(headerOnce(w, i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var figs []experiment.NamedFigure
	if f, err := st.SweepFigure(plot.Options{}); err != nil {
		return err
	} else if f != nil {
		figs = append(figs, *f)
	}
	if len(st.Points) == 1 {
		rep := st.Points[0].Report
		more, err := rep.Figures(rep.Runs[0].Seed, plot.Options{})
		if err != nil {
			return err
		}
		figs = append(figs, more...)
	}
	return writeFigures(figs, dir)
}

// headerOnce drops the CSV header line of every report but the first.
func headerOnce(w io.Writer, i int) io.Writer {
	if i == 0 {
		return w
	}
	return &skipFirstLine{w: w}
}

type skipFirstLine struct {
	w    io.Writer
	done bool
}

func (s *skipFirstLine) Write(p []byte) (int, error) {
	n := len(p)
	if !s.done {
		for i, b := range p {
			if b == '\n' {
				s.done = true
				p = p[i+1:]
				break
			}
		}
		if !s.done {
			return n, nil
		}
	}
	_, err := s.w.Write(p)
	return n, err
}
