package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// LimitSet bounds what one import reads and keeps. Every limit is checked
// while the file is read, so that neither an endless stream nor a huge
// file is read to its end before it is refused, and memory stays
// proportional to the rows a window or sample chooses from (about 100
// bytes each) and the jobs kept.
type LimitSet struct {
	// MaxBytes is the most bytes read from one trace (512 MiB: the
	// largest public traces schedlab reads, Helios's and PAI's tables,
	// are a few hundred MB).
	MaxBytes int64
	// MaxLineBytes is the longest line; a longer one is a broken file
	// (no trace has kilobyte lines).
	MaxLineBytes int
	// MaxRows is the most data rows read: the rows a window, the
	// busiest window or a sample chooses from are all kept until the
	// choice is made.
	MaxRows int
	// MaxJobs is the most jobs an imported scenario may list, the
	// scenario's own limit (scenario.Limits.MaxExplicitJobs).
	MaxJobs int
	// MaxJobsCSV is the most jobs written as a jobs CSV (--jobs-csv),
	// the most jobs one run may have (scenario.Limits.MaxJobs).
	MaxJobsCSV int
	// MaxScenarioBytes is the largest scenario document read as a trace
	// (format "scenario"), the limit of a scenario file.
	MaxScenarioBytes int64
}

// Limits are the limits Import enforces.
var Limits = LimitSet{
	MaxBytes:         512 << 20,
	MaxLineBytes:     1 << 20,
	MaxRows:          4_000_000,
	MaxJobs:          int(scenario.Limits.MaxExplicitJobs),
	MaxJobsCSV:       int(scenario.Limits.MaxJobs),
	MaxScenarioBytes: scenario.Limits.MaxFileBytes,
}

// A LimitError is an import stopped at a limit; the message names the
// limit and what helps.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }

// input reads a trace through the byte and line-length limits, after
// dropping a UTF-8 byte-order mark and refusing what is not UTF-8 text.
type input struct {
	r       *bufio.Reader
	n       int64 // bytes read
	max     int64
	line    int // line of the next byte, from 1
	lineLen int // bytes of the current line so far
	maxLine int
	err     error // the limit that stopped reading
}

// newInput wraps r; what it returns reads the text of the trace, or
// fails at once with a plain reason (UTF-16, binary data).
func newInput(r io.Reader, lim LimitSet) (*input, error) {
	in := &input{r: bufio.NewReaderSize(r, 64<<10), max: lim.MaxBytes, maxLine: lim.MaxLineBytes, line: 1}
	head, err := in.r.Peek(4096)
	whole := err != nil // the file is shorter than the head
	if err := checkText(head); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		in.r.Discard(3) // a UTF-8 byte-order mark is not part of the first value
		head = head[3:]
	}
	switch {
	case len(head) == 0 && whole:
		return nil, Errors{{0, "the file is empty: no header line and no data rows"}}
	case whole && len(bytes.TrimSpace(head)) == 0:
		return nil, Errors{{0, "no data rows: the file holds only spaces and line breaks"}}
	case bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(bytes.TrimRight(head, "\r"), '\r') >= 0:
		return nil, Errors{{0, "the lines end with a carriage return alone (as on classic Mac OS), so the file reads as one line; save it with Unix (LF) or Windows (CR LF) line ends"}}
	}
	return in, nil
}

// checkText recognises UTF-16 and UTF-32 (by their byte-order marks or,
// without one, by the zero bytes ASCII text has in them) and binary data.
func checkText(head []byte) error {
	switch {
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return Errors{{0, "the file is UTF-32 text; save it as UTF-8 (plain text) and import it again"}}
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}),
		len(head) >= 4 && (head[0] == 0) != (head[1] == 0) && (head[2] == 0) != (head[3] == 0):
		return Errors{{0, "the file is UTF-16 text; save it as UTF-8 (plain text) and import it again"}}
	case bytes.IndexByte(head, 0) >= 0:
		return Errors{{0, "the file holds binary data (zero bytes), not the text of a trace"}}
	}
	return nil
}

func (in *input) Read(p []byte) (int, error) {
	if in.err != nil {
		return 0, in.err
	}
	if room := in.max - in.n; int64(len(p)) > room+1 {
		p = p[:room+1]
	}
	n, err := in.r.Read(p)
	for _, c := range p[:n] {
		switch {
		case c == '\n':
			in.line++
			in.lineLen = 0
			continue
		case c == 0:
			in.err = Errors{{in.line, "holds a zero byte: the file is binary data, not the text of a trace"}}
			return 0, in.err
		}
		if in.lineLen++; in.lineLen > in.maxLine {
			in.err = &LimitError{fmt.Sprintf("line %s is longer than %s, the longest line a trace may have; is this a trace file?", results.Thousands(in.line), size(int64(in.maxLine)))}
			return 0, in.err
		}
	}
	if in.n += int64(n); in.n > in.max {
		in.err = &LimitError{fmt.Sprintf("the file is larger than %s, the most one import reads; split it (e.g. by time) and import a part", size(in.max))}
		return 0, in.err
	}
	return n, err
}

// size prints a byte count in MiB or KiB.
func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
}
