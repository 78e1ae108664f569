// Package cputime reads the process's CPU time, for benchmarks that report
// CPU per operation: on a shared machine it is steadier than wall time.
package cputime
