package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// lpReport is one solved file, as `schedlab lp --format json` prints it.
type lpReport struct {
	File       string   `json:"file"`
	Name       string   `json:"name"`
	Rows       int      `json:"rows"`
	Cols       int      `json:"cols"`
	Nonzeros   int      `json:"nonzeros"`
	Status     string   `json:"status"`
	Objective  *float64 `json:"objective,omitempty"`
	Iterations int      `json:"iterations"`
	Millis     float64  `json:"ms"`
	Violation  float64  `json:"max_violation"`
}

// cmdLP solves free-format MPS files (gzipped if they end in .gz) with
// schedlab's own solver, so a dumped LP can be checked against another
// solver: status, objective, simplex iterations and the solve's wall time.
func cmdLP(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedlab lp FILE.mps[.gz]... [--format text|json]")
		fs.PrintDefaults()
	}
	var files []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return exitInvalid
		}
		args = fs.Args()
		if len(args) > 0 {
			files = append(files, args[0])
			args = args[1:]
		}
	}
	if len(files) == 0 || (*format != "text" && *format != "json") {
		fs.Usage()
		return exitInvalid
	}
	var reports []lpReport
	code := exitOK
	for _, file := range files {
		r, err := solveMPSFile(file)
		if err != nil {
			fmt.Fprintf(stderr, "schedlab: %s: %v\n", file, err)
			code = exitInvalid
			continue
		}
		reports = append(reports, r)
		if *format == "text" {
			printLPReport(stdout, r, len(files) > 1)
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		var v any = reports
		if len(files) == 1 && len(reports) == 1 {
			v = reports[0]
		}
		if err := enc.Encode(v); err != nil {
			fmt.Fprintln(stderr, "schedlab:", err)
			return exitFailed
		}
	}
	return code
}

func solveMPSFile(file string) (lpReport, error) {
	f, err := os.Open(file)
	if err != nil {
		return lpReport{}, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return lpReport{}, err
		}
		defer zr.Close()
		r = zr
	}
	p, err := lp.ReadMPS(r)
	if err != nil {
		return lpReport{}, err
	}
	start := time.Now()
	sol, err := lp.Solve(p, lp.Options{})
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return lpReport{}, err
	}
	rep := lpReport{File: file, Name: p.Name, Rows: p.NumRows(), Cols: p.NumCols(), Nonzeros: p.NumNonzeros(),
		Status: sol.Status.String(), Iterations: sol.Iterations, Millis: ms, Violation: p.Violation(sol.X)}
	if sol.Status == lp.Optimal {
		obj := sol.Objective
		rep.Objective = &obj
	}
	return rep, nil
}

func printLPReport(w io.Writer, r lpReport, named bool) {
	if named {
		fmt.Fprintf(w, "%s\n", r.File)
	}
	fmt.Fprintf(w, "problem     %s (%d rows, %d columns, %d nonzeros)\n", r.Name, r.Rows, r.Cols, r.Nonzeros)
	fmt.Fprintf(w, "status      %s\n", r.Status)
	if r.Objective != nil {
		fmt.Fprintf(w, "objective   %.17g\n", *r.Objective)
		fmt.Fprintf(w, "violation   %.3g\n", math.Max(r.Violation, 0))
	}
	fmt.Fprintf(w, "iterations  %d\n", r.Iterations)
	fmt.Fprintf(w, "time        %.3f ms\n", r.Millis)
}
