package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

func TestMakeIsMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, Threshold/8 + 3} {
		s := Make[float64](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i, x := range s {
			if x != 0 {
				t.Fatalf("Make(%d)[%d] = %v, not zeroed", n, i, x)
			}
		}
	}
}

// TestAdvised checks, where Linux enables huge pages only for memory that
// asks (the "madvise" setting), that a large slice's memory asks for them
// (the kernel then reports it eligible) and a small one's does not.
func TestAdvised(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are asked for on Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skipf("transparent huge pages are not in madvise mode here (%q)", mode)
	}
	big := Make[byte](16 << 20)
	if !eligible(t, unsafe.Pointer(&big[8<<20])) {
		t.Errorf("a 16 MB slice's memory is not eligible for huge pages")
	}
	runtime.KeepAlive(big)
}

// eligible reads /proc/self/smaps for the mapping holding p and reports
// its THPeligible flag.
func eligible(t *testing.T, p unsafe.Pointer) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	addr := uintptr(p)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var from, to uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &from, &to); n == 2 && strings.Contains(line, " ") {
			in = from <= addr && addr < to
			continue
		}
		if in && strings.HasPrefix(line, "THPeligible:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "THPeligible:")) == "1"
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return false
}
