// Command mutate is schedlab's mutation pass over the papers' formulas:
// each mutant in a committed list (mutants.txt: a file, an exact piece of
// its text, the replacement and why it matters) is compiled in through
// `go test -overlay`, so the working tree is never touched, and only the
// unit tests of the mutated file's package run against it. A mutant is
// caught when those tests fail, escaped when they pass; the pass prints
// each verdict and the share caught.
//
//	go run ./build/mutate                  # every mutant, one at a time
//	go run ./build/mutate -run 'tesserae'  # the mutants whose id matches
//	go run ./build/mutate -j 2 -short      # two at once, tests in -short mode
//
// A mutant the list marks equivalent (no test can tell it from the
// original, and the list says why) is not counted when it escapes. The
// command exits 1 when a mutant does not compile or does not apply, or
// when one not marked equivalent escapes.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// verdict is what the package's tests made of one mutant.
type verdict struct {
	m       Mutant
	status  string // caught, escaped, invalid
	detail  string // the first failing test, or why it is invalid
	elapsed time.Duration
}

func main() {
	list := flag.String("list", "build/mutate/mutants.txt", "the mutant list, relative to the repository root")
	run := flag.String("run", "", "only the mutants whose id matches this regular expression")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one package's tests (go test -timeout); a mutant that makes them hang past it counts as caught")
	jobs := flag.Int("j", 1, "mutants tested at once")
	short := flag.Bool("short", false, "run the tests with -short")
	baseline := flag.Bool("baseline", true, "first check that every package's tests pass unmutated")
	flag.Parse()

	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	ms, err := readList(filepath.Join(root, *list))
	if err != nil {
		fail(err)
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fail(fmt.Errorf("-run: %w", err))
		}
		var keep []Mutant
		for _, m := range ms {
			if re.MatchString(m.ID) {
				keep = append(keep, m)
			}
		}
		ms = keep
	}
	if len(ms) == 0 {
		fail(errors.New("no mutant to test"))
	}
	tmp, err := os.MkdirTemp("", "schedlab-mutate-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	r := runner{root: root, tmp: tmp, timeout: *timeout, short: *short}

	if *baseline {
		for _, dir := range packages(ms) {
			start := time.Now()
			out, err := r.goTest(dir, "")
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s\n", out)
				fail(fmt.Errorf("the unmutated tests of ./%s fail; fix them before a mutation pass", dir))
			}
			fmt.Printf("baseline ./%s passes (%.1f s)\n", dir, time.Since(start).Seconds())
		}
	}

	results := make([]verdict, len(ms))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, max(1, *jobs))
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			v := r.test(i, m)
			mu.Lock()
			results[i] = v
			printVerdict(v)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if summarise(results) {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}

// repoRoot is the directory of the module's go.mod.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run it inside the schedlab module")
	}
	return filepath.Dir(mod), nil
}

// packages lists the package directories of the mutants, in list order.
func packages(ms []Mutant) []string {
	var out []string
	for _, m := range ms {
		if !contains(out, m.Dir()) {
			out = append(out, m.Dir())
		}
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

type runner struct {
	root, tmp string
	timeout   time.Duration
	short     bool
}

// test compiles mutant m in through an overlay and runs its package's
// tests.
func (r runner) test(i int, m Mutant) verdict {
	start := time.Now()
	v := verdict{m: m}
	src, err := apply(r.root, m)
	if err != nil {
		v.status, v.detail = "invalid", err.Error()
		return v
	}
	dir := filepath.Join(r.tmp, fmt.Sprint(i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	mutated := filepath.Join(dir, filepath.Base(m.File))
	overlay := filepath.Join(dir, "overlay.json")
	js, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(r.root, m.File): mutated}})
	if err := os.WriteFile(mutated, src, 0o644); err != nil {
		fail(err)
	}
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		fail(err)
	}
	out, err := r.goTest(m.Dir(), overlay)
	v.elapsed = time.Since(start)
	switch {
	case err == nil:
		v.status = "escaped"
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		v.status, v.detail = "invalid", "does not compile: "+firstLine(out, func(l string) bool { return strings.Contains(l, ".go:") })
	default:
		v.status, v.detail = "caught", failure(out)
	}
	return v
}

// goTest runs the unit tests of one package directory, with an overlay
// when given; vet is off so that only the tests judge a mutant.
func (r runner) goTest(dir, overlay string) ([]byte, error) {
	args := []string{"test", "-count=1", "-vet=off", "-failfast", "-timeout", r.timeout.String()}
	if r.short {
		args = append(args, "-short")
	}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, "./"+filepath.ToSlash(dir)+"/")
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout+2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = r.root
	return cmd.CombinedOutput()
}

// failure names the first failing test, a panic or a time-out.
func failure(out []byte) string {
	if l := firstLine(out, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "--- FAIL:") }); l != "" {
		name := strings.Fields(strings.TrimSpace(l))
		if len(name) >= 3 {
			return name[2]
		}
	}
	for _, s := range []string{"test timed out", "panic:"} {
		if l := firstLine(out, func(l string) bool { return strings.Contains(l, s) }); l != "" {
			return strings.TrimSpace(l)
		}
	}
	return "tests failed"
}

func firstLine(out []byte, ok func(string) bool) string {
	for _, l := range strings.Split(string(out), "\n") {
		if ok(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func printVerdict(v verdict) {
	tag := v.status
	switch {
	case v.status == "escaped" && v.m.Equivalent != "":
		tag = "equivalent"
	case v.status == "caught" && v.m.Equivalent != "":
		tag = "caught*" // marked equivalent, yet a test tells it apart
	}
	line := fmt.Sprintf("%-10s %-28s %6.1f s  %s: %s", tag, v.m.ID, v.elapsed.Seconds(), v.m.File, v.m.Why)
	if v.detail != "" {
		line += " [" + v.detail + "]"
	}
	fmt.Println(line)
}

// summarise prints the totals and reports whether the pass failed: a
// mutant that did not apply or compile, or an escaped one not marked
// equivalent.
func summarise(vs []verdict) bool {
	var caught, escaped, equivalent, invalid, wrongMark int
	var esc []string
	for _, v := range vs {
		switch {
		case v.status == "invalid":
			invalid++
		case v.status == "caught":
			caught++
			if v.m.Equivalent != "" {
				wrongMark++
			}
		case v.m.Equivalent != "":
			equivalent++
		default:
			escaped++
			esc = append(esc, v.m.ID)
		}
	}
	counted := caught + escaped
	fmt.Printf("\n%d mutants: %d caught, %d escaped, %d equivalent (escaped, explained in the list), %d invalid\n", len(vs), caught, escaped, equivalent, invalid)
	if counted > 0 {
		fmt.Printf("caught by the package unit tests: %d of %d counted mutants (%.1f%%); of all %d that apply: %.1f%%\n",
			caught, counted, 100*float64(caught)/float64(counted), caught+escaped+equivalent, 100*float64(caught)/float64(max(1, caught+escaped+equivalent)))
	}
	if len(esc) > 0 {
		fmt.Printf("escaped: %s\n", strings.Join(esc, ", "))
	}
	if wrongMark > 0 {
		fmt.Printf("%d mutants marked equivalent were caught (caught*): their explanation is wrong; drop the mark\n", wrongMark)
	}
	return invalid > 0 || escaped > 0
}
