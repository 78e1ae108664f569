package wasmsize

import (
	"bytes"
	"strings"
	"testing"
)

// module is a WebAssembly module with a custom section before and after
// a data section of these segments, given by address.
func module(t *testing.T, segs ...segment) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("\x00asm\x01\x00\x00\x00")
	writeSection(&b, 0, []byte("\x04name\x00"))
	writeSection(&b, sectionData, encodeSegments(segs))
	writeSection(&b, 0, []byte("\x03end"))
	return b.Bytes()
}

// dataSegments are the segments of a module's data section, in order.
func dataSegments(t *testing.T, m []byte) []segment {
	t.Helper()
	secs, err := sections(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.id == sectionData {
			segs, err := readSegments(s.body)
			if err != nil {
				t.Fatal(err)
			}
			return segs
		}
	}
	t.Fatal("no data section")
	return nil
}

// TestJoinData: segments less than the gap apart become one, with their
// gap as zeros; further apart, they stay apart; the linker's order (not
// by address) does not matter; the other sections are untouched; and
// the memory is the same.
func TestJoinData(t *testing.T) {
	in := module(t,
		segment{0x2000, []byte("far")},
		segment{0x1000, []byte("ab")},
		segment{0x1005, []byte("cd")},      // 3 zero bytes after "ab"
		segment{0x1007 + 4, []byte("efg")}, // 4 after "cd"
		segment{1 << 21, []byte{1}},        // an address of four LEB bytes
	)
	before := bytes.Clone(in)
	out, err := JoinData(in, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, before) {
		t.Errorf("JoinData wrote into the module it was given")
	}
	got := dataSegments(t, out)
	want := []segment{
		{0x1000, []byte("ab\x00\x00\x00cd")},
		{0x100b, []byte("efg")},
		{0x2000, []byte("far")},
		{1 << 21, []byte{1}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d segments, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].addr != want[i].addr || !bytes.Equal(got[i].data, want[i].data) {
			t.Errorf("segment %d: %#x %q, want %#x %q", i, got[i].addr, got[i].data, want[i].addr, want[i].data)
		}
	}
	if err := SameData(in, out); err != nil {
		t.Errorf("SameData: %v", err)
	}
	if !bytes.HasSuffix(out, []byte("\x00\x04\x03end")) || !bytes.HasPrefix(out[8:], []byte("\x00\x06\x04name\x00")) {
		t.Errorf("the custom sections changed: %q", out)
	}
	// A gap of 0 joins nothing (the segments are sorted by address).
	out, err = JoinData(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(dataSegments(t, out)); n != 5 {
		t.Errorf("gap 0: %d segments, want 5", n)
	}
}

// TestSameData catches a module whose memory or other sections differ.
func TestSameData(t *testing.T) {
	a := module(t, segment{0x10, []byte("ab")}, segment{0x20, []byte("cd")})
	for name, b := range map[string][]byte{
		"a byte of data": module(t, segment{0x10, []byte("ab")}, segment{0x20, []byte("ce")}),
		"an address":     module(t, segment{0x10, []byte("ab")}, segment{0x21, []byte("cd")}),
		"a segment less": module(t, segment{0x10, []byte("ab")}),
		"another section": func() []byte {
			m := bytes.Clone(a)
			m[len(m)-1] = 'x'
			return m
		}(),
	} {
		if SameData(a, b) == nil {
			t.Errorf("%s: SameData finds no difference", name)
		}
	}
	if err := SameData(a, module(t, segment{0x20, []byte("cd")}, segment{0x10, []byte("ab\x00")})); err != nil {
		t.Errorf("the same memory: %v", err)
	}
}

// TestJoinDataRefuses what it cannot move: overlapping segments (whose
// order matters), passive segments and a data count section.
func TestJoinDataRefuses(t *testing.T) {
	overlap := module(t, segment{0x10, []byte("abcd")}, segment{0x12, []byte("x")})
	var passive bytes.Buffer
	passive.WriteString("\x00asm\x01\x00\x00\x00")
	writeSection(&passive, sectionData, []byte("\x01\x01\x02ab"))
	var count bytes.Buffer
	count.WriteString("\x00asm\x01\x00\x00\x00")
	writeSection(&count, sectionDataCount, []byte("\x01"))
	writeSection(&count, sectionData, encodeSegments([]segment{{0x10, []byte("a")}}))
	for name, c := range map[string]struct {
		m    []byte
		want string
	}{
		"overlap":    {overlap, "overlap"},
		"passive":    {passive.Bytes(), "not an active segment"},
		"data count": {count.Bytes(), "data count"},
		"truncated":  {overlap[:len(overlap)-3], "past the module's end"},
		"not wasm":   {[]byte("#!/bin/sh\n"), "not a WebAssembly module"},
	} {
		_, err := JoinData(c.m, JoinGap)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
		}
	}
}

// TestLEB: addresses are signed 32-bit LEB128 numbers, read back as
// written, the highest (as i32, negative) included.
func TestLEB(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, 0x1000, 0x2000, 1 << 21, 1<<31 - 1, -1, -64, -65, -1 << 31} {
		b := appendSleb(nil, int64(v))
		got, n, err := sleb32(b)
		if err != nil || got != v || n != len(b) {
			t.Errorf("%d: written % x, read %d in %d bytes, %v", v, b, got, n, err)
		}
	}
	for _, v := range []uint64{0, 127, 128, 1<<32 - 1} {
		b := appendUleb(nil, v)
		if got, n, err := uleb(b); err != nil || got != v || n != len(b) {
			t.Errorf("%d: written % x, read %d in %d bytes, %v", v, b, got, n, err)
		}
	}
	if _, _, err := uleb([]byte{0x80, 0x80}); err == nil {
		t.Error("a number cut short reads without an error")
	}
}
