package results

import (
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// WriteOutput writes o as indented JSON, byte for byte what
//
//	enc := json.NewEncoder(w)
//	enc.SetIndent("", "  ")
//	enc.Encode(o)
//
// writes, but one job record at a time: a run of 100,000 jobs is 45 MB of
// JSON, which encoding/json builds whole in memory, then indents into a
// second copy. Fields of Output and PolicyOutput are read from the struct
// tags, so a new one needs no change here; JobOutput's are written by hand
// (see jobs).
func WriteOutput(w io.Writer, o Output) error {
	jw := &jsonWriter{w: w, out: make([]byte, 0, flushAt+4096)}
	jw.object(reflect.ValueOf(o), "")
	jw.raw("\n")
	jw.flush()
	return jw.err
}

// flushAt is the size at which the output buffer is written out: large
// enough that writes are few, small enough to stay in cache.
const flushAt = 64 << 10

// jsonWriter appends to out and writes it to w whenever it passes
// flushAt, so that a job record is a handful of appends, not a write per
// token.
type jsonWriter struct {
	w   io.Writer
	out []byte
	err error
}

func (jw *jsonWriter) flush() {
	if jw.err == nil && len(jw.out) > 0 {
		_, jw.err = jw.w.Write(jw.out)
	}
	jw.out = jw.out[:0]
}

// maybeFlush writes the buffer out once it is full; called between
// values, so a value is never split across checks for errors.
func (jw *jsonWriter) maybeFlush() {
	if len(jw.out) >= flushAt {
		jw.flush()
	}
}

func (jw *jsonWriter) raw(s string) { jw.out = append(jw.out, s...) }

// newline starts a line indented by ind, without building a string.
func (jw *jsonWriter) newline(ind string) {
	jw.out = append(jw.out, '\n')
	jw.out = append(jw.out, ind...)
}

func (jw *jsonWriter) bytes(b []byte) { jw.out = append(jw.out, b...) }

// field is one JSON field of a struct type.
type field struct {
	index     int
	key       string // `"name": `
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		key, _ := json.Marshal(name)
		out = append(out, field{index: i, key: string(key) + ": ", omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	fieldCache.Store(t, out)
	return out
}

// object writes a struct at indentation ind; Output, PolicyOutput and
// JobOutput fields are written here, anything else by encoding/json.
func (jw *jsonWriter) object(v reflect.Value, ind string) {
	fs := fieldsOf(v.Type())
	jw.raw("{")
	inner := ind + "  "
	first := true
	for _, f := range fs {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if !first {
			jw.raw(",")
		}
		first = false
		jw.newline(inner)
		jw.raw(f.key)
		jw.value(fv, inner)
		jw.maybeFlush()
	}
	if !first {
		jw.newline(ind)
	}
	jw.raw("}")
}

var (
	outputTypes = map[reflect.Type]bool{
		reflect.TypeFor[Output](): true, reflect.TypeFor[PolicyOutput](): true, reflect.TypeFor[JobOutput](): true,
	}
	float64Type = reflect.TypeFor[float64]()
	jobsType    = reflect.TypeFor[[]JobOutput]()
)

// value writes one field's value at indentation ind.
func (jw *jsonWriter) value(v reflect.Value, ind string) {
	switch {
	case v.Kind() == reflect.String:
		jw.str(v.String())
		return
	case v.Kind() == reflect.Int:
		jw.out = strconv.AppendInt(jw.out, v.Int(), 10)
		return
	case v.Kind() == reflect.Float64:
		jw.float(v.Float())
		return
	case v.Kind() == reflect.Pointer && v.Type().Elem() == float64Type:
		if v.IsNil() {
			jw.raw("null")
		} else {
			jw.float(v.Elem().Float())
		}
		return
	case v.Type() == jobsType:
		jw.jobs(v.Interface().([]JobOutput), ind)
		return
	case v.Kind() == reflect.Struct && outputTypes[v.Type()]:
		jw.object(v, ind)
		return
	case v.Kind() == reflect.Slice && outputTypes[v.Type().Elem()]:
		if v.IsNil() {
			jw.raw("null")
			return
		}
		if v.Len() == 0 {
			jw.raw("[]")
			return
		}
		jw.raw("[")
		inner := ind + "  "
		for i := range v.Len() {
			if i > 0 {
				jw.raw(",")
			}
			jw.newline(inner)
			jw.object(v.Index(i), inner)
		}
		jw.newline(ind)
		jw.raw("]")
		return
	}
	b, err := json.MarshalIndent(v.Interface(), ind, "  ")
	if err != nil {
		if jw.err == nil {
			jw.err = err
		}
		return
	}
	jw.bytes(b)
}

// float writes a float64 as encoding/json does: the shortest decimal
// that reads back as f, in 'f' form, or in 'e' form with a one-digit
// negative exponent below 1e-6 and from 1e21 on.
func (jw *jsonWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if jw.err == nil {
			jw.err = &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
		return
	}
	if f == 0 {
		if math.Signbit(f) {
			jw.raw("-0")
		} else {
			jw.raw("0")
		}
		return
	}
	abs := math.Abs(f)
	if abs < 1e15 && abs >= 1 && f == math.Trunc(f) {
		// A whole number below 1e15 is spaced more finely than 1, so its
		// own digits are the shortest that read back as it.
		jw.out = strconv.AppendInt(jw.out, int64(f), 10)
		return
	}
	if b, ok := appendFewDecimals(jw.out, f, abs); ok {
		jw.out = b
		return
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	n0 := len(jw.out)
	b := strconv.AppendFloat(jw.out, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n-n0 >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	jw.out = b
}

// fracPad[d] is 10^(d-1): a fraction of d digits below it needs leading
// zeros.
var fracPad = [...]int64{0, 1, 10, 100}

// appendFewDecimals appends f, of magnitude abs, when it has a shortest
// form of at most three decimals (times rounded to the millisecond, as
// most of a run's are), several times faster than strconv; it reports
// false otherwise. Below 1e9 two float64s are less than 1.2e-7 apart, so
// at most one number of three decimals reads back as f; abs·1000 rounded
// finds it (the product is off by far less than 0.5), n/1000 == abs says
// whether it reads back (division and parsing both round to nearest), and
// with its trailing zeros dropped it is strconv's shortest form, since a
// shorter one would also be a number of three decimals.
func appendFewDecimals(b []byte, f, abs float64) ([]byte, bool) {
	if !(abs >= 1e-3 && abs < 1e9) {
		return b, false
	}
	// Rounded by conversion: math.Round is a call on plain amd64.
	n := int64(abs*1000 + 0.5)
	if float64(n)/1000 != abs {
		return b, false
	}
	if f < 0 {
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, n/1000, 10)
	frac, digits := n%1000, 3
	if frac == 0 {
		return b, true
	}
	for frac%10 == 0 {
		frac /= 10
		digits--
	}
	b = append(b, '.')
	for d := fracPad[digits]; d > 1 && frac < d; d /= 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, frac, 10), true
}

// floatPtr writes a *float64 field's value: null or the number.
func (jw *jsonWriter) floatPtr(p *float64) {
	if p == nil {
		jw.raw("null")
		return
	}
	jw.float(*p)
}

// str writes a string as encoding/json does (with HTML escaping): plain
// ASCII directly, anything else through encoding/json.
func (jw *jsonWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			jw.bytes(b)
			return
		}
	}
	jw.out = append(jw.out, '"')
	jw.out = append(jw.out, s...)
	jw.out = append(jw.out, '"')
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
