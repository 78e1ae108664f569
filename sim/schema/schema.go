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
	"sync"
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
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

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
//
// A UTF-8 byte-order mark is skipped; UTF-16 and UTF-32 documents are
// refused with a sentence that says so. A key given twice in one object
// is refused as Problems naming its path (see DuplicateKey).
func Parse(data []byte) (any, error) {
	if err := checkEncoding(data); err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if n := countElements(data, MaxElements); n > MaxElements {
		return nil, fmt.Errorf("the document has more than %s elements (values, keys and lists), the limit for one document (schema.MaxElements); use a generator instead of listing every job", thousands(MaxElements))
	}
	twice := false
	set := func(m map[string]any, k string, v any) {
		if _, ok := m[k]; ok {
			twice = true
		}
		m[k] = v
	}
	if tree, ok := ScanJSON(data, newMap, set); ok {
		if twice {
			if p, ok := DuplicateKey(data); ok {
				return nil, Problems{p}
			}
		}
		return tree, nil
	}
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

func newMap() map[string]any                   { return map[string]any{} }
func setMap(m map[string]any, k string, v any) { m[k] = v }

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// MaxElements bounds the elements of a document (each costs about a
// hundred bytes once parsed): 2,000,000 is three times a scenario of
// 100,000 explicit jobs, and parses in under 250 MB.
const MaxElements = 2_000_000

// thousands writes n with separators: 2,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// countElements counts the commas, colons and openings outside strings,
// up to limit+1: a bound on the parsed tree's size, known before parsing.
func countElements(data []byte, limit int) int {
	n, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == ',' || b == ':' || b == '[' || b == '{':
			if n++; n > limit {
				return n
			}
		}
	}
	return n
}

// checkEncoding recognises UTF-16 and UTF-32 by their byte-order marks or,
// without one, by the zero bytes ASCII text has in them.
func checkEncoding(data []byte) error {
	wide := bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}) ||
		len(data) >= 2 && (data[0] == 0) != (data[1] == 0)
	if wide {
		return fmt.Errorf("the document is UTF-16 or UTF-32 text; save it as UTF-8")
	}
	return nil
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
//
// Decoding is one pass over the tree that fills dst directly (as
// encoding/json would, but accepting whole-number floats such as 4.0 or
// 1e6 for integer fields and naming the path of every problem), then one
// pass that checks tags and runs Check methods. Paths are only rendered for
// problems, so a document of a few hundred thousand elements decodes in
// time and memory linear in its size. The tree is modified: offending
// nodes are removed.
func Decode(tree any, dst any, path string, extra ...string) []Problem {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("schema.Decode: dst must be a non-nil pointer")
	}
	d := &decoder{extra: extra}
	root := &pathNode{root: path}
	if !d.decode(tree, rv.Elem(), root, true) {
		tree = nil
	}
	d.check(rv.Elem(), tree, root)
	ps := d.shape
	for _, p := range d.rest {
		if !d.shapePaths[p.Path] {
			ps = append(ps, p)
		}
	}
	return Truncate(ps, d.more)
}

// Truncate keeps the first MaxProblems problems and says how many more
// there are (more of them were already left out).
func Truncate(ps []Problem, more int) []Problem {
	if len(ps) > MaxProblems {
		more += len(ps) - MaxProblems
		ps = ps[:MaxProblems]
	}
	if more > 0 {
		ps = append(ps, Problem{Msg: fmt.Sprintf("... and %d more problems", more)})
	}
	return ps
}

// DecodeBytes parses data and decodes it into dst; see Decode.
func DecodeBytes(data []byte, dst any, extra ...string) []Problem {
	tree, err := Parse(data)
	if err != nil {
		return []Problem{{"", err.Error()}}
	}
	return Decode(tree, dst, "", extra...)
}

var (
	rawMessageType = reflect.TypeOf(json.RawMessage(nil))
	checkerType    = reflect.TypeOf((*Checker)(nil)).Elem()
)

// pathNode is a JSON path built on the way down and rendered only when a
// problem needs it.
type pathNode struct {
	parent *pathNode
	root   string // for the root node
	key    string
	index  int
	isElem bool
}

func (p *pathNode) String() string {
	if p.parent == nil {
		return p.root
	}
	if p.isElem {
		return Index(p.parent.String(), p.index)
	}
	return Join(p.parent.String(), p.key)
}

func (p *pathNode) child(key string) *pathNode { return &pathNode{parent: p, key: key} }
func (p *pathNode) elem(i int) *pathNode       { return &pathNode{parent: p, index: i, isElem: true} }

// dropped replaces an array element whose shape was wrong, so that its
// checks are skipped (the shape problem already speaks for it).
type dropped struct{}

