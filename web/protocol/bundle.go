package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// A bundle is a list of messages in one byte string, for messages kept in
// a file rather than posted: the default scenario's results computed when
// the site was built (see web/app's Preview) travel as one.
//
// Layout: the magic "SLB1", a uvarint message count, then per message the
// uvarint-length-prefixed type, a uvarint id, the length-prefixed JSON,
// a uvarint bin count and, per bin entry in name order, its
// length-prefixed name and bytes.
const bundleMagic = "SLB1"

// EncodeBundle packs messages into a bundle.
func EncodeBundle(ms []Message) []byte {
	b := append([]byte(nil), bundleMagic...)
	b = binary.AppendUvarint(b, uint64(len(ms)))
	str := func(s []byte) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, m := range ms {
		str([]byte(m.Type))
		b = binary.AppendUvarint(b, uint64(m.ID))
		str(m.JSON)
		keys := make([]string, 0, len(m.Bin))
		for k := range m.Bin {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the same messages give the same bytes
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			str([]byte(k))
			str(m.Bin[k])
		}
	}
	return b
}

// errBundle is the error of a truncated or malformed bundle.
var errBundle = errors.New("protocol: malformed message bundle")

// DecodeBundle unpacks EncodeBundle's bytes.
func DecodeBundle(b []byte) ([]Message, error) {
	if len(b) < len(bundleMagic) || string(b[:len(bundleMagic)]) != bundleMagic {
		return nil, fmt.Errorf("protocol: not a message bundle")
	}
	b = b[len(bundleMagic):]
	num := func() (uint64, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, errBundle
		}
		b = b[n:]
		return v, nil
	}
	str := func() ([]byte, error) {
		n, err := num()
		if err != nil || n > uint64(len(b)) {
			return nil, errBundle
		}
		s := b[:n:n]
		b = b[n:]
		return s, nil
	}
	count, err := num()
	if err != nil || count > uint64(len(b)) {
		return nil, errBundle
	}
	ms := make([]Message, 0, count)
	for range count {
		typ, err := str()
		if err != nil {
			return nil, err
		}
		id, err := num()
		if err != nil {
			return nil, err
		}
		js, err := str()
		if err != nil {
			return nil, err
		}
		m := Message{Type: string(typ), ID: int(id), JSON: js}
		nbin, err := num()
		if err != nil || nbin > uint64(len(b)) {
			return nil, errBundle
		}
		if nbin > 0 {
			m.Bin = make(map[string][]byte, nbin)
		}
		for range nbin {
			k, err := str()
			if err != nil {
				return nil, err
			}
			if m.Bin[string(k)], err = str(); err != nil {
				return nil, err
			}
		}
		ms = append(ms, m)
	}
	if len(b) != 0 {
		return nil, errBundle
	}
	return ms, nil
}
