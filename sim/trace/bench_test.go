package trace

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkImportPhilly reads the whole Philly log (82,247 rows).
func BenchmarkImportPhilly(b *testing.B) {
	data, err := os.ReadFile(shared + "pollux/traces/philly.csv")
	if err != nil {
		b.Skip("../shared/data is absent")
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Import("philly", bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
