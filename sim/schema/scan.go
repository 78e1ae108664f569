package schema

import (
	"encoding/json"
	"unicode/utf8"
)

// A scenario of tens of thousands of explicit jobs (an imported trace)
// took encoding/json most of a second natively, and several in the page's
// WebAssembly, to read into a tree; ScanJSON does it in a fraction.

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

type scanner[O any] struct {
	data   []byte
	i      int
	depth  int
	newObj func() O
	set    func(O, string, any)
	// strs holds the short strings read so far, and boxed the short
	// strings and numbers as values: the keys, model names and GPU counts
	// of tens of thousands of jobs are a few strings repeated, and making
	// each anew (a string, then its box in an interface) was most of the
	// allocations of reading them.
	strs  map[string]string
	boxed map[string]any // by the text as written: "1" and 1 differ in their first byte
}

// maxInterned bounds strs and boxed (job ids are all different).
const maxInterned = 4096

// box returns str as a value, the same box for the same short string.
func (s *scanner[O]) box(str string) any {
	if len(str) > 31 { // with its quote, 32 bytes: the key is made without allocating
		return str
	}
	if v, ok := s.boxed["\""+str]; ok {
		return v
	}
	return s.keep("\""+str, str)
}

// keep remembers the boxed value v of text, while there is room.
func (s *scanner[O]) keep(text string, v any) any {
	if s.boxed == nil {
		s.boxed = map[string]any{}
	}
	if len(s.boxed) < maxInterned {
		s.boxed[text] = v
	}
	return v
}

// intern returns b as a string, the same string for the same short bytes.
func (s *scanner[O]) intern(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	if str, ok := s.strs[string(b)]; ok { // no allocation for the lookup
		return str
	}
	str := string(b)
	if s.strs == nil {
		s.strs = map[string]string{}
	}
	if len(s.strs) < maxInterned {
		s.strs[str] = str
	}
	return str
}

// ScanJSON reads a JSON document into a tree of objects made by newObj
// and filled by set, []any, string, json.Number, bool and nil, in one
// pass over its bytes. It returns false on anything encoding/json would
// refuse (and on nesting deeper than it allows), so that a caller falls
// back to encoding/json for its error; on a document encoding/json reads
// it gives the same values, strings with escapes or invalid UTF-8
// decoded by encoding/json itself.
func ScanJSON[O any](data []byte, newObj func() O, set func(O, string, any)) (any, bool) {
	s := &scanner[O]{data: data, newObj: newObj, set: set}
	v, ok := s.value()
	if !ok {
		return nil, false
	}
	s.space()
	return v, s.i == len(s.data)
}

func (s *scanner[O]) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner[O]) value() (any, bool) {
	s.space()
	if s.i >= len(s.data) {
		return nil, false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		str, ok := s.str()
		return s.box(str), ok
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(s.data)-s.i >= len(lit.text) && string(s.data[s.i:s.i+len(lit.text)]) == lit.text {
			s.i += len(lit.text)
			return lit.v, true
		}
	}
	return nil, false
}

func (s *scanner[O]) object() (any, bool) {
	if s.depth++; s.depth > maxDepth {
		return nil, false
	}
	defer func() { s.depth-- }()
	s.i++ // '{'
	o := s.newObj()
	s.space()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return o, true
	}
	for {
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return nil, false
		}
		k, ok := s.str()
		if !ok {
			return nil, false
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return nil, false
		}
		s.i++
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		s.set(o, k, v)
		s.space()
		if s.i >= len(s.data) {
			return nil, false
		}
		switch s.data[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return o, true
		default:
			return nil, false
		}
	}
}

func (s *scanner[O]) array() (any, bool) {
	if s.depth++; s.depth > maxDepth {
		return nil, false
	}
	defer func() { s.depth-- }()
	s.i++ // '['
	arr := []any{}
	s.space()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return arr, true
	}
	for {
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		s.space()
		if s.i >= len(s.data) {
			return nil, false
		}
		switch s.data[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return arr, true
		default:
			return nil, false
		}
	}
}

// str reads a string. One without escapes, in valid UTF-8, is its bytes;
// any other is decoded by encoding/json, so that escapes and invalid
// bytes come out exactly as the token reader gives them.
func (s *scanner[O]) str() (string, bool) {
	start := s.i
	s.i++ // '"'
	plain := true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			raw := s.data[start:s.i]
			if plain && utf8.Valid(raw) {
				return s.intern(raw[1 : len(raw)-1]), true
			}
			var out string
			if json.Unmarshal(raw, &out) != nil {
				return "", false
			}
			return out, true
		case c == '\\':
			plain = false
			s.i += 2
		case c < 0x20:
			return "", false
		default:
			s.i++
		}
	}
	return "", false
}

// number reads a JSON number as written:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner[O]) number() (any, bool) {
	start := s.i
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return nil, false
	}
	if s.peek() == '.' {
		s.i++
		if s.digits() == 0 {
			return nil, false
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if s.digits() == 0 {
			return nil, false
		}
	}
	b := s.data[start:s.i]
	if len(b) > 32 {
		return json.Number(b), true
	}
	if v, ok := s.boxed[string(b)]; ok { // no allocation for the lookup
		return v, true
	}
	return s.keep(string(b), json.Number(b)), true
}

func (s *scanner[O]) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *scanner[O]) digits() int {
	n := 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}
