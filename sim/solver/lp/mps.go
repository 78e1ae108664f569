package lp

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteMPS writes p in free-format MPS, readable by GLPK, HiGHS, CPLEX,
// Gurobi, CBC and SCIP. A maximisation is written with an OBJSENSE MAX
// section. Names with spaces get underscores; if names are missing or
// collide, columns become C<j> and rows R<i>.
func WriteMPS(w io.Writer, p *Problem) error {
	bw := bufio.NewWriter(w)
	cols := mpsNames(p.colNames, "C")
	rows := mpsNames(p.rowNames, "R")
	name := strings.ReplaceAll(p.Name, " ", "_")
	if name == "" {
		name = "schedlab"
	}
	fmt.Fprintf(bw, "NAME %s\n", name)
	if p.Maximize {
		fmt.Fprintf(bw, "OBJSENSE\n    MAX\n")
	}
	fmt.Fprintf(bw, "ROWS\n N obj\n")
	for i, r := range rows {
		lo, hi := p.rowLo[i], p.rowHi[i]
		kind := "E"
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			kind = "N"
		case math.IsInf(lo, -1):
			kind = "L"
		case math.IsInf(hi, 1):
			kind = "G"
		case lo != hi:
			kind = "E" // ranged: RHS lo, RANGE hi−lo
		}
		fmt.Fprintf(bw, " %s %s\n", kind, r)
	}
	fmt.Fprintf(bw, "COLUMNS\n")
	for j, c := range cols {
		if p.obj[j] != 0 {
			fmt.Fprintf(bw, "    %s obj %s\n", c, mpsNum(p.obj[j]))
		}
		for k, i := range p.colRows[j] {
			fmt.Fprintf(bw, "    %s %s %s\n", c, rows[i], mpsNum(p.colVals[j][k]))
		}
		if p.obj[j] == 0 && len(p.colRows[j]) == 0 {
			fmt.Fprintf(bw, "    %s obj 0\n", c) // keep the column
		}
	}
	fmt.Fprintf(bw, "RHS\n")
	for i, r := range rows {
		lo, hi := p.rowLo[i], p.rowHi[i]
		rhs := 0.0
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			continue
		case math.IsInf(lo, -1):
			rhs = hi
		default:
			rhs = lo
		}
		if rhs != 0 {
			fmt.Fprintf(bw, "    rhs %s %s\n", r, mpsNum(rhs))
		}
	}
	ranged := false
	for i, r := range rows {
		lo, hi := p.rowLo[i], p.rowHi[i]
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo != hi {
			if !ranged {
				fmt.Fprintf(bw, "RANGES\n")
				ranged = true
			}
			fmt.Fprintf(bw, "    rng %s %s\n", r, mpsNum(hi-lo))
		}
	}
	fmt.Fprintf(bw, "BOUNDS\n")
	for j, c := range cols {
		lo, hi := p.colLo[j], p.colHi[j]
		switch {
		case lo == hi:
			fmt.Fprintf(bw, " FX bnd %s %s\n", c, mpsNum(lo))
			continue
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			fmt.Fprintf(bw, " FR bnd %s\n", c)
			continue
		case math.IsInf(lo, -1):
			fmt.Fprintf(bw, " MI bnd %s\n", c)
		case lo != 0:
			fmt.Fprintf(bw, " LO bnd %s %s\n", c, mpsNum(lo))
		}
		if !math.IsInf(hi, 1) {
			fmt.Fprintf(bw, " UP bnd %s %s\n", c, mpsNum(hi))
		}
	}
	fmt.Fprintf(bw, "ENDATA\n")
	return bw.Flush()
}

func mpsNum(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }

func mpsNames(names []string, prefix string) []string {
	out := make([]string, len(names))
	seen := map[string]bool{"obj": true}
	ok := true
	for i, n := range names {
		n = strings.Join(strings.Fields(n), "_")
		if n == "" || seen[n] {
			ok = false
			break
		}
		seen[n] = true
		out[i] = n
	}
	if !ok {
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
	}
	return out
}

// ReadMPS reads a free-format MPS file (fixed-format files whose names have
// no spaces read the same). Integer markers are refused: this is an LP
// solver. Errors name the line.
func ReadMPS(r io.Reader) (*Problem, error) {
	p := New("")
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	section := ""
	objName := ""
	rowIndex := map[string]int{}
	colIndex := map[string]int{}
	rowKind := map[string]byte{}
	var rhs, rng map[int]float64 = map[int]float64{}, map[int]float64{}
	lineNo := 0
	fail := func(format string, args ...any) (*Problem, error) {
		return nil, fmt.Errorf("mps line %d: %s", lineNo, fmt.Sprintf(format, args...))
	}
	number := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return v, nil
	}
	finite := func(s string) (float64, error) {
		v, err := number(s)
		if err == nil && math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a finite number", s)
		}
		return v, err
	}
	sense := func(s string) error {
		switch strings.ToUpper(s) {
		case "MAX", "MAXIMIZE":
			p.Maximize = true
		case "MIN", "MINIMIZE":
			p.Maximize = false
		default:
			return fmt.Errorf("unknown objective sense %q (MIN or MAX)", s)
		}
		return nil
	}
