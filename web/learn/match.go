package learn

import (
	"strings"
	"unicode/utf8"
)

// step is one piece of a line's shape for matchSteps: a literal, or a
// capture of a run of characters of some kind.
type step struct {
	kind stepKind
	text string // the literal, for literal steps
}

type stepKind int

const (
	literal     stepKind = iota
	nonSpaceRun          // (\S+): captured, as long as it can be
	digitRun             // ([0-9.]+): captured, as long as it can be
	shortest             // (.+?): captured, as short as it can be
	anyRun               // .*: not captured, as long as it can be
	shareWait            // (share|wait): captured
)

func lit(s string) step { return step{kind: literal, text: s} }

var (
	nonSpaces   = step{kind: nonSpaceRun}
	digits      = step{kind: digitRun}
	lazy        = step{kind: shortest}
	skip        = step{kind: anyRun}
	shareOrWait = step{kind: shareWait}
)

// matchSteps finds the leftmost place where s has the shape steps describe,
// trying the choices in the order a backtracking regular-expression
// matcher would (so it captures what Go's regexp captures for the
// equivalent expression), and returns the whole match followed by the
// captures, or nil. As in a regular expression, "." stops at a newline
// and \S at ASCII white space.
func matchSteps(steps []step, s string) []string {
	for start := 0; start <= len(s); start++ {
		if len(steps) > 0 && steps[0].kind == literal {
			k := strings.Index(s[start:], steps[0].text)
			if k < 0 {
				return nil
			}
			start += k
		}
		if end, caps, ok := matchAt(steps, s, start, nil); ok {
			return append([]string{s[start:end]}, caps...)
		}
	}
	return nil
}

// matchAt matches steps at s[i:], returning where the match ends and the
// captures appended to caps.
func matchAt(steps []step, s string, i int, caps []string) (int, []string, bool) {
	if len(steps) == 0 {
		return i, caps, true
	}
	st, rest := steps[0], steps[1:]
	switch st.kind {
	case literal:
		if !strings.HasPrefix(s[i:], st.text) {
			return 0, nil, false
		}
		return matchAt(rest, s, i+len(st.text), caps)
	case shareWait:
		for _, w := range [...]string{"share", "wait"} {
			if strings.HasPrefix(s[i:], w) {
				if end, c, ok := matchAt(rest, s, i+len(w), append(caps, w)); ok {
					return end, c, true
				}
			}
		}
		return 0, nil, false
	case shortest:
		for j := i; j < len(s) && s[j] != '\n'; {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
			if end, c, ok := matchAt(rest, s, j, append(caps, s[i:j])); ok {
				return end, c, true
			}
		}
		return 0, nil, false
	}
	// The longest run first, then shorter ones (at rune boundaries).
	j := i
	for j < len(s) && inRun(st.kind, s[j]) {
		j++
	}
	least := i + 1 // a + run has at least one character; .* none
	if st.kind == anyRun {
		least = i
	}
	for ; j >= least; j-- {
		if j < len(s) && !utf8.RuneStart(s[j]) {
			continue
		}
		c := caps
		if st.kind != anyRun {
			c = append(caps, s[i:j])
		}
		if end, c, ok := matchAt(rest, s, j, c); ok {
			return end, c, true
		}
	}
	return 0, nil, false
}

// inRun reports whether byte b continues a run of the kind: any byte but
// ASCII white space for \S, digits and points for [0-9.], any byte but a
// newline for ".". Bytes of multi-byte characters are never white space
// or digits in UTF-8, so a byte-wise scan finds the same runs.
func inRun(k stepKind, b byte) bool {
	switch k {
	case nonSpaceRun:
		return !strings.ContainsRune(" \t\n\f\r", rune(b))
	case digitRun:
		return b == '.' || '0' <= b && b <= '9'
	}
	return b != '\n'
}
