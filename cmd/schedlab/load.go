package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
)

// stdin is where "-" reads from (a variable for tests).
var stdin io.Reader = os.Stdin

// loadScenario reads a built-in scenario by name, a scenario file, or
// standard input ("-").
func loadScenario(arg string) (*scenario.Scenario, []byte, error) {
	data, ok := scenarios.Read(arg)
	if !ok {
		var err error
		if data, err = readInput(arg); err != nil {
			return nil, nil, err
		}
	}
	sc, err := scenario.Parse(data)
	return sc, data, err
}

// readInput reads a scenario file or standard input through the size
// limit. Only regular files are read: devices (/dev/zero, /dev/urandom),
// named pipes, sockets and directories are refused from their mode, before
// anything is opened or read, so that none of them can hang or exhaust
// memory.
func readInput(arg string) ([]byte, error) {
	limit := scenario.Limits.MaxFileBytes
	if arg == "-" {
		return readLimited(stdin, "standard input", limit)
	}
	info, err := os.Stat(arg)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no built-in scenario or file named %q (\"schedlab list\" shows the built-in ones)", arg)
	}
	if err != nil {
		return nil, err
	}
	if why := notAFile(info.Mode()); why != "" {
		return nil, fmt.Errorf("%s: %s, not a scenario file; give a JSON file, or - for standard input", arg, why)
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s: the file is %s, above the limit of %s for a scenario (scenario.Limits.MaxFileBytes); use a generator instead of listing every job", arg, mib(info.Size()), mib(limit))
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, arg, limit)
}

// notAFile says what a mode is when it is not a regular file.
func notAFile(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "is a device"
	}
	return "is not a regular file"
}

// readLimited reads at most limit bytes and fails beyond that.
func readLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than %s, the limit for a scenario (scenario.Limits.MaxFileBytes); use a generator instead of listing every job", name, mib(limit))
	}
	return data, nil
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
