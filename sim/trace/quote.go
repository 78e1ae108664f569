package trace

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/schedlab/schedlab/sim/results"
)

// maxQuoted is the most characters of a value a message repeats: one
// broken 50 MB field must not become 50 MB of messages.
const maxQuoted = 80

// quote is a value from the file as a message shows it: in quotes, cut
// to maxQuoted characters with its full length said.
func quote(s string) string {
	head, n := cutRunes(s)
	if n <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%s characters in all)", strconv.Quote(head), results.Thousands(n))
}

// short is a name from the file (a job id) as a message shows it,
// without quotes: cut to maxQuoted characters with an ellipsis.
func short(s string) string {
	head, n := cutRunes(s)
	if n <= maxQuoted {
		return s
	}
	return head + "…"
}

// cutRunes returns the first maxQuoted characters of s and how many s
// has (a byte that is not UTF-8 counts as one).
func cutRunes(s string) (string, int) {
	if len(s) <= maxQuoted {
		return s, utf8.RuneCountInString(s)
	}
	end, n := 0, 0
	for i := range s {
		if n == maxQuoted {
			end = i
		}
		n++
	}
	if n <= maxQuoted {
		return s, n
	}
	return s[:end], n
}
