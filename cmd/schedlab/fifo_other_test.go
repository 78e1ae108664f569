//go:build !unix

package main

import "testing"

func fifoFile(t *testing.T, _ string) string {
	t.Skip("no named pipes on this system")
	return ""
}
