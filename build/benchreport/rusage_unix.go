//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"syscall"
)

// timed runs a command to its end, discarding its output, and reads its
// resource usage from the kernel.
func timed(ctx context.Context, name string, args ...string) (usage, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		return usage{}, fmt.Errorf("%s: %v: %s", name, err, oneLine(errOut.String(), 200))
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return usage{}, fmt.Errorf("%s: no resource usage on this system", name)
	}
	cpu := float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	return usage{CPU: cpu, RSSMB: float64(ru.Maxrss) * 1024 / 1e6}, nil
}

// limited runs a command with at most limitS seconds of CPU (the kernel
// stops it after that), discarding its output. It returns the usage,
// whether the limit stopped it, and the end of its error output when it
// failed otherwise.
func limited(ctx context.Context, limitS int, name string, args ...string) (u usage, stopped bool, err error) {
	cmd := exec.CommandContext(ctx, "bash", append([]string{"-c", fmt.Sprintf(`ulimit -t %d; exec "$0" "$@"`, limitS), name}, args...)...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	runErr := cmd.Run()
	if cmd.ProcessState == nil {
		return u, false, fmt.Errorf("%s: %v", name, runErr)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ok {
		u = usage{CPU: float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6, RSSMB: float64(ru.Maxrss) * 1024 / 1e6}
	}
	if runErr == nil {
		return u, false, nil
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL) {
		return u, true, nil
	}
	return u, false, fmt.Errorf("%s", oneLine(errOut.String(), 160))
}
