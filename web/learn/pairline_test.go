package learn

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// pairLineRE is the regular expression pairLine stands for.
var pairLineRE = regexp.MustCompile(`pair (\S+) \(new\) with (\S+) \(running\): time alone L_R (.+?) for the running job and L_N (.+?) for the new one; sharing slows them by ξ ([0-9.]+) and ([0-9.]+);.*mean JCT of the pair (.+?) if they share, (.+?) if the new job waits → (share|wait)`)

// pairLines are SJF-BSBF's reckoning lines as sim/policy/sharing writes
// them, with awkward values: the literals inside the values, newlines,
// other characters, two lines in one string.
func pairLines() []string {
	const format = "SJF-BSBF: pair %s (new) with %s (running): time alone L_R %s for the running job and L_N %s for the new one; sharing slows them by ξ %.2f and %.2f; the new job's sub-batch %d of %d (%d accumulation steps); mean JCT of the pair %s if they share, %s if the new job waits → %s"
	lines := []string{
		fmt.Sprintf(format, "j12", "j3", "1 h 2 min", "12.5 s", 1.5, 1.5, 16, 32, 2, "40 min", "1 h", "share"),
		fmt.Sprintf(format, "resnet-7", "bert-0", "3 s", "2 s", 1.25, 1.30, 8, 8, 1, "4 s", "3.5 s", "wait"),
		fmt.Sprintf(format, "a", "b", "x for the running job and L_N y", "z", 1.0, 1.0, 1, 1, 1, "p if they share, q", "r", "share"),
		fmt.Sprintf(format, "é", "ü", "1 s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s", "2 s", "wait") + " and more",
		fmt.Sprintf(format, "a", "b", "1\n s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s", "2 s", "share"),
		"noise " + fmt.Sprintf(format, "a", "b", "1 s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s", "2 s", "waiting"),
		fmt.Sprintf(format, "a\tx", "b", "1 s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s", "2 s", "share"),
		"pair " + fmt.Sprintf(format, "a", "b", "1 s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s; mean JCT of the pair 5 s", "2 s", "share"),
		fmt.Sprintf(format, "a", "b", "1 s", "2 s", 2.0, 2.0, 1, 2, 3, "1 s", "2 s", "sh"),
		"SJF-BSBF: pair a (new) with b (running): a does not fit beside it even at sub-batch 1 → wait",
		"",
	}
	return lines
}

// matchSteps captures what the regular expression does on real lines,
// on lines with awkward values, and on ten thousand random edits of them.
func TestPairLineAsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "\n", "(", ")", ";", ".", "1", "a", "ξ", "→", " for the running job and L_N ", " if they share, ", "pair ", "share"}
	lines := pairLines()
	for _, l := range pairLines() {
		for range 1000 {
			b := []byte(l)
			for range 1 + rng.IntN(3) {
				if len(b) == 0 {
					break
				}
				k := rng.IntN(len(b))
				switch rng.IntN(3) {
				case 0:
					b = slices.Delete(b, k, k+1)
				case 1:
					b = slices.Insert(b, k, []byte(alphabet[rng.IntN(len(alphabet))])...)
				default:
					b[k] = alphabet[rng.IntN(len(alphabet))][0]
				}
			}
			lines = append(lines, string(b))
		}
	}
	matched := 0
	for _, l := range lines {
		want, got := pairLineRE.FindStringSubmatch(l), matchSteps(pairLine, l)
		if !slices.Equal(got, want) {
			t.Fatalf("on %q:\n got %q\nwant %q", l, got, want)
		}
		if want != nil {
			matched++
		}
	}
	if matched < len(lines)/20 {
		t.Errorf("only %d of %d lines matched: the edits test too little", matched, len(lines))
	}
}

func FuzzPairLine(f *testing.F) {
	for _, l := range pairLines() {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		want, got := pairLineRE.FindStringSubmatch(l), matchSteps(pairLine, l)
		if !slices.Equal(got, want) {
			t.Fatalf("on %q:\n got %q\nwant %q", l, got, want)
		}
	})
}
