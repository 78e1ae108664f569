package schema

import (
	"strings"
	"testing"
)

func TestDuplicateKeys(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"a": 1, "a": 2}`, `a: is given twice in one object (the second time at line 1, column 10)`},
		{"{\"name\": \"x\",\n \"servers\": [{\"count\": 1},\n  {\"count\": 2, \"gpus\": 4, \"count\": 3}]}", `servers[1].count: is given twice in one object (the second time at line 3, column 27)`},
		{`{"p": [[{"k": 1}], [{"k": 1, "j": {"x": [1, {"y": 1, "y": 1}]}}]]}`, `p[1][0].j.x[1].y: is given twice`},
		{`{"a": {"b": 1}, "c": {"b": 2}, "a": 3}`, `a: is given twice`},
		{"\xEF\xBB\xBF" + `{"a": "x", "b": {"a": 1}, "b": 2}`, `b: is given twice in one object (the second time at line 1, column 27)`},
	} {
		_, err := Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.doc, err, c.want)
		}
		if ps, ok := err.(Problems); !ok || len(ps) != 1 {
			t.Errorf("%s: not one problem: %#v", c.doc, err)
		}
	}
	// The same key in different objects, and escaped spellings of
	// different keys, are fine.
	for _, doc := range []string{`{"a": {"b": 1}, "c": {"b": 2}, "b": [{"b": 1}, {"b": 2}]}`, `{"a\u0062": 1, "ab\n": 2}`, `[{"a": 1}, {"a": 1}]`} {
		if _, err := Parse([]byte(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
		if p, ok := DuplicateKey([]byte(doc)); ok {
			t.Errorf("%s: DuplicateKey found %v", doc, p)
		}
	}
}
