package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A JSON object that gives one key twice is valid JSON, and every reader
// keeps one of the two values without a word (encoding/json the last).
// A scenario or a request that says "seed" twice means one of them by
// mistake, so both are refused, naming the key where it is.

// DuplicateKey finds the first key given twice in one object of the JSON
// document data and returns it as a problem at the key's path, with its
// line and column; ok is false when there is none (or the document is
// not valid JSON, which the caller reports otherwise). It reads the whole
// document token by token: call it only once a cheaper pass found a
// duplicate, or on small documents.
func DuplicateKey(data []byte) (p Problem, ok bool) {
	data = bytes.TrimPrefix(data, utf8BOM)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		path   string
		keys   map[string]bool
		next   int    // arrays: the index of the next element
		key    string // objects: the key whose value comes next
	}
	var stack []*frame
	// childPath is the path of the value about to be read.
	childPath := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return Join(f.path, f.key)
		}
		return Index(f.path, f.next)
	}
	// valueDone moves the parent past the value just read.
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		if f := stack[len(stack)-1]; f.object {
			f.key = ""
		} else {
			f.next++
		}
	}
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return Problem{}, false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, isKey := tok.(string); isKey && top != nil && top.object && top.key == "" {
			if top.keys[s] {
				line, col := lineCol(data, keyStart(data, off))
				return Problem{Path: Join(top.path, s), Msg: fmt.Sprintf(
					"is given twice in one object (the second time at line %d, column %d); give each key once", line, col)}, true
			}
			top.keys[s] = true
			top.key = s
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: childPath(), keys: map[string]bool{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{path: childPath()})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return Problem{}, false
			}
		}
		if len(stack) == 0 {
			return Problem{}, false // a document that is not an object or a list
		}
		valueDone()
	}
}

// keyStart skips the separators before a key that starts after offset off
// (InputOffset is where the previous token ended).
func keyStart(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}
