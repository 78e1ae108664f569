package lp

import "testing"

// newBasis gives Cols and Rows one array; an append to Cols must not
// write into Rows, and both start Basic.
func TestNewBasisCapped(t *testing.T) {
	b := newBasis(3, 2)
	if len(b.Cols) != 3 || len(b.Rows) != 2 {
		t.Fatalf("lengths %d, %d", len(b.Cols), len(b.Rows))
	}
	for _, v := range append(b.Cols, b.Rows...) {
		if v != Basic {
			t.Fatalf("status %v, want Basic", v)
		}
	}
	_ = append(b.Cols, AtUpper)
	if b.Rows[0] != Basic {
		t.Fatal("an append to Cols wrote into Rows")
	}
}
