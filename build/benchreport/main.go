// Command benchreport measures schedlab's performance table: the engine's
// events per CPU-second at a million jobs, the command line's CPU and
// memory at 100,000 and 1,000,000 jobs natively and in WebAssembly under
// node, the LP solver against HiGHS, every Gavel study in full, the page's
// cold load and every policy on the whole Philly log. It prints each row
// beside its target and, where there is one, a peer's figure or a limit,
// and with -docs writes the table into docs/development.md. `make bench`
// runs it last. Run it from the repository's root.
//
// Every CPU figure is user plus system time of the process (under node,
// every thread of node, its compiler's and collector's too): on a shared
// machine it is steadier than wall time. Ratios come from runs interleaved
// in the same minutes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/build/wasmsize"
)

// options are the command's flags.
type options struct {
	runs       int    // repetitions of each command-line measurement
	gavel      bool   // run every Gavel study in full (a quarter of an hour)
	philly     string // the Philly log, or "" to skip its rows
	site       string // the built site for the page's cold loads, or ""
	highs      string // a HiGHS timing program (build/benchreport/highstime), or "" for the stored figures
	onlyLP     bool   // measure the LP rows only
	onlyPhilly bool   // with philly: measure the Philly rows only
	docs       bool   // write the table into docs/development.md
}

func main() {
	var o options
	flag.IntVar(&o.runs, "runs", 3, "repetitions of each command-line and engine measurement")
	flag.BoolVar(&o.gavel, "gavel", false, "also run every Gavel study in full (about a quarter of an hour)")
	flag.StringVar(&o.philly, "philly", "", "the Philly log (Pollux's traces/philly.csv): run every policy on it, 60 s of CPU each at most")
	flag.StringVar(&o.site, "site", "", "the built site (make site's build/out): time cold loads of the page in headless Chromium")
	flag.StringVar(&o.highs, "highs", "", "a HiGHS timing program built from build/benchreport/highstime: time HiGHS on the dumped LPs in this run, alternating with ours (without it, the LP rows divide by HiGHS figures stored from another day)")
	flag.BoolVar(&o.onlyLP, "only-lp", false, "measure only the LP solver's rows (quick; with -highs, ours against HiGHS)")
	flag.BoolVar(&o.onlyPhilly, "only-philly", false, "with -philly: measure only the Philly log's rows (every policy, up to a minute of CPU each)")
	flag.BoolVar(&o.docs, "docs", false, "write the table into "+docFile)
	flag.Parse()
	if o.runs < 1 {
		fmt.Fprintln(os.Stderr, "benchreport: -runs must be at least 1")
		os.Exit(2)
	}
	if (o.onlyLP || o.onlyPhilly) && o.docs {
		fmt.Fprintln(os.Stderr, "benchreport: -only-lp and -only-philly measure part of the table; they cannot write it with -docs")
		os.Exit(2)
	}
	if o.onlyPhilly && (o.philly == "" || o.onlyLP) {
		fmt.Fprintln(os.Stderr, "benchreport: -only-philly needs -philly FILE, and not -only-lp")
		os.Exit(2)
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	root, err := wasmsize.Root()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "schedlab-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	m := &measurer{root: root, tmp: tmp, runs: o.runs, highs: o.highs}
	if o.onlyLP {
		fmt.Print(render(m.lp(ctx), nil))
		return nil
	}
	progress("building the command line, natively and for WebAssembly")
	if err := m.build(ctx); err != nil {
		return err
	}
	if o.onlyPhilly {
		fmt.Print(render(nil, m.phillyLog(ctx, o.philly)))
		return nil
	}
	var rows []row
	rows = append(rows, m.smallRuns(ctx)...)
	rows = append(rows, m.engine(ctx)...)
	rows = append(rows, m.cliRatio(ctx)...)
	rows = append(rows, m.millionJobs(ctx)...)
	rows = append(rows, m.lp(ctx)...)
	if o.gavel {
		rows = append(rows, m.gavelStudies(ctx))
	} else {
		rows = append(rows, skipped(gavelMeasure, "≤ 8 min", "run with -gavel (about a quarter of an hour)"))
	}
	rows = append(rows, m.page(ctx, o.site)...)
	var philly []row
	if o.philly != "" {
		philly = m.phillyLog(ctx, o.philly)
	}
	file := filepath.Join(root, docFile)
	doc, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	table := render(carryOver(string(doc), rows, philly))
	fmt.Print(table)
	if o.docs {
		out, err := splice(string(doc), table)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			return err
		}
		progress("wrote the table into " + docFile)
	}
	return nil
}

// progress says on standard error what is being measured, since the
// whole report takes minutes.
func progress(s string) { fmt.Fprintln(os.Stderr, "benchreport:", s) }

// oneLine shortens a command's error output to its last non-empty line,
// cut to n characters.
func oneLine(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(last); len(r) > n {
		last = string(r[:n]) + "…"
	}
	return last
}
