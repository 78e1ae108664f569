package wasmsize

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// JoinGap is the longest run of zero bytes that JoinData writes out
// between two data segments rather than start a new segment.
//
// Go's linker starts a new segment of a module's data wherever it meets
// eight zero bytes or more, which makes the raw module smallest. The
// runtime's table for finding a function from a program counter
// (findfunctab) is mostly zeros on WebAssembly, where each function
// spans 2¹⁶ program counters: one 20-byte bucket for every 4096, two
// bytes of which are not zero. The linker writes it as one segment per
// bucket, 75,000 of them in the API's module, whose headers (an address
// that changes each time) compress to 134 kB with gzip -6, a twentieth
// of the module. Written out whole, the table's zeros compress to almost
// nothing. Sixty-four joins the table and whatever else lies within a
// cache line; past it the raw module grows and the compressed one no
// longer shrinks (docs/development.md#sizes).
const JoinGap = 64

// The sections JoinData reads and writes.
const (
	sectionData      = 11
	sectionDataCount = 12
)

// A segment is an active data segment of memory 0: bytes that
// instantiating the module copies to address addr.
type segment struct {
	addr uint32
	data []byte
}

// JoinData returns module with the data segments that lie less than gap
// zero bytes apart joined into one, their gap written out as zeros: the
// same memory at instantiation, in fewer segments. It reads the data as
// Go's linker writes it (active segments of memory 0 at constant
// addresses, none overlapping another) and returns an error for any
// other, leaving the module to its caller unchanged.
func JoinData(module []byte, gap int) ([]byte, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(module[:8])
	for _, s := range secs {
		switch s.id {
		case sectionData:
			segs, err := readSegments(s.body)
			if err != nil {
				return nil, err
			}
			writeSection(&out, sectionData, encodeSegments(joinSegments(segs, gap)))
		case sectionDataCount:
			// A data count section must agree with the data section; Go
			// writes none, and a module that has one is left alone.
			return nil, errors.New("the module has a data count section")
		default:
			out.Write(module[s.start:s.end])
		}
	}
	return out.Bytes(), nil
}

// A section is one section of a module: its id, its contents, and where
// it lies in the module, header included.
type section struct {
	id         byte
	body       []byte
	start, end int
}

// sections splits a module into its sections.
func sections(module []byte) ([]section, error) {
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	var secs []section
	for i := 8; i < len(module); {
		start := i
		id := module[i]
		n, k, err := uleb(module[i+1:])
		if err != nil {
			return nil, fmt.Errorf("section at byte %d: %w", start, err)
		}
		i += 1 + k
		if uint64(len(module)-i) < n {
			return nil, fmt.Errorf("section at byte %d: %d bytes long, past the module's end", start, n)
		}
		secs = append(secs, section{id: id, body: module[i : i+int(n)], start: start, end: i + int(n)})
		i += int(n)
	}
	return secs, nil
}

