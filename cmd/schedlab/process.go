package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the rest of the command to path
// (for go tool pprof, or as a default.pgo for profile-guided builds); an
// empty path profiles nothing. The returned stop ends the profile and
// says on stderr if it could not be written.
func startCPUProfile(path string, stderr io.Writer) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "schedlab: --cpuprofile:", err)
		}
	}, nil
}
