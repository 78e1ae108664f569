package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// sameTree checks that ScanJSON reads every valid document, as
// encoding/json does (numbers as json.Number), and refuses what
// encoding/json refuses. (It may refuse more: Parse then falls back to
// encoding/json, whose Decoder takes "0]" as the document 0.)
func sameTree(t *testing.T, src []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var want any
	err := dec.Decode(&want)
	if err == nil && dec.More() {
		err = errTrailing
	}
	got, ok := ScanJSON(src, newMap, setMap)
	switch {
	case err != nil && ok:
		t.Errorf("%q: read as %v, encoding/json says %v", src, got, err)
	case json.Valid(src) && !ok:
		t.Errorf("%q: refused, encoding/json reads it", src)
	case ok && !reflect.DeepEqual(got, want):
		t.Errorf("%q: read as %#v, encoding/json as %#v", src, got, want)
	}
}

var errTrailing = &json.SyntaxError{}

var scanCases = []string{
	``, ` `, `{}`, `[]`, `{"a": }`, `{"a": 1} x`, `{"a": 1} {}`, `[1, 2`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`,
	`{"z": 1, "a": [1.50, "x<y", true, null, {}], "m": {"b": 2, "a": 1e3}}`,
	`{"a": 1, "a": 2, "b": 3}`, `"\u00e9\n\"\\\/"`, `"é ☃"`, "\"a\xffb\"", "\"tab\there\"",
	`"\ud83d\ude00"`, `"\ud83d"`, `"\x"`, `-0`, `-`, `01`, `1.`, `.5`, `1e`, `1e+5`, `-1.25E-3`, `1.5e07`,
	`tru`, `truex`, `nul`, `[true,false,null]`, ` {"a" : [ 1 , { "b" : "c" } ] } `, `{"a":[[[[]]]]}`,
	"\xef\xbb\xbf{}", `0]`, `{"":""}`, `[1e400]`, `{"jobs":[{"id":"j1","arrival_s":0,"gpus":1}]}`,
}

// ScanJSON gives encoding/json's tree for odd and broken inputs, and
// refuses nesting deeper than encoding/json allows.
func TestScanJSON(t *testing.T) {
	for _, src := range scanCases {
		sameTree(t, []byte(src))
	}
	n := maxDepth + 1
	deep := append(bytes.Repeat([]byte("["), n), bytes.Repeat([]byte("]"), n)...)
	if _, ok := ScanJSON(deep, newMap, setMap); ok {
		t.Error("nesting past encoding/json's limit was read")
	}
	if _, ok := ScanJSON(deep[1:len(deep)-1], newMap, setMap); !ok {
		t.Error("nesting at encoding/json's limit was refused")
	}
}

func FuzzScanJSON(f *testing.F) {
	for _, src := range scanCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) { sameTree(t, src) })
}
