package doc

import (
	"encoding/json"
	"unicode/utf8"
)

// The editor opens documents of tens of thousands of jobs (an imported
// trace): encoding/json's token reader took seconds of the page's main
// thread for one in WebAssembly. fastParse reads a valid document in one
// pass over its bytes into the same tree; on anything it does not accept
// (a syntax error, nesting deeper than encoding/json allows) Parse falls
// back to the token reader, which then gives its usual error.

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

type scanner struct {
	data  []byte
	i     int
	depth int
}

// fastParse returns the tree of data and true, or false when data is not
// a document it reads.
func fastParse(data []byte) (any, bool) {
	s := &scanner{data: data}
	v, ok := s.value()
	if !ok {
		return nil, false
	}
	s.space()
	return v, s.i == len(s.data)
}

func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) value() (any, bool) {
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
		return s.str()
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

func (s *scanner) object() (any, bool) {
	if s.depth++; s.depth > maxDepth {
		return nil, false
	}
	defer func() { s.depth-- }()
	s.i++ // '{'
	o := NewObject()
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
		o.Set(k.(string), v)
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

func (s *scanner) array() (any, bool) {
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
func (s *scanner) str() (any, bool) {
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
				return string(raw[1 : len(raw)-1]), true
			}
			var out string
			if json.Unmarshal(raw, &out) != nil {
				return nil, false
			}
			return out, true
		case c == '\\':
			plain = false
			s.i += 2
		case c < 0x20:
			return nil, false
		default:
			s.i++
		}
	}
	return nil, false
}

// number reads a JSON number as written:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() (any, bool) {
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
	return json.Number(s.data[start:s.i]), true
}

func (s *scanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}
