//go:build !unix

package main

// cpuSeconds is 0 where the system cannot say how much CPU the process
// used.
func cpuSeconds() float64 { return 0 }
