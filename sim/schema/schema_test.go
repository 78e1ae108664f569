package schema

import (
	"strings"
	"testing"
)

type server struct {
	Count int     `json:"count" min:"1"`
	GPUs  int     `json:"gpus" min:"1" max:"64"`
	Mem   float64 `json:"gpu_memory_gb,omitempty" min:"0"`
}

type doc struct {
	Name    string   `json:"name"`
	Servers []server `json:"servers"`
	Mode    string   `json:"mode,omitempty" enum:"fast,slow"`
	Seeds   []uint64 `json:"seeds,omitempty"`
	Ratio   float64  `json:"ratio,omitempty" min:"0" max:"1"`
}

func (d *doc) Check() []Problem {
	if len(d.Servers) == 0 {
		return []Problem{{"servers", "must list at least one server group"}}
	}
	return nil
}

func TestDecodeReportsEveryProblemWithPath(t *testing.T) {
	in := `{"name": 3, "servers": [{"count": 2, "gpus": 4}, {"count": 1, "gpus": 0}, {"count": 1, "gpu": 4}],
	        "mode": "medium", "seeds": [1.5], "ratio": 2, "extra": true}`
	var d doc
	ps := DecodeBytes([]byte(in), &d)
	got := Problems(ps).Error()
	// Shape problems do not hide range problems elsewhere in the document.
	want := []string{
		`extra: unknown field`,
		`name: must be a string, got the number 3`,
		`seeds[0]: must be a whole number, got the number 1.5`,
		`servers[2].gpu: unknown field (did you mean "gpus"?)`,
		`servers[1].gpus: must be at least 1, got 0`,
		`servers[2].gpus: is required (at least 1)`,
		`mode: must be one of fast, slow, got "medium"`,
		`ratio: must be at most 1, got 2`,
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(ps), len(want), got)
	}
}

func TestWronglyTypedValueIsNotAlsoMissing(t *testing.T) {
	var d doc
	ps := DecodeBytes([]byte(`{"name":"x","mode":"fast","servers":[{"count":1,"gpus":"four"}]}`), &d)
	if len(ps) != 1 || ps[0].Path != "servers[0].gpus" {
		t.Fatalf("want one problem at servers[0].gpus, got %v", ps)
	}
}

func TestDecodeChecksRangesAfterShape(t *testing.T) {
	in := `{"name": "x", "servers": [{"count": 2, "gpus": 4}, {"count": 1, "gpus": 0}, {"gpus": 65}],
	        "mode": "medium", "ratio": 2}`
	var d doc
	got := Problems(DecodeBytes([]byte(in), &d)).Error()
	want := []string{
		"servers[1].gpus: must be at least 1, got 0",
		"servers[2].count: is required (at least 1)",
		"servers[2].gpus: must be at most 64, got 65",
		`mode: must be one of fast, slow, got "medium"`,
		"ratio: must be at most 1, got 2",
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", n, len(want), got)
	}
}

func TestDecodeKeepsDefaultsAndRunsCheck(t *testing.T) {
	d := doc{Mode: "fast", Ratio: 0.5}
	ps := DecodeBytes([]byte(`{"name":"x","servers":[]}`), &d)
	if len(ps) != 1 || ps[0].Path != "servers" {
		t.Fatalf("want the Check problem only, got %v", ps)
	}
	if d.Mode != "fast" || d.Ratio != 0.5 {
		t.Fatalf("defaults lost: %+v", d)
	}
}

func TestParseSyntaxErrorHasLine(t *testing.T) {
	_, err := Parse([]byte("{\n  \"a\": 1,\n  \"b\": ]\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("got %v", err)
	}
	if _, err := Parse([]byte("")); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty document: %v", err)
	}
	if _, err := Parse([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

func TestDescribe(t *testing.T) {
	fs := Describe(&server{Count: 2})
	if len(fs) != 3 || fs[0].Name != "count" || fs[0].Default != 2 || *fs[1].Max != 64 || fs[2].Kind != "number" {
		t.Fatalf("%+v", fs)
	}
}

type Server server

type withEmbedded struct {
	Server
	Mode string `json:"mode" enum:"a,b"`
}

// Embedded fields are listed as the struct's own, as JSON encodes them.
func TestDescribeFlattensEmbedded(t *testing.T) {
	fs := Describe(&withEmbedded{Server: Server{GPUs: 8}, Mode: "b"})
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "count,gpus,gpu_memory_gb,mode" {
		t.Fatalf("fields %s", got)
	}
	if fs[1].Default != 8 || fs[3].Default != "b" || len(fs[3].Enum) != 2 {
		t.Fatalf("%+v", fs)
	}
}

// Whole-number floats fill integer fields; fractions, overflow and out of
// range values are named as such, each with its path.
func TestNumbers(t *testing.T) {
	var d doc
	if ps := DecodeBytes([]byte(`{"name":"x","mode":"fast","servers":[{"count":2e0,"gpus":4.0}],"seeds":[1e+06, 18446744073709551615]}`), &d); len(ps) > 0 {
		t.Fatalf("whole floats refused: %v", ps)
	}
	if d.Servers[0].Count != 2 || d.Servers[0].GPUs != 4 || d.Seeds[0] != 1e6 || d.Seeds[1] != 1<<64-1 {
		t.Fatalf("decoded %+v", d)
	}
	for in, want := range map[string]string{
		`{"name":"x","mode":"fast","servers":[{"count":1,"gpus":1}],"ratio":1e400}`:                  "ratio: the number 1e400 is too large",
		`{"name":"x","mode":"fast","servers":[{"count":1e400,"gpus":1}]}`:                            "servers[0].count: the number 1e400 is too large",
		`{"name":"x","mode":"fast","servers":[{"count":1,"gpus":1}],"seeds":[-1]}`:                   "seeds[0]: must be a whole number from 0 to 18446744073709551615, got the number -1",
		`{"name":"x","mode":"fast","servers":[{"count":1,"gpus":1}],"seeds":[18446744073709551616]}`: "seeds[0]: must be a whole number from 0 to 18446744073709551615",
		`{"name":"x","mode":"fast","servers":[{"count":2.5,"gpus":1}]}`:                              "servers[0].count: must be a whole number, got the number 2.5",
	} {
		var d doc
		ps := DecodeBytes([]byte(in), &d)
		if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), want) {
			t.Errorf("%s: got %v, want %q", in, ps, want)
		}
	}
}
