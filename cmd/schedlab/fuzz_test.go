package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
)

// FuzzLoad feeds random bytes to the CLI as a scenario file and on
// standard input: it must answer (ok or a problem on stderr) without a
// panic, and what reaches the terminal must hold no control character
// other than newlines and tabs.
func FuzzLoad(f *testing.F) {
	for _, n := range []string{"tiny", "load-sweep", "sjf-bsbf-pair"} {
		data, _ := scenarios.Read(n)
		f.Add(data)
	}
	for _, s := range []string{"", "\xEF\xBB\xBF{}", "\xFF\xFE{\x00}\x00", `{"name": "\u001b[31m"}`, "{\"name\": \"\x1b\"}", "\xc2\x9b", `[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, arg := range []string{path, "-"} {
			old := stdin
			stdin = bytes.NewReader(data)
			var out, errOut bytes.Buffer
			so, se := &safeWriter{w: &out}, &safeWriter{w: &errOut}
			code := dispatch([]string{"validate", arg}, so, se)
			so.Flush()
			se.Flush()
			stdin = old
			if code != exitOK && code != exitInvalid {
				t.Fatalf("exit %d", code)
			}
			if code == exitInvalid && errOut.Len() == 0 {
				t.Fatal("refused without a word")
			}
			for _, b := range append(out.Bytes(), errOut.Bytes()...) {
				if b < 0x20 && b != '\n' && b != '\t' || b == 0x7F {
					t.Fatalf("control byte %#x reached the terminal:\n%q", b, errOut.String())
				}
			}
		}
	})
}