// readSegments reads a data section, sorted by address; it refuses any
// segment JoinData cannot move (passive, of another memory, at an
// address computed otherwise than by i32.const) and segments that
// overlap, whose order would then matter.
func readSegments(b []byte) ([]segment, error) {
	count, k, err := uleb(b)
	if err != nil {
		return nil, fmt.Errorf("data section: %w", err)
	}
	b = b[k:]
	segs := make([]segment, 0, min(count, uint64(len(b))))
	for i := range count {
		if len(b) < 2 || b[0] != 0 || b[1] != 0x41 { // active, memory 0; i32.const
			return nil, fmt.Errorf("data segment %d: not an active segment at a constant address", i)
		}
		addr, k, err := sleb32(b[2:])
		if err != nil {
			return nil, fmt.Errorf("data segment %d: %w", i, err)
		}
		b = b[2+k:]
		if len(b) < 1 || b[0] != 0x0b { // end
			return nil, fmt.Errorf("data segment %d: its address is not a lone i32.const", i)
		}
		n, k, err := uleb(b[1:])
		if err != nil {
			return nil, fmt.Errorf("data segment %d: %w", i, err)
		}
		b = b[1+k:]
		if uint64(len(b)) < n {
			return nil, fmt.Errorf("data segment %d: %d bytes long, past the section's end", i, n)
		}
		segs = append(segs, segment{addr: uint32(addr), data: b[:n]})
		b = b[n:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("data section: %d bytes after its last segment", len(b))
	}
	slices.SortStableFunc(segs, func(x, y segment) int { return cmp.Compare(x.addr, y.addr) })
	for i := 1; i < len(segs); i++ {
		if end := int64(segs[i-1].addr) + int64(len(segs[i-1].data)); end > int64(segs[i].addr) {
			return nil, fmt.Errorf("data segments at %#x and %#x overlap", segs[i-1].addr, segs[i].addr)
		}
	}
	return segs, nil
}

// joinSegments joins sorted segments less than gap bytes apart.
func joinSegments(segs []segment, gap int) []segment {
	var out []segment
	for _, s := range segs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if end := int64(last.addr) + int64(len(last.data)); int64(s.addr)-end < int64(gap) {
				last.data = append(last.data, make([]byte, int64(s.addr)-end)...)
				last.data = append(last.data, s.data...)
				continue
			}
		}
		// The data's capacity is capped so that the first join copies
		// it rather than writing over the module it was read from; the
		// joins after it append, which keeps a run of thousands of
		// segments linear (copying the whole run at each join took
		// half a minute of the module's build).
		out = append(out, segment{addr: s.addr, data: s.data[:len(s.data):len(s.data)]})
	}
	return out
}

// encodeSegments writes the contents of a data section.
func encodeSegments(segs []segment) []byte {
	b := appendUleb(nil, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, 0x41)
		b = appendSleb(b, int64(int32(s.addr)))
		b = append(b, 0x0b)
		b = appendUleb(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

func writeSection(w *bytes.Buffer, id byte, body []byte) {
	w.WriteByte(id)
	w.Write(appendUleb(nil, uint64(len(body))))
	w.Write(body)
}

var errLEB = errors.New("a number runs past the end or past its width")

// uleb reads an unsigned LEB128 number of at most 32 bits, returning it
// and the bytes it took.
func uleb(b []byte) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(b) && i < 5; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 0, errLEB
}

// sleb32 reads a signed LEB128 number of at most 32 bits.
func sleb32(b []byte) (int32, int, error) {
	var v int64
	for i := 0; i < len(b) && i < 5; i++ {
		v |= int64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			if shift := 7 * (i + 1); shift < 64 && b[i]&0x40 != 0 {
				v |= -1 << shift
			}
			return int32(v), i + 1, nil
		}
	}
	return 0, 0, errLEB
}

func appendUleb(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// SameData reports how module b differs from module a other than in how
// its data is cut into segments: in a section other than the data
// section, or in the memory the data makes at instantiation. Build checks
// JoinData's output with it.
func SameData(a, b []byte) error {
	as, err := sections(a)
	if err != nil {
		return err
	}
	bs, err := sections(b)
	if err != nil {
		return err
	}
	if len(as) != len(bs) || !bytes.Equal(a[:8], b[:8]) {
		return errors.New("the modules have different sections")
	}
	for i := range as {
		if as[i].id != bs[i].id {
			return fmt.Errorf("section %d: id %d, not %d", i, bs[i].id, as[i].id)
		}
		if as[i].id != sectionData {
			if !bytes.Equal(as[i].body, bs[i].body) {
				return fmt.Errorf("section %d (id %d) differs", i, as[i].id)
			}
			continue
		}
		am, err := memory(as[i].body)
		if err != nil {
			return err
		}
		bm, err := memory(bs[i].body)
		if err != nil {
			return err
		}
		if !bytes.Equal(am, bm) {
			return errors.New("the data make different memory")
		}
	}
	return nil
}

// memory is the memory a data section makes, up to its last nonzero byte.
func memory(section []byte) ([]byte, error) {
	segs, err := readSegments(section)
	if err != nil {
		return nil, err
	}
	var mem []byte
	for _, s := range segs {
		if end := int(s.addr) + len(s.data); end > len(mem) {
			mem = append(mem, make([]byte, end-len(mem))...)
		}
		copy(mem[s.addr:], s.data)
	}
	return bytes.TrimRight(mem, "\x00"), nil
}
