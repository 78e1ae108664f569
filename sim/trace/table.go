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
}

// newTable starts reading. columns is the documented layout; a file whose
// first row names every one of need (in any order, extra columns ignored)
// has a header; otherwise, when headerless is true, the rows are taken in
// the order of columns (the PAI tables ship without headers).
func newTable(r io.Reader, b *builder, comma rune, columns, need []string, headerless bool) (*table, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	cr.TrimLeadingSpace = true
	t := &table{r: cr, b: b, cols: map[string]int{}}
	first, err := cr.Read()
	if err == io.EOF {
		return nil, Errors{{0, "the file is empty"}}
	}
	if err != nil {
		return nil, Errors{{lineOf(err, 1), plainCSV(err)}}
	}
	if len(first) > 0 { // a byte-order mark would hide the first name
		first[0] = strings.TrimPrefix(first[0], "\ufeff")
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
	default:
		return nil, Errors{{1, fmt.Sprintf("the header lacks the column(s) %s; expected the columns %s", strings.Join(missing, ", "), strings.Join(columns, ","))}}
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
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err != csv.ErrFieldCount {
				t.b.errorf(lineOf(err, t.line+1), "%s", plainCSV(err))
				return false // a broken quote ruins the rest of the file
			}
			t.b.errorf(lineOf(err, t.line+1), "%s", plainCSV(err))
			return false
		}
		t.rec = rec
		t.line, _ = t.r.FieldPos(0)
	}
	t.b.rowsIn++
	if len(t.rec) < t.ncol {
		t.b.errorf(t.line, "has %d columns, expected at least %d", len(t.rec), t.ncol)
		t.bad = true
	}
	return true
}

func lineOf(err error, fallback int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return fallback
}

func plainCSV(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		t.fail("column %s: %q is not a number", name, s)
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
	if v != math.Trunc(v) || math.Abs(v) > 1e9 {
		t.fail("column %s: %q is not a whole number", name, t.str(name))
		return 0
	}
	return int(v)
}

// when reads a time: seconds, or a date "2006-01-02 15:04:05" (UTC).
func (t *table) when(name string) float64 {
	s := t.str(name)
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v
	}
	for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999999"} {
		if tm, err := time.Parse(layout, s); err == nil {
			return float64(tm.UnixNano()) / 1e9
		}
	}
	t.fail("column %s: %q is neither seconds nor a date like 2017-10-09 07:01:55", name, s)
	return 0
}

func (t *table) fail(format string, args ...any) {
	if t.bad {
		return // one error per row: the first is the cause
	}
	t.bad = true
	t.b.errorf(t.line, format, args...)
}
