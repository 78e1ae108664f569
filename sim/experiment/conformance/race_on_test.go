//go:build race

package conformance

// raceDetector is true under go test -race, where the policies run a few
// seeds each: the race detector looks for shared state between policies
// running side by side, which every seed exercises alike, and all nine
// seeds under it took about 7 of the suite's minutes.
const raceDetector = true
