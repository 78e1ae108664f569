package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A benchLine is one result line of `go test -bench`: the benchmark's
// name without its GOMAXPROCS suffix, and each metric by its unit.
type benchLine struct {
	Name    string
	Metrics map[string]float64
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// parseBench reads the result lines of `go test -bench` output, ignoring
// every other line (PASS, ok, goos, logs).
func parseBench(r io.Reader) ([]benchLine, error) {
	var out []benchLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // a log line that starts with a benchmark's name
		}
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("benchmark line %q: a value without its unit", sc.Text())
		}
		b := benchLine{Name: procSuffix.ReplaceAllString(f[0], ""), Metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("benchmark line %q: %q is not a number", sc.Text(), f[i])
			}
			b.Metrics[f[i+1]] = v
		}
		out = append(out, b)
	}
	return out, sc.Err()
}

// metricValues returns the named benchmark's metric from each of its runs,
// in the order they ran, or an error naming what is missing.
func metricValues(lines []benchLine, name, unit string) ([]float64, error) {
	var vs []float64
	for _, l := range lines {
		if l.Name != name {
			continue
		}
		v, ok := l.Metrics[unit]
		if !ok {
			return nil, fmt.Errorf("%s reported no %s", name, unit)
		}
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("no result for %s", name)
	}
	return vs, nil
}

// metric returns the named benchmark's metric (the mean when it ran
// several times), or an error naming what is missing.
func metric(lines []benchLine, name, unit string) (float64, error) {
	vs, err := metricValues(lines, name, unit)
	if err != nil {
		return 0, err
	}
	return mean(vs), nil
}

// mean is the arithmetic mean (NaN for none).
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// geomean is the geometric mean of positive values (NaN for none).
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// median is the middle value (the mean of the two middle ones for an
// even count); NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// loadLine is what build/e2e's TestLoadFigures logs for one load: a cold
// one ("cold localhost: ..."), or either visit of its subtest "a second
// visit" ("first visit: ...", "second visit: ..."). The default results'
// time may be followed by who drew them, in parentheses ("drawn by the
// first screen": the page's first screen made when the site was built).
var loadLine = regexp.MustCompile(`(?:cold ([^:]+)|(first|second) visit): usable ([\d.]+) s, default results ([\d.]+) s(?: \(drawn by ([^)]*)\))?, live results ([\d.]+) s .*?, ([\d.]+) MB transferred`)

// A coldLoad is one load's figures, in seconds and MB. Where is a cold
// load's network ("localhost", "20 Mbit/s 40 ms"), or "first visit" and
// "second visit" for the two loads in one browser profile.
type coldLoad struct {
	Where                 string
	Usable, Results, Live float64
	TransferredMB         float64
	DrawnBy               string // who drew the default results, when the line says
}

// parseLoads reads the cold loads that TestLoadFigures logged.
func parseLoads(out string) []coldLoad {
	var loads []coldLoad
	for _, m := range loadLine.FindAllStringSubmatch(out, -1) {
		l := coldLoad{Where: m[1], DrawnBy: m[5]}
		if m[2] != "" {
			l.Where = m[2] + " visit"
		}
		for i, p := range []*float64{&l.Usable, &l.Results, &l.Live, &l.TransferredMB} {
			*p, _ = strconv.ParseFloat(m[[]int{3, 4, 6, 7}[i]], 64)
		}
		loads = append(loads, l)
	}
	return loads
}