// MaxProblems is the most problems Decode lists; beyond it they are
// counted, so that a document of a million bad values costs no more than
// one of a hundred.
const MaxProblems = 100

type decoder struct {
	extra      []string
	more       int       // problems beyond MaxProblems
	shape      []Problem // wrong types, unknown fields, unreadable numbers
	shapePaths map[string]bool
	rest       []Problem // ranges, enums and Check methods
}

func (d *decoder) bad(p *pathNode, msg string) bool {
	if len(d.shape) >= MaxProblems {
		d.more++
		return false
	}
	path := p.String()
	d.shape = append(d.shape, Problem{path, msg})
	if d.shapePaths == nil {
		d.shapePaths = map[string]bool{}
	}
	d.shapePaths[path] = true
	return false
}

// decode fills v from node and reports whether node was used; a node that
// is null or has the wrong shape leaves v as it was.
func (d *decoder) decode(node any, v reflect.Value, p *pathNode, top bool) bool {
	if node == nil {
		return false
	}
	t := v.Type()
	if t == rawMessageType {
		raw, err := json.Marshal(node)
		if err != nil {
			return d.bad(p, err.Error())
		}
		v.SetBytes(raw)
		return true
	}
	mismatch := func(want string) bool {
		return d.bad(p, fmt.Sprintf("must be %s, got %s", want, describe(node)))
	}
	switch t.Kind() {
	case reflect.Pointer:
		fresh := v.IsNil()
		if fresh {
			v.Set(reflect.New(t.Elem()))
		}
		if !d.decode(node, v.Elem(), p, top) {
			if fresh {
				v.SetZero()
			}
			return false
		}
		return true
	case reflect.Interface:
		raw, err := json.Marshal(node)
		if err == nil {
			err = json.Unmarshal(raw, v.Addr().Interface())
		}
		if err != nil {
			return d.bad(p, err.Error())
		}
		return true
	case reflect.Struct:
		obj, ok := node.(map[string]any)
		if !ok {
			return mismatch("an object")
		}
		d.decodeStruct(obj, v, p, top)
		return true
	case reflect.Slice:
		arr, ok := node.([]any)
		if !ok {
			return mismatch("a list")
		}
		d.decodeSlice(arr, v, p)
		return true
	case reflect.Array:
		arr, ok := node.([]any)
		if !ok {
			return mismatch("a list")
		}
		if len(arr) != t.Len() {
			return mismatch(fmt.Sprintf("a list of %d elements", t.Len()))
		}
		d.decodeElems(arr, v, p)
		return true
	case reflect.Map:
		obj, ok := node.(map[string]any)
		if !ok {
			return mismatch("an object")
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		for _, k := range sortedKeys(obj) {
			el := reflect.New(t.Elem()).Elem()
			if d.decode(obj[k], el, p.child(k), false) {
				v.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), el)
			} else {
				delete(obj, k)
			}
		}
		return true
	case reflect.String:
		s, ok := node.(string)
		if !ok {
			return mismatch("a string")
		}
		v.SetString(s)
		return true
	case reflect.Bool:
		b, ok := node.(bool)
		if !ok {
			return mismatch("true or false")
		}
		v.SetBool(b)
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := node.(json.Number)
		if !ok {
			return mismatch("a whole number")
		}
		if msg := setWhole(v, n); msg != "" {
			return d.bad(p, msg)
		}
		return true
	case reflect.Float32, reflect.Float64:
		n, ok := node.(json.Number)
		if !ok {
			return mismatch("a number")
		}
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if err != nil {
			return d.bad(p, overflowMsg(n))
		}
		v.SetFloat(f)
		return true
	}
	return true
}

