//go:build !race

package main

// raceDetector is true under go test -race: tests that bound CPU or wall
// time, or that only wait, skip themselves.
const raceDetector = false
