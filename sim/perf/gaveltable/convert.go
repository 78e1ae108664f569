package gaveltable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/workload"
)

// Convert turns the Gavel artifact's simulation_throughputs.json into
// schedlab's table format. Its keys look like "('ResNet-50 (batch size
// 64)', 4)"; "null" holds the solo throughput and every other key a
// partner with [own, partner's] throughputs.
func Convert(data []byte) ([]byte, error) {
	var raw map[string]map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("gaveltable: %w", err)
	}
	seen := map[JobType]bool{}
	for _, tbl := range raw {
		for k := range tbl {
			jt, err := parseKey(k)
			if err != nil {
				return nil, err
			}
			seen[jt] = true
		}
	}
	jobs := make([]JobType, 0, len(seen))
	for jt := range seen {
		jobs = append(jobs, jt)
	}
	sort.Slice(jobs, func(a, b int) bool { return jobLess(jobs[a], jobs[b]) })
	index := map[JobType]int{}
	var b bytes.Buffer
	b.WriteString("schedlab-gavel-throughputs 1\n")
	b.WriteString("# Converted by schedlab from Gavel's simulation_throughputs.json (MIT licence,\n")
	b.WriteString("# (c) 2020 Stanford Future Data Systems). Iterations per second of the whole job.\n")
	for i, jt := range jobs {
		index[jt] = i
		fmt.Fprintf(&b, "job %d %d %s\n", i, jt.SF, jt.Key)
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool { return tableLess(names[a], names[b]) })
	for _, name := range names {
		gpu, placement := strings.TrimSuffix(name, "_unconsolidated"), "consolidated"
		if gpu != name {
			placement = "unconsolidated"
		}
		fmt.Fprintf(&b, "table %s %s\n", gpu, placement)
		tbl := raw[name]
		keys := make([]string, 0, len(tbl))
		for k := range tbl {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(x, y int) bool { return index[mustKey(keys[x])] < index[mustKey(keys[y])] })
		for _, k := range keys {
			a := index[mustKey(k)]
			entries := tbl[k]
			var solo float64
			if err := json.Unmarshal(entries["null"], &solo); err != nil {
				return nil, fmt.Errorf("gaveltable: %s %s: solo throughput: %v", name, k, err)
			}
			fmt.Fprintf(&b, "solo %d %s\n", a, num(solo))
			partners := make([]string, 0, len(entries))
			for p := range entries {
				if p != "null" {
					partners = append(partners, p)
				}
			}
			for _, p := range partners {
				if _, err := parseKey(p); err != nil {
					return nil, err
				}
			}
			sort.Slice(partners, func(x, y int) bool { return index[mustKey(partners[x])] < index[mustKey(partners[y])] })
			for _, p := range partners {
				pb := index[mustKey(p)]
				if pb < a {
					continue // listed once, from the smaller index
				}
				var v [2]float64
				if err := json.Unmarshal(entries[p], &v); err != nil {
					return nil, fmt.Errorf("gaveltable: %s %s with %s: %v", name, k, p, err)
				}
				if v[0] <= 0 || v[1] <= 0 {
					continue // cannot share a GPU
				}
				fmt.Fprintf(&b, "pair %d %d %s %s\n", a, pb, num(v[0]), num(v[1]))
			}
		}
	}
	return b.Bytes(), nil
}

// num keeps 8 significant digits, far beyond the measurements' precision.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

func mustKey(k string) JobType {
	jt, _ := parseKey(k)
	return jt
}

// parseKey reads "('ResNet-50 (batch size 64)', 4)".
func parseKey(k string) (JobType, error) {
	s := strings.TrimSpace(k)
	if !strings.HasPrefix(s, "('") || !strings.HasSuffix(s, ")") {
		return JobType{}, fmt.Errorf("gaveltable: cannot read job key %q", k)
	}
	i := strings.LastIndex(s, "',")
	if i < 0 {
		return JobType{}, fmt.Errorf("gaveltable: cannot read job key %q", k)
	}
	sf, err := strconv.Atoi(strings.TrimSpace(s[i+2 : len(s)-1]))
	if err != nil || sf < 1 {
		return JobType{}, fmt.Errorf("gaveltable: bad scale factor in %q", k)
	}
	return JobType{Key: s[2:i], SF: sf}, nil
}

// jobLess orders job types by scale factor, then as in the zoo.
func jobLess(a, b JobType) bool {
	if a.SF != b.SF {
		return a.SF < b.SF
	}
	ia, ib := zooIndex(a.Key), zooIndex(b.Key)
	if ia != ib {
		return ia < ib
	}
	return a.Key < b.Key
}

func zooIndex(key string) int {
	for i, t := range workload.GavelZoo {
		if t.Key() == key {
			return i
		}
	}
	return len(workload.GavelZoo)
}

// tableLess orders tables V100, P100, K80, others, consolidated first.
func tableLess(a, b string) bool {
	rank := func(n string) (int, int, string) {
		base := strings.TrimSuffix(n, "_unconsolidated")
		u := 0
		if base != n {
			u = 1
		}
		r := map[string]int{"v100": 0, "p100": 1, "k80": 2}[base]
		if _, ok := map[string]int{"v100": 0, "p100": 1, "k80": 2}[base]; !ok {
			r = 3
		}
		return u, r, base
	}
	ua, ra, na := rank(a)
	ub, rb, nb := rank(b)
	if ua != ub {
		return ua < ub
	}
	if ra != rb {
		return ra < rb
	}
	return na < nb
}
