package trace

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// table reads a delimited file row by row, with line numbers and columns
// found by header name.
type table struct {
	r    *csv.Reader
	b    *builder
	cols map[string]int
	ncol int // columns a row must have at least
	line int
	rec  []string
	// pending is a first row that turned out to be data (a file without
	// a header line).
	pending []string
	bad     bool // the current row already has an error
	// timeKinds remembers, per time column, whether the first time was
	// a date or seconds, and its line: a file must not mix them.
	timeKinds map[string]timeKind
}

// timeKind is how a time column gives its first time.
type timeKind struct {
	date  bool
	line  int
	value string
}

// newTable starts reading. columns is the documented layout; a file whose
// first row names every one of need (in any order, extra columns ignored)
// has a header; otherwise, when headerless is true, the rows are taken in
// the order of columns (the PAI tables ship without headers).
func newTable(r io.Reader, b *builder, comma rune, columns, need []string, headerless bool) (*table, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true // kept values are copied (see pack)
	cr.TrimLeadingSpace = true
	t := &table{r: cr, b: b, cols: map[string]int{}}
	first, err := cr.Read()
	if err == io.EOF {
		return nil, Errors{{0, "the file is empty: no header line and no data rows"}}
	}
	if err != nil {
		return nil, readError(err, 1)
	}
	for i, name := range first {
		t.cols[strings.ToLower(strings.TrimSpace(name))] = i
	}
	var missing []string
	for _, n := range need {
		if _, ok := t.cols[n]; !ok {
			missing = append(missing, n)
		}
	}
	switch {
	case len(missing) == 0:
		for _, n := range need {
			t.ncol = max(t.ncol, t.cols[n]+1)
		}
		t.line = 1
	case headerless && len(missing) == len(need):
		t.cols = map[string]int{}
		for i, n := range columns {
			t.cols[n] = i
		}
		t.ncol = len(columns)
		t.pending = first
	case strings.TrimSpace(strings.Join(first, "")) == "":
		return nil, Errors{{1, fmt.Sprintf("the first line is blank; expected a header line with the columns %s", strings.Join(columns, ","))}}
	default:
		hint := ""
		if len(first) == 1 && strings.ContainsAny(first[0], ";\t|") && comma == ',' {
			hint = " (the header has no commas: are the columns separated by something else? they must be separated by commas)"
		}
		return nil, Errors{{1, fmt.Sprintf("the header lacks the column(s) %s; expected the columns %s%s", strings.Join(missing, ", "), strings.Join(columns, ","), hint)}}
	}
	return t, nil
}

// next reads the following row; false at the end or on a broken file.
func (t *table) next() bool {
	t.bad = false
	if t.pending != nil {
		t.rec, t.pending, t.line = t.pending, nil, 1
	} else {
		rec, err := t.r.Read()
		if err == io.EOF {
			return false
		}
		if err != nil {
			t.b.readFailed(err, t.line+1) // a broken quote ruins the rest of the file
			return false
		}
		t.rec = rec
		t.line, _ = t.r.FieldPos(0)
	}
	if !t.b.nextRow(t.line) {
		return false
	}
	if len(t.rec) < t.ncol {
		t.b.errorf(t.line, "has %d columns, expected at least %d", len(t.rec), t.ncol)
		t.bad = true
	}
	return true
}

// readFailed records an error that ended reading: a limit stops the
// import, anything else is an error of its line.
func (b *builder) readFailed(err error, line int) {
	var le *LimitError
	if errors.As(err, &le) {
		b.stop = le
		return
	}
	for _, is := range readError(err, line) {
		b.errorf(is.Line, "%s", is.Msg)
	}
}

