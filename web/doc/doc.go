// Package doc is the editor's copy of a scenario: a JSON tree that keeps
// object keys in their order and numbers as written, so that a document
// loaded, edited and saved again differs only where it was edited, and a
// shared or stored document comes back byte for byte.
//
// A tree holds *Object, []any, string, json.Number, bool and nil. The
// editor also stores text that is not (yet) a valid value as a string
// where a number belongs: the scenario validator then reports it at its
// path, and nothing the user typed is lost.
//
// Paths are those of the scenario validator: "cluster.servers[0].gpus".
package doc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Object is a JSON object that keeps its keys in insertion order. Its
// values sit beside its keys: most objects of a scenario are small (a
// job has five to ten keys), and a map for each of the 74,426 jobs of an
// imported trace was most of the memory, and of the garbage collector's
// work, of opening it. Big objects also get an index.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // for objects over indexFrom keys
}

// indexFrom is the number of keys past which an object is indexed.
const indexFrom = 16

// NewObject returns an empty object.
func NewObject() *Object { return &Object{} }

// Keys returns the keys in order. The slice must not be modified.
func (o *Object) Keys() []string { return o.keys }

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// find returns the position of key k, or -1.
func (o *Object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, x := range o.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// Get returns the value of key k.
func (o *Object) Get(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Set sets key k, appending it when new.
func (o *Object) Set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	switch n := len(o.keys); {
	case o.index != nil:
		o.index[k] = n - 1
	case n > indexFrom:
		o.reindex()
	}
}

func (o *Object) reindex() {
	o.index = nil
	if len(o.keys) <= indexFrom {
		return
	}
	o.index = make(map[string]int, len(o.keys))
	for i, k := range o.keys {
		o.index[k] = i
	}
}

// Delete removes key k.
func (o *Object) Delete(k string) {
	i := o.find(k)
	if i < 0 {
		return
	}
	// New slices: a caller may be ranging over Keys().
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
	o.reindex()
}

// Parse reads a JSON document into an ordered tree.
func Parse(data []byte) (any, error) {
	if v, ok := fastParse(data); ok {
		return v, nil
	}
	return parseTokens(data)
}

// parseTokens is Parse through encoding/json's token reader: the
// reference fastParse is tested against, and the source of the errors.
func parseTokens(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, describe(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the JSON document")
	}
	return v, nil
}

func describe(data []byte, dec *json.Decoder, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("the document is empty or ends too early")
	}
	off := dec.InputOffset()
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("line %d, column %d: %v", line, col, err)
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // string, json.Number, bool, nil
	}
}

// FromGo converts a Go value (through its JSON encoding) into a tree.
func FromGo(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic("doc.FromGo: " + err.Error()) // only called on plain data types
	}
	t, err := Parse(b)
	if err != nil {
		panic("doc.FromGo: " + err.Error())
	}
	return t
}

