package engine

import (
	"testing"
	"unsafe"
)

// Every job of a run has a jobState for the whole run: a million jobs cost
// a million of them, so a field that grows it should be a choice.
func TestJobStateSize(t *testing.T) {
	if n := unsafe.Sizeof(jobState{}); n > 192 {
		t.Errorf("jobState is %d bytes, more than 192", n)
	}
}
