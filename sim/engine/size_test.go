package engine

import (
	"testing"
	"unsafe"
)

// Every job of a run has a jobRec for the whole run: a million jobs cost
// a million of them, so a field that grows it should be a choice. A
// jobRun exists only while a job is pending or running.
func TestJobStateSize(t *testing.T) {
	if n := unsafe.Sizeof(jobRec{}); n > 88 {
		t.Errorf("jobRec is %d bytes, more than 88", n)
	}
	if n := unsafe.Sizeof(jobRun{}); n > 96 {
		t.Errorf("jobRun is %d bytes, more than 96", n)
	}
}