// readError says in plain words why the delimited text could not be read.
func readError(err error, line int) Errors {
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return Errors{{line, "the file could not be read: " + err.Error()}}
	}
	switch {
	case pe.Err == csv.ErrBareQuote:
		return Errors{{pe.Line, fmt.Sprintf("a quote (\") in the middle of a value that does not start with one (at byte %d of the line); put the whole value in quotes and double each quote inside it", pe.Column)}}
	case pe.Err == csv.ErrQuote && pe.StartLine != pe.Line:
		return Errors{{pe.StartLine, fmt.Sprintf("a quoted value that starts on this line is not closed before line %d; a quote (\") is missing, or one inside the value is not doubled", pe.Line)}}
	case pe.Err == csv.ErrQuote:
		return Errors{{pe.Line, fmt.Sprintf("a quoted value is not closed properly (at byte %d of the line): a quote inside quotes must be doubled (\"\"), and the closing quote must end the value", pe.Column)}}
	}
	return Errors{{pe.Line, "the line could not be read as comma- or tab-separated values"}}
}

// has reports whether the row has the column at all (optional columns).
func (t *table) has(name string) bool {
	i, ok := t.cols[name]
	return ok && i < len(t.rec)
}

// str is the trimmed value of a column ("" when absent).
func (t *table) str(name string) string {
	if t.bad || !t.has(name) {
		return ""
	}
	return strings.TrimSpace(t.rec[t.cols[name]])
}

// empty reports whether a column holds no value ("", NA, None, null).
func (t *table) empty(name string) bool {
	switch strings.ToLower(t.str(name)) {
	case "", "na", "nan", "none", "null", "\\n":
		return true
	}
	return false
}

// num reads a finite number; a malformed one is an error of the row.
func (t *table) num(name string) float64 {
	s := t.str(name)
	v, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		t.fail("column %s: %s is too large a number", name, quote(s))
		return 0
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		t.fail("column %s: %s is not a number", name, quote(s))
		return 0
	}
	return v
}

// integer reads a whole number.
func (t *table) integer(name string) int {
	v := t.num(name)
	if t.bad {
		return 0
	}
	if math.Abs(v) > 1e9 {
		t.fail("column %s: %s is too large (at most 1,000,000,000)", name, quote(t.str(name)))
		return 0
	}
	if v != math.Trunc(v) {
		t.fail("column %s: %s is not a whole number", name, quote(t.str(name)))
		return 0
	}
	return int(v)
}

// when reads a time: seconds, or a date "2006-01-02 15:04:05" (UTC). One
// column gives every time the same way: a date among seconds would put
// a job decades away from the others.
func (t *table) when(name string) float64 {
	s := t.str(name)
	v, err := strconv.ParseFloat(s, 64)
	isNum := err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
	if !isNum {
		v, err = parseDate(s)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				t.fail("column %s: %s is too large a number of seconds", name, quote(s))
			} else {
				t.fail("column %s: %s is neither seconds nor a date like 2017-10-09 07:01:55", name, quote(s))
			}
			return 0
		}
	}
	if t.bad {
		return v
	}
	k, seen := t.timeKinds[name]
	if !seen {
		if t.timeKinds == nil {
			t.timeKinds = map[string]timeKind{}
		}
		t.timeKinds[name] = timeKind{date: !isNum, line: t.line, value: strings.Clone(s[:min(len(s), 40)])}
		return v
	}
	if k.date == isNum {
		what, other := "a number of seconds", "a date"
		if !isNum {
			what, other = "a date", "a number of seconds"
		}
		t.fail("column %s: %s is %s, but line %d gives %s (%s); give every time the same way", name, quote(s), what, k.line, other, quote(k.value))
	}
	return v
}

// parseDate reads a date in one of the layouts traces use, as seconds
// since 1970 (UTC).
func parseDate(s string) (float64, error) {
	if _, err := strconv.ParseFloat(s, 64); errors.Is(err, strconv.ErrRange) {
		return 0, err
	}
	for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999999"} {
		if tm, err := time.Parse(layout, s); err == nil {
			if y := tm.Year(); y < 1678 || y > 2261 { // beyond UnixNano
				return float64(tm.Unix()) + float64(tm.Nanosecond())/1e9, nil
			}
			return float64(tm.UnixNano()) / 1e9, nil
		}
	}
	return 0, errors.New("not a date")
}

func (t *table) fail(format string, args ...any) {
	if t.bad {
		return // one error per row: the first is the cause
	}
	t.bad = true
	t.b.errorf(t.line, format, args...)
}
