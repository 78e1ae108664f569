// Package schema checks JSON documents against Go structs and reports every
// problem with its JSON path and a plain sentence, e.g.
// "cluster.servers[2].gpus: must be at least 1, got 0".
//
// A struct describes its document with the usual json tags plus a few of
// its own, read by Decode and by Describe:
//
//	min:"1" max:"64"   numeric range, inclusive
//	enum:"a,b,c"       allowed strings
//	unit:"s"           unit shown next to a form field
//	help:"..."         one sentence for documentation and forms
//
// Cross-field rules live in a Check method (see Checker).
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a document.
type Problem struct {
	Path string `json:"path"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// Problems is a list of problems; as an error it prints one per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns ps as an error, or nil when it is empty.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// Checker is implemented by structs with rules that span fields. Check
// returns problems whose paths are relative to the struct ("" for the
// struct itself).
type Checker interface {
	Check() []Problem
}

// Join appends a child path to a parent path.
func Join(parent, child string) string {
	switch {
	case parent == "":
		return child
	case child == "":
		return parent
	case strings.HasPrefix(child, "["):
		return parent + child
	default:
		return parent + "." + child
	}
}

// Index returns the path of element i of the array at path.
func Index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// Prefix returns ps with every path placed under parent.
func Prefix(parent string, ps []Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Path: Join(parent, p.Path), Msg: p.Msg}
	}
	return out
}

// Parse reads a JSON document into a generic tree (numbers as json.Number).
// A syntax error is reported with its line and column.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, syntaxProblem(data, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("line %d, column %d: unexpected data after the JSON document", line, col)
	}
	return tree, nil
}

func syntaxProblem(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, max(se.Offset-1, 0)) // Offset is just past the bad byte
		return fmt.Errorf("line %d, column %d: %s", line, col, se.Error())
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("the document is empty or ends too early")
	}
	return err
}

func lineCol(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Decode checks tree against the type dst points to, and if it is sound
// fills dst from it (keeping dst's current values for absent fields, so a
// caller can preload defaults), then checks ranges and runs Check methods.
// Paths start at path. Object keys listed in extra are accepted and
// ignored (for discriminators such as "kind").
func Decode(tree any, dst any, path string, extra ...string) []Problem {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("schema.Decode: dst must be a non-nil pointer")
	}
	present := map[string]bool{}
	var ps []Problem
	tree = walk(tree, rv.Type().Elem(), path, extra, present, &ps)
	shape := len(ps)
	raw, err := json.Marshal(tree)
	if err != nil {
		return append(ps, Problem{path, err.Error()})
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return append(ps, Problem{path, err.Error()})
	}
	var rest []Problem
	checkValue(rv.Elem(), path, present, &rest)
	for _, p := range rest {
		if !covered(ps[:shape], p.Path) {
			ps = append(ps, p)
		}
	}
	return ps
}

// covered reports whether a problem at path is a consequence of a shape
// problem already reported at path (a wrongly typed value was dropped, so
// its default would otherwise be reported as missing).
func covered(shape []Problem, path string) bool {
	for _, p := range shape {
		if p.Path == path {
			return true
		}
	}
	return false
}

// DecodeBytes parses data and decodes it into dst; see Decode.
func DecodeBytes(data []byte, dst any, extra ...string) []Problem {
	tree, err := Parse(data)
	if err != nil {
		return []Problem{{"", err.Error()}}
	}
	return Decode(tree, dst, "", extra...)
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// walk checks the shape of tree against type t and returns the tree with
// every offending node removed, so that the rest can still be decoded and
// checked.
func walk(tree any, t reflect.Type, path string, extra []string, present map[string]bool, ps *[]Problem) any {
	present[path] = true
	for t.Kind() == reflect.Pointer {
		if tree == nil {
			return nil
		}
		t = t.Elem()
	}
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return tree
	}
	if tree == nil {
		delete(present, path)
		return nil
	}
	bad := func(want string) any {
		*ps = append(*ps, Problem{path, fmt.Sprintf("must be %s, got %s", want, describe(tree))})
		delete(present, path)
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := tree.(map[string]any)
		if !ok {
			return bad("an object")
		}
		fields := jsonFields(t)
		for _, k := range sortedKeys(obj) {
			f, known := fields[k]
			if !known {
				if !contains(extra, k) {
					msg := "unknown field"
					if s := suggest(k, fields); s != "" {
						msg += fmt.Sprintf(" (did you mean %q?)", s)
					}
					*ps = append(*ps, Problem{Join(path, k), msg})
				}
				delete(obj, k)
				continue
			}
			if v := walk(obj[k], f.Type, Join(path, k), nil, present, ps); v == nil {
				delete(obj, k)
			} else {
				obj[k] = v
			}
		}
	case reflect.Slice, reflect.Array:
		arr, ok := tree.([]any)
		if !ok {
			return bad("a list")
		}
		if t.Kind() == reflect.Array && len(arr) != t.Len() {
			return bad(fmt.Sprintf("a list of %d elements", t.Len()))
		}
		for i, el := range arr {
			if v := walk(el, t.Elem(), Index(path, i), nil, present, ps); v != nil || el == nil {
				arr[i] = v
			} else {
				arr[i] = zeroJSON(t.Elem())
			}
		}
	case reflect.Map:
		obj, ok := tree.(map[string]any)
		if !ok {
			return bad("an object")
		}
		for k, v := range obj {
			if w := walk(v, t.Elem(), Join(path, k), nil, present, ps); w == nil {
				delete(obj, k)
			}
		}
	case reflect.String:
		if _, ok := tree.(string); !ok {
			return bad("a string")
		}
	case reflect.Bool:
		if _, ok := tree.(bool); !ok {
			return bad("true or false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := tree.(json.Number)
		if !ok {
			return bad("a whole number")
		}
		if !isWhole(n, t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64) {
			return bad("a whole number")
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := tree.(json.Number); !ok {
			return bad("a number")
		}
	}
	return tree
}

// isWhole reports whether n is an integer that fits (3, 3.0 and 1e3 do;
// 2.5 does not; a negative number does not fit an unsigned field).
func isWhole(n json.Number, unsigned bool) bool {
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
		return false
	}
	return !(unsigned && f < 0)
}

// zeroJSON is the JSON zero value that stands in for a dropped array
// element, so that the other elements keep their indexes.
func zeroJSON(t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return map[string]any{}
	case reflect.Slice, reflect.Array:
		return []any{}
	case reflect.String:
		return ""
	case reflect.Bool:
		return false
	}
	return json.Number("0")
}

// jsonName returns the JSON name a struct field's tag gives it ("" for
// none) and whether the field takes part in JSON at all.
func jsonName(f reflect.StructField) (string, bool) {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name, f.IsExported() && name != "-"
}

// jsonFields maps JSON names to the struct's exported fields, following
// embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// checkValue enforces min, max and enum tags on a decoded value and runs
// Check methods, depth first so that inner problems come first.
func checkValue(v reflect.Value, path string, present map[string]bool, ps *[]Problem) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		checkStruct(v, path, present, ps)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			checkValue(v.Index(i), Index(path, i), present, ps)
		}
	}
	if v.CanAddr() {
		if c, ok := v.Addr().Interface().(Checker); ok {
			*ps = append(*ps, Prefix(path, c.Check())...)
		}
	}
}

func checkStruct(v reflect.Value, path string, present map[string]bool, ps *[]Problem) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		fv := v.Field(i)
		if f.Anonymous && name == "" {
			checkValue(fv, path, present, ps)
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := Join(path, name)
		checkField(fv, f.Tag, p, present[p], ps)
		checkValue(fv, p, present, ps)
	}
}

func checkField(v reflect.Value, tag reflect.StructTag, path string, given bool, ps *[]Problem) {
	minTag, maxTag, enumTag := tag.Get("min"), tag.Get("max"), tag.Get("enum")
	if minTag == "" && maxTag == "" && enumTag == "" {
		return
	}
	var x float64
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x = float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x = float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		x = v.Float()
	case reflect.String:
		if enumTag != "" && !contains(strings.Split(enumTag, ","), v.String()) {
			opts := strings.ReplaceAll(enumTag, ",", ", ")
			if !given && v.String() == "" {
				*ps = append(*ps, Problem{path, "is required (one of " + opts + ")"})
			} else {
				*ps = append(*ps, Problem{path, fmt.Sprintf("must be one of %s, got %q", opts, v.String())})
			}
		}
		return
	default:
		return
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		*ps = append(*ps, Problem{path, "must be a finite number"})
		return
	}
	if minTag != "" {
		lo, _ := strconv.ParseFloat(minTag, 64)
		if x < lo {
			if !given && x == 0 {
				*ps = append(*ps, Problem{path, fmt.Sprintf("is required (at least %s)", minTag)})
			} else {
				*ps = append(*ps, Problem{path, fmt.Sprintf("must be at least %s, got %s", minTag, fmtNum(x))})
			}
			return
		}
	}
	if maxTag != "" {
		hi, _ := strconv.ParseFloat(maxTag, 64)
		if x > hi {
			*ps = append(*ps, Problem{path, fmt.Sprintf("must be at most %s, got %s", maxTag, fmtNum(x))})
		}
	}
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func describe(tree any) string {
	switch v := tree.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > 20 {
			v = v[:20] + "..."
		}
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("%v", v)
	case json.Number:
		return "the number " + string(v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", tree)
}

// sortedKeys returns an object's keys in order, so that problems come out
// in the same order every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the known field name closest to k, if it is close.
func suggest(k string, fields map[string]reflect.StructField) string {
	best, bestD := "", 3
	for _, n := range sortedKeys(fields) {
		if d := editDistance(strings.ToLower(k), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
