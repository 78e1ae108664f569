//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// fifoFile makes a named pipe nobody writes to: reading it would block.
func fifoFile(t *testing.T, dir string) string {
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return p
}
