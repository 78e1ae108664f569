//go:build race

package experiment

// raceDetector is true under go test -race: tests that bound CPU or wall
// time, or that only wait, skip themselves.
const raceDetector = true
