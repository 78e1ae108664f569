// Command convert turns the Gavel artifact's simulation_throughputs.json
// into schedlab's compact throughput table (see package gaveltable).
//
//	go run ./sim/perf/gaveltable/convert [-in FILE] [-out FILE]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/schedlab/schedlab/sim/perf/gaveltable"
)

func main() {
	in := flag.String("in", "../shared/data/gavel/simulation_throughputs.json", "Gavel's throughput file")
	out := flag.String("out", "sim/perf/gaveltable/throughputs.txt", "where to write the table")
	flag.Parse()
	data, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
	table, err := gaveltable.Convert(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
	if _, err := gaveltable.Parse(table); err != nil {
		fmt.Fprintln(os.Stderr, "convert: the result does not parse:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, table, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s (%d bytes)\n", *out, len(table))
}
