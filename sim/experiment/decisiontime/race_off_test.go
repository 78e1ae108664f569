//go:build !race

package decisiontime

const raceDetector = false
