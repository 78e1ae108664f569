package doc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
)

// sameParse checks that fastParse gives the token reader's tree, or that
// both refuse the input.
func sameParse(t *testing.T, src []byte) {
	t.Helper()
	want, err := parseTokens(src)
	got, ok := fastParse(src)
	if err != nil {
		if ok {
			t.Errorf("%q: read as %s, the token reader says %v", src, Compact(got), err)
		}
		return
	}
	if !ok {
		t.Errorf("%q: refused, the token reader reads it", src)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: read as %s, the token reader as %s", src, Compact(got), Compact(want))
	}
}

var parseCases = []string{
	``, ` `, `{}`, `[]`, `{"a": }`, `{"a": 1} x`, `[1, 2`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`,
	`{"z": 1, "a": [1.50, "x<y", true, null, {}], "m": {"b": 2, "a": 1e3}}`,
	`{"a": 1, "a": 2, "b": 3}`, `"\u00e9\n\"\\\/"`, `"é ☃"`, "\"a\xffb\"", "\"tab\there\"",
	`"\ud83d\ude00"`, `"\ud83d"`, `"\x"`, `-0`, `-`, `01`, `1.`, `.5`, `1e`, `1e+5`, `-1.25E-3`, `1.5e07`,
	`tru`, `truex`, `nul`, `[true,false,null]`, ` {"a" : [ 1 , { "b" : "c" } ] } `, `{"a":[[[[]]]]}`, `1 2`,
	"\xef\xbb\xbf{}", `{"":""}`, `[1e400]`,
}

// The one-pass reader gives the token reader's tree, key order included,
// for every built-in scenario and for odd and broken inputs.
func TestFastParse(t *testing.T) {
	for _, name := range scenarios.Names() {
		data, _ := scenarios.Read(name)
		sameParse(t, data)
	}
	for _, src := range parseCases {
		sameParse(t, []byte(src))
	}
	deep := bytes.Repeat([]byte("["), 10001)
	if _, ok := fastParse(append(deep, bytes.Repeat([]byte("]"), 10001)...)); ok {
		t.Error("nesting past encoding/json's limit was read")
	}
}

func FuzzFastParse(f *testing.F) {
	for _, src := range parseCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) { sameParse(t, src) })
}

// Strings are written as encoding/json writes them with HTML escaping
// off, whether the plain-ASCII shortcut takes them or not.
func TestWriteString(t *testing.T) {
	for _, s := range []string{"", "resnet50", "j 12", "x<y&z>", `a"b`, `back\slash`, "tab\t", "é", "\u2028", "del\x7f", "bad\xff", "~"} {
		var b bytes.Buffer
		writeString(&b, s)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		if got := b.String(); got != want.String()[:want.Len()-1] {
			t.Errorf("%q written %s, want %s", s, got, want.String())
		}
	}
}