func (d *decoder) decodeStruct(obj map[string]any, v reflect.Value, p *pathNode, top bool) {
	info := typeInfoOf(v.Type())
	for _, k := range sortedKeys(obj) {
		f, known := info.byName[k]
		if !known {
			if !top || !contains(d.extra, k) {
				msg := "unknown field"
				if s := suggest(k, info.names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				d.bad(p.child(k), msg)
			}
			delete(obj, k)
			continue
		}
		if !d.decode(obj[k], fieldOf(v, f.index), p.child(k), false) {
			delete(obj, k)
		}
	}
}

// decodeSlice fills a slice the way encoding/json does: elements already
// there are decoded into (keeping their fields the JSON does not give),
// the slice gets the JSON's length.
func (d *decoder) decodeSlice(arr []any, v reflect.Value, p *pathNode) {
	n := len(arr)
	switch {
	case n == 0:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return
	case n > v.Len():
		grown := reflect.MakeSlice(v.Type(), n, n)
		reflect.Copy(grown, v)
		v.Set(grown)
	case n < v.Len():
		v.SetLen(n)
	}
	d.decodeElems(arr, v, p)
}

func (d *decoder) decodeElems(arr []any, v reflect.Value, p *pathNode) {
	for i, el := range arr {
		if el == nil {
			continue
		}
		if !d.decode(el, v.Index(i), p.elem(i), false) {
			arr[i] = dropped{}
		}
	}
}

// fieldOf returns the (possibly embedded) field at index, allocating
// embedded pointers on the way.
func fieldOf(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// setWhole stores the integer n in v, accepting whole-number floats
// (4.0, 2e0, 1e+06); it returns a plain sentence when n is not a whole
// number or does not fit v's type.
func setWhole(v reflect.Value, n json.Number) string {
	s := string(n)
	unsigned := v.Kind() >= reflect.Uint && v.Kind() <= reflect.Uint64
	bits := v.Type().Bits()
	var lo, hi string
	if unsigned {
		lo, hi = "0", strconv.FormatUint(1<<bits-1, 10)
		if bits == 64 {
			hi = strconv.FormatUint(math.MaxUint64, 10)
		}
		if u, err := strconv.ParseUint(s, 10, bits); err == nil {
			v.SetUint(u)
			return ""
		}
	} else {
		lo, hi = strconv.FormatInt(-1<<(bits-1), 10), strconv.FormatInt(1<<(bits-1)-1, 10)
		if i, err := strconv.ParseInt(s, 10, bits); err == nil {
			v.SetInt(i)
			return ""
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return overflowMsg(n)
	}
	if f != math.Trunc(f) {
		return "must be a whole number, got the number " + s
	}
	outOfRange := fmt.Sprintf("must be a whole number from %s to %s, got the number %s", lo, hi, s)
	if unsigned {
		if f < 0 || f >= math.Ldexp(1, bits) {
			return outOfRange
		}
		v.SetUint(uint64(f))
		return ""
	}
	if f < -math.Ldexp(1, bits-1) || f >= math.Ldexp(1, bits-1) {
		return outOfRange
	}
	v.SetInt(int64(f))
	return ""
}

// overflowMsg explains a number too large for a 64-bit float (1e400).
func overflowMsg(n json.Number) string {
	s := string(n)
	if len(s) > 30 {
		s = s[:30] + "..."
	}
	return fmt.Sprintf("the number %s is too large: numbers must be finite 64-bit values, at most about 1.8e308", s)
}

// fieldInfo is one JSON field of a struct type, with its tags parsed once.
type fieldInfo struct {
	name     string
	index    []int
	embedded bool // an embedded struct whose fields count as the parent's
	ranged   bool // has min, max or enum
	minTag   string
	maxTag   string
	enumTag  string
	lo, hi   float64
	enum     []string
}

// typeInfo is what decoding and checking need to know about a type.
type typeInfo struct {
	fields     []fieldInfo // top-level fields in declaration order
	byName     map[string]fieldInfo
	names      []string // sorted, for suggestions
	checker    bool     // *T implements Checker
	needsCheck bool     // values of T may hold tags or Checkers
}

// typeInfos holds complete entries only: a reader never waits and never
// sees an entry still being filled. Entries are built under
// typeInfoBuild, in a map of their own, and published when the type and
// every type it reaches are done (a recursive type sees its own
// half-built entry while it is built, as it must, but no other goroutine
// does).
var (
	typeInfos     sync.Map // reflect.Type -> *typeInfo
	typeInfoBuild sync.Mutex
)

func typeInfoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	typeInfoBuild.Lock()
	defer typeInfoBuild.Unlock()
	b := infoBuilder{}
	ti := b.of(t)
	for _, k := range b.order {
		typeInfos.Store(k, b.building[k])
	}
	return ti
}

// infoBuilder builds the entries of one type and of the types it reaches.
type infoBuilder struct {
	building map[reflect.Type]*typeInfo
	order    []reflect.Type
}

func (b *infoBuilder) of(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	if ti, ok := b.building[t]; ok {
		return ti // a recursive type, still being filled
	}
	if b.building == nil {
		b.building = map[reflect.Type]*typeInfo{}
	}
	ti := &typeInfo{checker: reflect.PointerTo(t).Implements(checkerType)}
	b.building[t] = ti
	b.order = append(b.order, t)
	ti.needsCheck = ti.checker
	switch t.Kind() {
	case reflect.Struct:
		ti.byName = map[string]fieldInfo{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			fi := fieldInfo{name: name, index: []int{i}, minTag: f.Tag.Get("min"), maxTag: f.Tag.Get("max"), enumTag: f.Tag.Get("enum")}
			fi.ranged = fi.minTag != "" || fi.maxTag != "" || fi.enumTag != ""
			fi.lo, _ = strconv.ParseFloat(fi.minTag, 64)
			fi.hi, _ = strconv.ParseFloat(fi.maxTag, 64)
			if fi.enumTag != "" {
				fi.enum = strings.Split(fi.enumTag, ",")
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				fi.embedded = true
				for k, sub := range b.of(ft).byName {
					sub.index = append([]int{i}, sub.index...)
					ti.byName[k] = sub
				}
			} else {
				if fi.name == "" {
					fi.name = f.Name
				}
				ti.byName[fi.name] = fi
			}
			ti.fields = append(ti.fields, fi)
			ti.needsCheck = ti.needsCheck || fi.ranged || b.of(f.Type).needsCheck
		}
		ti.names = sortedKeys(ti.byName)
	case reflect.Pointer, reflect.Slice, reflect.Array:
		ti.needsCheck = ti.needsCheck || (t != rawMessageType && b.of(t.Elem()).needsCheck)
	}
	return ti
}

// check enforces min, max and enum tags on a decoded value and runs Check
// methods, depth first so that inner problems come first. node is the
// value's (cleaned) JSON, which says which fields were given.
func (d *decoder) check(v reflect.Value, node any, p *pathNode) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if _, skip := node.(dropped); skip {
		return
	}
	ti := typeInfoOf(v.Type())
	if !ti.needsCheck {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.checkStruct(v, node, p, ti)
	case reflect.Slice, reflect.Array:
		arr, _ := node.([]any)
		for i := 0; i < v.Len(); i++ {
			var el any
			if i < len(arr) {
				el = arr[i]
			}
			child := pathNode{parent: p, index: i, isElem: true}
			d.check(v.Index(i), el, &child)
		}
	}
	if ti.checker && v.CanAddr() {
		if ps := v.Addr().Interface().(Checker).Check(); len(ps) > 0 {
			d.rest = append(d.rest, Prefix(p.String(), ps)...)
		}
	}
}

func (d *decoder) checkStruct(v reflect.Value, node any, p *pathNode, ti *typeInfo) {
	obj, _ := node.(map[string]any)
	for _, f := range ti.fields {
		fv := v.Field(f.index[0])
		if f.embedded {
			d.check(fv, node, p)
			continue
		}
		val, given := obj[f.name]
		given = given && val != nil
		if f.ranged && len(d.rest) < 2*MaxProblems {
			here := pathNode{parent: p, key: f.name} // stays on the stack
			d.rest = checkField(fv, &f, &here, given, d.rest)
		} else if f.ranged {
			d.more++
		}
		if typeInfoOf(fv.Type()).needsCheck { // else check returns at once: no path node to make
			d.check(fv, val, &pathNode{parent: p, key: f.name})
		}
	}
}

func checkField(v reflect.Value, f *fieldInfo, p *pathNode, given bool, ps []Problem) []Problem {
	minTag, maxTag, enumTag := f.minTag, f.maxTag, f.enumTag
	var x float64
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x = float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x = float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		x = v.Float()
	case reflect.String:
		if enumTag != "" && !contains(f.enum, v.String()) {
			opts := strings.ReplaceAll(enumTag, ",", ", ")
			if !given && v.String() == "" {
				ps = append(ps, Problem{p.String(), "is required (one of " + opts + ")"})
			} else {
				ps = append(ps, Problem{p.String(), fmt.Sprintf("must be one of %s, got %q", opts, v.String())})
			}
		}
		return ps
	default:
		return ps
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(ps, Problem{p.String(), "must be a finite number"})
	}
	if minTag != "" {
		if x < f.lo {
			if !given && x == 0 {
				return append(ps, Problem{p.String(), fmt.Sprintf("is required (at least %s)", minTag)})
			}
			return append(ps, Problem{p.String(), fmt.Sprintf("must be at least %s, got %s", minTag, fmtNum(x))})
		}
	}
	if maxTag != "" {
		if x > f.hi {
			ps = append(ps, Problem{p.String(), fmt.Sprintf("must be at most %s, got %s", maxTag, fmtNum(x))})
		}
	}
	return ps
}

// jsonName returns the JSON name a struct field's tag gives it ("" for
// none) and whether the field takes part in JSON at all.
func jsonName(f reflect.StructField) (string, bool) {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name, f.IsExported() && name != "-"
}

// fmtNum prints whole numbers in full (10000000, not 1e+07).
func fmtNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

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
func suggest(k string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
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

// Nearest returns the name closest to s (ignoring case), if it is close
// enough to be a likely typo of it (a quarter of its letters, at least
// one), for "did you mean" hints.
func Nearest(s string, names []string) string {
	best, bestD := "", max(1, len(s)/4)+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
