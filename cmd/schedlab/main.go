// Command schedlab runs schedlab's GPU-cluster scheduling simulations from
// the command line.
//
//	schedlab list                      built-in scenarios
//	schedlab policies                  registered policies
//	schedlab run NAME|FILE [flags]     run every policy of a scenario
//	                                   (--policies a,b: these policies instead)
//	schedlab validate FILE...          check scenario files
//	schedlab import FORMAT FILE [flags] a scenario from a public trace
//	schedlab gavel-fig12 [flags]       time Gavel's policies (Figure 12)
//	schedlab reproduce [flags]         every paper figure, with verdicts
//	schedlab serve [--addr A]          the site and the JSON API
//	schedlab lp FILE.mps               solve a free-MPS linear program
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	_ "github.com/schedlab/schedlab/sim/policy/all"
)

const usage = `schedlab simulates deep-learning job scheduling on GPU clusters.

Usage:
  schedlab list                       list the built-in scenarios
  schedlab policies                   list the policies and their parameters
  schedlab run NAME|FILE [flags]      run every policy of a scenario;
                                      --policies a,b runs these registered policies instead
  schedlab validate FILE...           check scenario files (exit 2 if invalid)
  schedlab import FORMAT FILE [flags] a scenario from a trace (philly, pollux, gavel, tiresias, helios, pai, jobs)
  schedlab gavel-fig12 [--out DIR]    time Gavel's policy computations against active jobs (Figure 12, log-log)
  schedlab reproduce [flags]          run every paper figure (--paper P, --figure F, --quick, --seeds N,
                                      --out DIR, --parallel N): figures with the papers' values and a report
  schedlab serve [--addr A] [--dir D] the built site and the JSON API (/v1/…) on one address
  schedlab lp FILE.mps [--format F]   solve a free-MPS linear program (e.g. one written by run --dump-lp):
                                      status, objective, iterations and milliseconds (--format text|json)

Run "schedlab run -h" for the flags of run.
`

// exit codes
const (
	exitOK      = 0
	exitFailed  = 1 // a run stopped with an error
	exitInvalid = 2 // bad usage or an invalid scenario
)

func main() {
	if runtime.GOARCH == "wasm" {
		collectNearLimit()
	}
	out, errOut := &safeWriter{w: os.Stdout}, &safeWriter{w: os.Stderr}
	code := dispatch(os.Args[1:], out, errOut)
	out.Flush()
	errOut.Flush()
	os.Exit(code)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInvalid
	}
	switch args[0] {
	case "list":
		return cmdList(stdout)
	case "policies":
		return cmdPolicies(stdout)
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "import":
		return cmdImport(args[1:], stdout, stderr)
	case "gavel-fig12":
		return cmdGavelFig12(args[1:], stdout, stderr)
	case "reproduce":
		return cmdReproduce(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "lp":
		return cmdLP(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "schedlab: unknown command %q\n\n%s", args[0], usage)
	return exitInvalid
}
