package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinyMPS = `NAME tiny
OBJSENSE
    MAX
ROWS
 N cost
 L lim
COLUMNS
    x cost 3 lim 1
    y cost 2 lim 1
RHS
    rhs lim 4
BOUNDS
 UP bnd x 3
ENDATA
`

func TestLPCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "tiny.mps")
	bad := filepath.Join(dir, "bad.mps")
	if err := os.WriteFile(good, []byte(tinyMPS), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Replace(tinyMPS, " L lim", " Q lim", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"lp", good}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// max 3x + 2y, x + y ≤ 4, x ≤ 3: x = 3, y = 1, objective 11.
	for _, want := range []string{"status      optimal", "objective   11\n", "iterations  ", " ms\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := dispatch([]string{"lp", "--format", "json", good}, &out, &errOut); code != exitOK {
		t.Fatalf("json: exit %d: %s", code, errOut.String())
	}
	var r lpReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Status != "optimal" || r.Objective == nil || *r.Objective != 11 || r.Rows != 1 || r.Cols != 2 {
		t.Errorf("json report %+v (%v) from\n%s", r, err, out.String())
	}
	errOut.Reset()
	if code := dispatch([]string{"lp", bad}, &out, &errOut); code != exitInvalid || !strings.Contains(errOut.String(), "mps line 6: unknown row type \"Q\"") {
		t.Errorf("bad file: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := dispatch([]string{"lp", filepath.Join(dir, "missing.mps")}, &out, &errOut); code != exitInvalid || !strings.Contains(errOut.String(), "missing.mps") {
		t.Errorf("missing file: exit %d, %q", code, errOut.String())
	}
	if code := dispatch([]string{"lp"}, &out, &errOut); code != exitInvalid {
		t.Errorf("no file: exit %d", code)
	}
}