// Marshal encodes a tree as indented JSON (two spaces), the layout of the
// files in scenarios/.
func Marshal(v any) []byte {
	var b bytes.Buffer
	write(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

// Compact encodes a tree as JSON without white space.
func Compact(v any) []byte {
	var b bytes.Buffer
	writeCompact(&b, v)
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s string) {
	if plainASCII(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // strings always encode
	b.Truncate(b.Len() - 1) // Encode's newline
}

// plainASCII reports whether s is printable ASCII without a quote or a
// backslash, which encoding/json (with HTML escaping off) writes as is:
// nearly every string of a scenario, and writing it directly spares an
// encoder per string (most of marshalling a 74,426-job document).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func writeScalar(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeString(b, x)
	case json.Number:
		b.WriteString(string(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	default:
		panic(fmt.Sprintf("doc: %T is not a tree value", v))
	}
}

func write(b *bytes.Buffer, v any, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case *Object:
		if x.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range x.keys {
			b.WriteString(inner)
			writeString(b, k)
			b.WriteString(": ")
			write(b, x.vals[i], inner)
			if i < len(x.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(inner)
			write(b, e, inner)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		writeScalar(b, v)
	}
}

func writeCompact(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case *Object:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeCompact(b, x.vals[i])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCompact(b, e)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, v)
	}
}

// Clone returns a deep copy of a tree.
func Clone(v any) any {
	switch x := v.(type) {
	case *Object:
		o := &Object{keys: append([]string(nil), x.keys...), vals: make([]any, len(x.vals))}
		for i, e := range x.vals {
			o.vals[i] = Clone(e)
		}
		o.reindex()
		return o
	case []any:
		arr := make([]any, len(x))
		for i, e := range x {
			arr[i] = Clone(e)
		}
		return arr
	}
	return v
}

// Step is one step of a path: an object key or an array index.
type Step struct {
	Key   string
	Index int // valid when IsIndex
	IsIdx bool
}

// ParsePath splits "a.b[2].c" into steps.
func ParsePath(path string) ([]Step, error) {
	var steps []Step
	for path != "" {
		switch {
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil, fmt.Errorf("doc: unclosed [ in path")
			}
			i, err := strconv.Atoi(path[1:end])
			if err != nil || i < 0 {
				return nil, fmt.Errorf("doc: bad index %q in path", path[1:end])
			}
			steps = append(steps, Step{Index: i, IsIdx: true})
			path = path[end+1:]
		case path[0] == '.':
			path = path[1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			steps = append(steps, Step{Key: path[:end]})
			path = path[end:]
		}
	}
	return steps, nil
}

// Get returns the value at path.
func Get(root any, path string) (any, bool) {
	steps, err := ParsePath(path)
	if err != nil {
		return nil, false
	}
	v := root
	for _, s := range steps {
		var ok bool
		if v, ok = child(v, s); !ok {
			return nil, false
		}
	}
	return v, true
}

func child(v any, s Step) (any, bool) {
	if s.IsIdx {
		arr, ok := v.([]any)
		if !ok || s.Index >= len(arr) {
			return nil, false
		}
		return arr[s.Index], true
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, false
	}
	return o.Get(s.Key)
}

// Set stores v at path and returns the (possibly new) root. Missing
// objects on the way are created; an index may be at most the array's
// length (which appends).
func Set(root any, path string, v any) (any, error) {
	steps, err := ParsePath(path)
	if err != nil {
		return root, err
	}
	return set(root, steps, v)
}

func set(node any, steps []Step, v any) (any, error) {
	if len(steps) == 0 {
		return v, nil
	}
	s := steps[0]
	if s.IsIdx {
		arr, ok := node.([]any)
		if !ok {
			if node != nil {
				return node, fmt.Errorf("doc: not a list where index %d is used", s.Index)
			}
			arr = []any{}
		}
		if s.Index > len(arr) {
			return node, fmt.Errorf("doc: index %d is past the end of a list of %d", s.Index, len(arr))
		}
		var cur any
		if s.Index < len(arr) {
			cur = arr[s.Index]
		}
		nv, err := set(cur, steps[1:], v)
		if err != nil {
			return node, err
		}
		if s.Index == len(arr) {
			return append(arr, nv), nil
		}
		arr[s.Index] = nv
		return arr, nil
	}
	o, ok := node.(*Object)
	if !ok {
		if node != nil {
			if _, isStr := node.(string); !isStr {
				return node, fmt.Errorf("doc: not an object where key %q is used", s.Key)
			}
		}
		o = NewObject() // replaces nothing or a stray string
	}
	cur, _ := o.Get(s.Key)
	nv, err := set(cur, steps[1:], v)
	if err != nil {
		return node, err
	}
	o.Set(s.Key, nv)
	return o, nil
}

// Delete removes the value at path (an object key or an array element)
// and returns the root.
func Delete(root any, path string) any {
	steps, err := ParsePath(path)
	if err != nil || len(steps) == 0 {
		return root
	}
	parentSteps, last := steps[:len(steps)-1], steps[len(steps)-1]
	parent := root
	for _, s := range parentSteps {
		var ok bool
		if parent, ok = child(parent, s); !ok {
			return root
		}
	}
	if last.IsIdx {
		arr, ok := parent.([]any)
		if !ok || last.Index >= len(arr) {
			return root
		}
		arr = append(arr[:last.Index:last.Index], arr[last.Index+1:]...)
		r, _ := set(root, parentSteps, arr)
		return r
	}
	if o, ok := parent.(*Object); ok {
		o.Delete(last.Key)
	}
	return root
}

// List returns the array at path (nil when absent or not a list).
func List(root any, path string) []any {
	v, _ := Get(root, path)
	arr, _ := v.([]any)
	return arr
}

// Obj returns the object at path (nil when absent or not an object).
func Obj(root any, path string) *Object {
	v, _ := Get(root, path)
	o, _ := v.(*Object)
	return o
}

// Str returns the string at path ("" when absent or not a string).
func Str(root any, path string) string {
	v, _ := Get(root, path)
	s, _ := v.(string)
	return s
}

// Num returns the number at path, and whether it is one.
func Num(root any, path string) (float64, bool) {
	v, _ := Get(root, path)
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// Index returns the path of element i of the list at path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Join appends a key to a path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
