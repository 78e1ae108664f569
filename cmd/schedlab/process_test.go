package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestCPUProfile: run and reproduce write a gzipped profile where asked,
// and refuse a path they cannot create, naming the flag.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "gavel-small", "--quick"},
		{"reproduce", "--paper", "sjf-bco", "--figure", "Fig. 2", "--seeds", "1", "--formats", "svg", "--out", filepath.Join(dir, "r")},
	} {
		path := filepath.Join(dir, args[0]+".prof")
		var out, errOut bytes.Buffer
		if code := dispatch(append(args, "--cpuprofile", path), &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		zr, err := gzip.NewReader(f)
		if err == nil {
			_, err = io.ReadAll(zr)
		}
		f.Close()
		if err != nil {
			t.Errorf("%v: the profile is not gzipped protobuf: %v", args, err)
		}

		bad := filepath.Join(dir, "missing", "x.prof")
		out.Reset()
		errOut.Reset()
		if code := dispatch(append(args, "--cpuprofile", bad), &out, &errOut); code != exitInvalid || !strings.Contains(errOut.String(), "--cpuprofile") {
			t.Errorf("%v with an uncreatable path: exit %d, %q", args, code, errOut.String())
		}
	}
}

// TestCollectLessOften: reproduce's GOGC applies only when the
// environment sets none, and is undone after.
func TestCollectLessOften(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	restore := collectLessOften()
	if got := debug.SetGCPercent(reproduceGOGC); got != reproduceGOGC {
		t.Errorf("GOGC unset: percent %d, want %d", got, reproduceGOGC)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after restore: percent %d, want 100", got)
	}
	t.Setenv("GOGC", "150")
	restore = collectLessOften()
	got := debug.SetGCPercent(100)
	restore()
	if got != 100 {
		t.Errorf("GOGC set in the environment: percent changed to %d", got)
	}
}

// TestCollectNearLimit: WebAssembly's collector waits for the memory
// limit only when the environment sets neither GOGC nor GOMEMLIMIT, and
// reproduce then leaves it so.
func TestCollectNearLimit(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func() { collectsNearLimit = false }()
	for _, env := range [][2]string{{"GOGC", "150"}, {"GOMEMLIMIT", "2GiB"}} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(env[0], env[1])
		collectNearLimit()
		if got := debug.SetGCPercent(100); got != 100 || collectsNearLimit {
			t.Errorf("%s set: percent %d, near limit %v", env[0], got, collectsNearLimit)
		}
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	collectNearLimit()
	if got := debug.SetMemoryLimit(-1); got != wasmMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, wasmMemoryLimit)
	}
	restore := collectLessOften()
	got := debug.SetGCPercent(-1)
	restore()
	if got != -1 {
		t.Errorf("reproduce after collectNearLimit: percent %d, want -1 (off)", got)
	}
}
