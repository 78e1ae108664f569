package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/policy/gavel/paper"
)

// cmdGavelFig12 reproduces Gavel's Figure 12 as a benchmark: the time to
// compute each policy's allocation against the number of active jobs, on
// log-log axes. Times are this machine's wall clock, so they are not part
// of any scenario's (deterministic) results.
func cmdGavelFig12(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gavel-fig12", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write fig12.csv and the log-log plot (SVG and PNG) into this directory")
	maxJobs := fs.Int("max", 2048, "largest number of active jobs (powers of two from 32)")
	kinds := fs.String("kinds", "las,las-ss,hierarchical,makespan,ftf,cost", "policies to time: "+strings.Join(paper.ScalabilityKinds, ","))
	perJobMax := fs.Int("per-job-max", 512, "largest number of jobs for per-job LPs (makespan, ftf, cost) and hierarchical-ss")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return exitInvalid
	}
	var series []plot.Series
	var rows [][]string
	fmt.Fprintf(stdout, "%-16s %8s %12s %6s\n", "policy", "jobs", "seconds", "LPs")
	for _, kind := range strings.Split(*kinds, ",") {
		s := plot.Series{Name: kind}
		limit := *maxJobs
		if kind == "makespan" || kind == "ftf" || kind == "cost" || kind == "hierarchical-ss" {
			limit = min(limit, *perJobMax)
		}
		for m := 32; m <= limit; m *= 2 {
			p, err := paper.Scalability(kind, m, 1)
			if err != nil {
				fmt.Fprintln(stderr, "schedlab:", err)
				return exitInvalid
			}
			fmt.Fprintf(stdout, "%-16s %8d %12.4f %6d\n", kind, m, p.Seconds, p.LPs)
			s.X, s.Y = append(s.X, float64(m)), append(s.Y, p.Seconds)
			rows = append(rows, []string{kind, strconv.Itoa(m), strconv.FormatFloat(p.Seconds, 'g', 6, 64), strconv.Itoa(p.LPs)})
		}
		series = append(series, s)
	}
	if *out == "" {
		return exitOK
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	err := writeFile(filepath.Join(*out, "fig12.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"policy", "jobs", "seconds", "lps"})
		cw.WriteAll(rows)
		return cw.Error()
	})
	if err == nil {
		var f *plot.Figure
		f, err = plot.Lines("Gavel Figure 12: policy computation time", "active jobs", "seconds", series, plot.Options{LogX: true, LogY: true, EmbedFonts: true})
		if err == nil {
			err = writeFigures([]experiment.NamedFigure{{Name: "fig12", Title: "Gavel Figure 12", Figure: f}}, *out)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "schedlab:", err)
		return exitFailed
	}
	fmt.Fprintf(stderr, "wrote fig12.csv and fig12.svg/png to %s\n", *out)
	return exitOK
}
