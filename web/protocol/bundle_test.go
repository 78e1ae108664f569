package protocol

import (
	"reflect"
	"testing"
)

// A bundle gives back its messages, and a cut or padded one is an error,
// never a panic.
func TestBundleRoundTrip(t *testing.T) {
	ms := []Message{
		{Type: "preview", JSON: []byte(`{"doc":"{}"}`)},
		{Type: TypeResult, ID: 7, JSON: []byte(`{"output":{}}`), Bin: map[string][]byte{"jobs": {1, 2, 3}, "gantt-fifo": {}}},
		{Type: TypeDrawn, ID: 300, JSON: []byte(`{}`)},
	}
	b := EncodeBundle(ms)
	got, err := DecodeBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ms {
		if len(ms[i].Bin) == 0 {
			ms[i].Bin = nil
		}
	}
	if !reflect.DeepEqual(got, ms) {
		t.Fatalf("got %+v\nwant %+v", got, ms)
	}
	for n := range len(b) {
		if _, err := DecodeBundle(b[:n]); err == nil {
			t.Fatalf("a bundle cut to %d of %d bytes decoded", n, len(b))
		}
	}
	if _, err := DecodeBundle(append(b, 0)); err == nil {
		t.Error("a bundle with a trailing byte decoded")
	}
}
