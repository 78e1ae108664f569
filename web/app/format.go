package app

import (
	"strings"

	"github.com/schedlab/schedlab/sim/results"
)

// Durations, percentages and counts are written by sim/results, as the
// command line and the decision logs write them.

// plural prints "1 job", "3 jobs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ay") {
		return results.Thousands(n) + " " + noun[:len(noun)-1] + "ies"
	}
	return results.Thousands(n) + " " + noun + "s"
}
