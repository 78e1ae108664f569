package form

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/web/doc"
)

// Text is how a document value shows in an input of kind k. Text that was
// typed but is not a valid value is stored as a string and shows as is.
func Text(v any, k Kind) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		if k == NumberList || k == StringList {
			parts := make([]string, len(x))
			for i, e := range x {
				switch s := e.(type) {
				case string:
					parts[i] = s
				case json.Number:
					parts[i] = string(s)
				default:
					return string(doc.Compact(v))
				}
			}
			return strings.Join(parts, ", ")
		}
	}
	return string(doc.Compact(v))
}

// Value converts what was typed into a field into the document value to
// store. remove is true when the field should be removed instead (an
// optional field left empty). Text that is not a valid value is kept as a
// string, so that the validator reports it and nothing typed is lost.
func Value(f *Field, text string) (v any, remove bool) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" && f.Kind != String {
		if f.Optional {
			return nil, true
		}
		if f.Kind == NumberList || f.Kind == StringList {
			return []any{}, false
		}
		return "", false
	}
	switch f.Kind {
	case Number, Integer:
		if n, ok := number(trimmed); ok {
			return n, false
		}
		return text, false
	case Bool:
		switch trimmed {
		case "true":
			return true, false
		case "false":
			return false, false
		}
		return text, false
	case NumberList:
		var out []any
		for _, p := range splitList(trimmed) {
			n, ok := number(p)
			if !ok {
				return text, false
			}
			out = append(out, n)
		}
		return out, false
	case StringList:
		out := []any{}
		for _, p := range splitList(trimmed) {
			out = append(out, p)
		}
		return out, false
	case JSON:
		if t, err := doc.Parse([]byte(text)); err == nil {
			return t, false
		}
		return text, false
	}
	if text == "" && f.Optional {
		return nil, true
	}
	return text, false // String, Enum
}

// number parses a typed number; JSON's own syntax is kept as typed (so
// "0.50" stays "0.50"), other forms Go understands (".5", "+3") are
// normalised.
func number(s string) (json.Number, bool) {
	if json.Valid([]byte(s)) && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return json.Number(s), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' }) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Message rewrites the validator's message for a field whose document
// value is typed text that is not a value yet: the validator speaks of
// JSON types ("must be a number, got string"), a student typed a word.
func Message(f *Field, v any, msg string) string {
	s, isText := v.(string)
	if !isText {
		return msg
	}
	quoted := "“" + s + "”"
	empty := strings.TrimSpace(s) == ""
	switch f.Kind {
	case Integer:
		if empty {
			return "is empty; enter a whole number"
		}
		if _, ok := number(strings.TrimSpace(s)); ok {
			return quoted + " is not a whole number"
		}
		return quoted + " is not a number"
	case Number:
		if empty {
			return "is empty; enter a number"
		}
		return quoted + " is not a number"
	case NumberList:
		return quoted + " is not a list of numbers; separate them with commas, e.g. 1, 2, 3"
	case JSON:
		if _, err := doc.Parse([]byte(s)); err != nil {
			return "is not valid JSON: " + err.Error()
		}
	}
	return msg
}

// Range describes a field's bounds in words, e.g. "1 to 64"; a plain
// "0 or more" goes without saying.
func Range(f *Field) string {
	switch {
	case f.Min != nil && f.Max != nil:
		return fmt.Sprintf("%s to %s", rangeNumber(*f.Min), rangeNumber(*f.Max))
	case f.Min != nil && *f.Min > 0:
		return "at least " + rangeNumber(*f.Min)
	case f.Max != nil:
		return "at most " + rangeNumber(*f.Max)
	}
	return ""
}

// rangeNumber prints a bound: 10000000 as 10,000,000, 0.000001 as 1e-06.
func rangeNumber(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		s := strconv.FormatInt(int64(math.Abs(x)), 10)
		var b strings.Builder
		if x < 0 {
			b.WriteByte('-')
		}
		for i, r := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// labels are the names the page shows, by owner type and JSON name, then
// by JSON name alone; other names are made readable from the JSON name.
var labels = map[string]string{
	"ServerGroup.count":             "Servers",
	"ServerGroup.gpus":              "GPUs per server",
	"ServerGroup.gpu_type":          "GPU type",
	"ServerGroup.gpu_memory_gb":     "GPU memory",
	"ServerGroup.intra_server_gbps": "Link inside server",
	"Network.intra_server_gbps":     "Inside a server",
	"Network.inter_server_gbps":     "Between servers",
	"Network.inter_rack_gbps":       "Between racks",
	"ScaleShare.gpus":               "GPUs",
	"ModelShare.batch_size":         "Batch size",
	"jobs":                          "Number of jobs",
	"jobs_per_hour":                 "Arrival rate",
	"gpu_mix":                       "GPU-count mix",
	"scale_factors":                 "GPU-count mix",
	"duration":                      "Duration distribution",
	"dist":                          "Distribution",
	"mean_s":                        "Mean",
	"min_s":                         "Minimum",
	"max_s":                         "Maximum",
	"sigma":                         "σ (spread)",
	"models":                        "Model mix",
	"id_prefix":                     "Job id prefix",
	"multi_gpu":                     "Multi-GPU jobs",
	"short_prob":                    "Share of short jobs",
	"short_log10_min":               "Short jobs: log10 minutes",
	"long_log10_min":                "Long jobs: log10 minutes",
	"fixed_duration_s":              "Fixed duration",
	"high_priority_fraction":        "High-priority share",
	"high_priority_weight":          "High-priority weight",
	"slo_factors":                   "SLO factors",
	"gpu_type":                      "GPU type",
	"gpus":                          "GPUs",
	"first_start_s":                 "First start overhead",
	"restart_s":                     "Restart overhead",
	"migration_s":                   "Migration overhead",
	"resize_s":                      "Resize overhead",
	"max_events":                    "Event budget",
	"max_time_s":                    "Time budget",
	"sharing_limit":                 "Jobs per GPU (limit)",
	"servers_per_rack":              "Servers per rack",
	"type_speed":                    "Speed per GPU type",
	"best_fit":                      "Best fit",
}

// Label is the display name of field name of type owner.
func Label(owner, name string) string {
	if l, ok := labels[owner+"."+name]; ok {
		return l
	}
	if l, ok := labels[name]; ok {
		return l
	}
	words := strings.Split(name, "_")
	if n := len(words); n > 1 {
		switch words[n-1] {
		case "s", "gb", "gbps", "ms":
			words = words[:n-1]
		}
	}
	for i, w := range words {
		switch w {
		case "gpu", "gpus", "jct", "slo", "id", "lp":
			words[i] = strings.ToUpper(w)
			if w == "gpus" {
				words[i] = "GPUs"
			}
		}
	}
	s := strings.Join(words, " ")
	if s == "" {
		return name
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
