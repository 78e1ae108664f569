package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

// runJSON runs fifo-vs-sjf's first seed with extra flags and decodes its
// JSON output.
func runJSON(t *testing.T, flags ...string) (results.Output, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"run", "fifo-vs-sjf", "--format", "json"}, flags...)
	if code := dispatch(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	var out results.Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out, stdout.String()
}

// A run above --stream-above keeps no job records but reports the same
// metrics, per-model and per-size summaries as when it keeps them, says it
// streamed, and carries a JCT CDF within its stated error.
func TestStreamingModeSameSummaries(t *testing.T) {
	kept, keptText := runJSON(t)
	streamed, _ := runJSON(t, "--stream-above", "10")
	if strings.Contains(keptText, "streamed") || strings.Contains(keptText, "jct_cdf") {
		t.Error("a run below the streaming size mentions streaming")
	}
	for i, k := range kept.Results {
		s := streamed.Results[i]
		if !s.Streamed || len(s.Jobs) != 0 || s.JCTCDF == nil {
			t.Fatalf("%s: streamed %v, %d job records, CDF %v", s.Policy, s.Streamed, len(s.Jobs), s.JCTCDF)
		}
		if !reflect.DeepEqual(k.Metrics, s.Metrics) || !reflect.DeepEqual(k.ByModel, s.ByModel) ||
			!reflect.DeepEqual(k.Small, s.Small) || !reflect.DeepEqual(k.Large, s.Large) {
			t.Errorf("%s: streamed summaries differ:\n%+v\n%+v", k.Policy, k.Metrics, s.Metrics)
		}
		if len(s.Notes) == 0 || !strings.HasPrefix(s.Notes[0], "streaming mode: the run's 30 jobs") {
			t.Errorf("%s: notes %q", s.Policy, s.Notes)
		}
		// 30 jobs fit in the CDF's points: it is the exact CDF.
		var jct []float64
		for _, j := range k.Jobs {
			if j.JCTS != nil {
				jct = append(jct, *j.JCTS)
			}
		}
		if len(s.JCTCDF.X) != len(jct) || s.JCTCDF.Y[len(jct)-1] != 1 || s.JCTCDF.MaxError <= 0 {
			t.Errorf("%s: CDF of %d points for %d finished jobs, ends at %v", s.Policy, len(s.JCTCDF.X), len(jct), s.JCTCDF.Y)
		}
	}
}

// The table says on stderr that a run streamed, and --out still writes
// the figures (the CDF from the thinned points) and an empty jobs.csv.
func TestStreamingModeTableAndOut(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"run", "fifo-vs-sjf", "--stream-above", "10", "--out", dir}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "FIFO (seed 1): note: streaming mode") {
		t.Errorf("stderr does not say the run streamed:\n%s", stderr.String())
	}
	var plain bytes.Buffer
	if code := dispatch([]string{"run", "fifo-vs-sjf"}, &plain, &bytes.Buffer{}); code != exitOK || plain.String() != stdout.String() {
		t.Errorf("streamed table differs from the kept one:\n%s\n%s", stdout.String(), plain.String())
	}
	csv, err := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if err != nil || strings.Count(string(csv), "\n") != 1 {
		t.Errorf("jobs.csv of a streamed run: %v, %d lines", err, strings.Count(string(csv), "\n"))
	}
	if _, err := os.Stat(filepath.Join(dir, "jct_cdf.svg")); err != nil {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("no CDF figure: %v (files %v)", err, names)
	}
}