lines:
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || line[0] == '*' {
			continue
		}
		f := strings.Fields(line)
		if line[0] != ' ' && line[0] != '\t' {
			section = strings.ToUpper(f[0])
			switch section {
			case "NAME":
				if len(f) > 1 {
					p.Name = f[1]
				}
			case "OBJSENSE":
				if len(f) > 1 {
					if err := sense(f[1]); err != nil {
						return fail("%v", err)
					}
				}
			case "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA":
			default:
				return fail("unknown section %q", f[0])
			}
			if section == "ENDATA" {
				break lines
			}
			continue
		}
		switch section {
		case "OBJSENSE":
			if err := sense(f[0]); err != nil {
				return fail("%v", err)
			}
		case "ROWS":
			if len(f) != 2 {
				return fail("a row needs a type and a name")
			}
			kind := strings.ToUpper(f[0])
			if _, dup := rowIndex[f[1]]; dup || f[1] == objName {
				return fail("row %s is defined twice", f[1])
			}
			switch kind {
			case "N":
				if objName == "" {
					objName = f[1]
					continue
				}
				rowIndex[f[1]] = p.AddRow(f[1], math.Inf(-1), Inf)
			case "L", "G", "E":
				rowIndex[f[1]] = p.AddRow(f[1], math.Inf(-1), Inf)
			default:
				return fail("unknown row type %q", f[0])
			}
			rowKind[f[1]] = kind[0]
		case "COLUMNS":
			if len(f) >= 3 && strings.Contains(strings.ToUpper(line), "'MARKER'") {
				return fail("integer variables are not supported")
			}
			if len(f) != 3 && len(f) != 5 {
				return fail("a column entry needs a column, a row and a value (twice at most)")
			}
			j, ok := colIndex[f[0]]
			if !ok {
				j = p.AddCol(f[0], 0, Inf, 0)
				colIndex[f[0]] = j
			}
			for k := 1; k+1 < len(f); k += 2 {
				v, err := finite(f[k+1])
				if err != nil {
					return fail("%v", err)
				}
				if f[k] == objName {
					p.obj[j] += v
					continue
				}
				i, ok := rowIndex[f[k]]
				if !ok {
					return fail("unknown row %s", f[k])
				}
				p.Set(i, j, v)
			}
		case "RHS", "RANGES":
			if len(f) != 3 && len(f) != 5 && len(f) != 2 && len(f) != 4 {
				return fail("an entry needs a row and a value")
			}
			start := 1
			if len(f)%2 == 0 {
				start = 0 // no set name
			}
			for k := start; k+1 < len(f); k += 2 {
				v, err := finite(f[k+1])
				if err != nil {
					return fail("%v", err)
				}
				if f[k] == objName {
					if section == "RHS" && v != 0 {
						return fail("objective constants are not supported")
					}
					continue
				}
				i, ok := rowIndex[f[k]]
				if !ok {
					return fail("unknown row %s", f[k])
				}
				if section == "RHS" {
					rhs[i] = v
				} else {
					rng[i] = v
				}
			}
		case "BOUNDS":
			if len(f) < 3 {
				return fail("a bound needs a type, a set name and a column")
			}
			kind := strings.ToUpper(f[0])
			j, ok := colIndex[f[2]]
			if !ok {
				return fail("unknown column %s", f[2])
			}
			switch kind {
			case "BV", "LI", "UI", "SC":
				return fail("integer bound %s is not supported", kind)
			}
			v := 0.0
			needs := kind != "FR" && kind != "MI" && kind != "PL"
			if needs {
				if len(f) < 4 {
					return fail("bound %s needs a value", kind)
				}
				var err error
				if v, err = number(f[3]); err != nil {
					return fail("%v", err)
				}
			}
			switch kind {
			case "UP":
				p.colHi[j] = v
				if v < 0 && p.colLo[j] == 0 {
					// The MPS convention (CPLEX, GLPK, HiGHS): a negative
					// upper bound on a column still at lower bound 0 makes
					// it unbounded below.
					p.colLo[j] = math.Inf(-1)
				}
			case "LO":
				p.colLo[j] = v
			case "FX":
				p.colLo[j], p.colHi[j] = v, v
			case "FR":
				p.colLo[j], p.colHi[j] = math.Inf(-1), Inf
			case "MI":
				p.colLo[j] = math.Inf(-1)
			case "PL":
				p.colHi[j] = Inf
			default:
				return fail("unknown bound type %q", f[0])
			}
		default:
			return fail("data outside a section")
		}
	}
	if err := sc.Err(); err != nil {
		lineNo++
		if err == bufio.ErrTooLong {
			return fail("line longer than 16 MiB")
		}
		return fail("%v", err)
	}
	if section != "ENDATA" {
		return nil, fmt.Errorf("mps line %d: the file ends without ENDATA", lineNo)
	}
	for name, i := range rowIndex {
		b := rhs[i]
		lo, hi := math.Inf(-1), Inf
		switch rowKind[name] {
		case 'L':
			hi = b
			if r, ok := rng[i]; ok {
				lo = b - math.Abs(r)
			}
		case 'G':
			lo = b
			if r, ok := rng[i]; ok {
				hi = b + math.Abs(r)
			}
		case 'E':
			lo, hi = b, b
			if r, ok := rng[i]; ok {
				if r > 0 {
					hi = b + r
				} else {
					lo = b + r
				}
			}
		}
		p.rowLo[i], p.rowHi[i] = lo, hi
	}
	if err := p.check(true); err != nil {
		return nil, fmt.Errorf("mps: %w", err)
	}
	return p, nil
}
