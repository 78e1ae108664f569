package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// cmdValidate prints one line per problem, with its JSON path, and exits 2
// when any file is invalid. A valid file's notices (scenario.Notices) are
// printed as warnings and do not change the exit code.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: schedlab validate FILE...")
		return exitInvalid
	}
	code := exitOK
	for _, file := range args {
		prefix := ""
		if len(args) > 1 {
			prefix = file + ": "
		}
		sc, _, err := loadScenario(file)
		if err == nil {
			fmt.Fprintf(stdout, "%sok: %s (%d policies)\n", prefix, sc.Name, len(sc.Policies))
			printNotices(stderr, prefix, sc)
			continue
		}
		code = exitInvalid
		var ps schema.Problems
		if errors.As(err, &ps) {
			for _, p := range ps {
				fmt.Fprintf(stderr, "%s%s\n", prefix, p)
			}
		} else {
			fmt.Fprintf(stderr, "%s%v\n", prefix, err)
		}
	}
	return code
}

// printNotices prints a valid scenario's notices, one warning a line.
func printNotices(w io.Writer, prefix string, sc *scenario.Scenario) {
	for _, n := range sc.Notices() {
		fmt.Fprintf(w, "%swarning: %s\n", prefix, n)
	}
}
