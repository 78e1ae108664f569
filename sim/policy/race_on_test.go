//go:build race

package policy_test

// raceDetector is true under go test -race: tests that run on one
// goroutine and cost minutes under the detector skip themselves.
const raceDetector = true
