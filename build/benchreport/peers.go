package main

// highsMS is HiGHS 1.15.1's CPU per solve, in milliseconds, of each LP
// dumped into sim/solver/lp/testdata, measured on 2026-11-24 (storedDay)
// on the 2-core development machine in the same session as ours then:
// built from its release tag with g++ 12 in release mode, one thread,
// default options (presolve on), the lower of two rounds of 20 solves
// (docs/lp.md, "Benchmarks"). The LP rows divide by these only when no
// HiGHS is given with -highs; the machine's speed has changed since, so
// the ratios they give are indicative. Its keys are the LPs measured.
// HiGHS is not part of this repository.
var highsMS = map[string]float64{
	"gavel-small-13":             1.01,
	"gavel-cost-71":              0.50,
	"gavel-makespan-x300-2":      21.41,
	"gavel-makespan-x300-12":     16.02,
	"fig12-makespan-512-2":       10.24,
	"fig12-ftf-512-1":            3.16,
	"fig12-cost-512-1":           12.87,
	"fig12-las-2048-1":           1.87,
	"fig12-hierarchical-2048-1":  6.34,
	"fig12-hierarchical-2048-5":  6.79,
	"fig12-hierarchical-2048-11": 7.40,
}
