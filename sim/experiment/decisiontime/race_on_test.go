//go:build race

package decisiontime

// raceDetector is true under go test -race: the tests that compare wall
// times skip themselves.
const raceDetector = true
