package trace

import (
	"strings"
)

// Detect guesses a file's format from its first line (and its name for
// Gavel's headerless traces); "" when nothing fits.
func Detect(name string, head []byte) string {
	line, _, _ := strings.Cut(string(head), "\n")
	line = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(line), "\ufeff"))
	if strings.HasPrefix(line, "{") {
		return "scenario"
	}
	has := func(cols ...string) bool {
		fields := strings.Split(line, ",")
		for _, c := range cols {
			found := false
			for _, f := range fields {
				if strings.TrimSpace(f) == c {
					found = true
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	switch {
	case has("timestamp", "num_gpus", "duration"):
		return "philly"
	case has("application", "num_replicas", "batch_size"):
		return "pollux"
	case has("num_gpu", "submit_time"):
		return "tiresias"
	case has("gpu_num", "submit_time"):
		return "helios"
	case has("job_name", "plan_gpu"):
		return "pai"
	case has("id", "arrival_s", "gpus"):
		return "jobs"
	}
	if n := strings.Count(line, "\t") + 1; n > 1 {
		if _, ok := gavelLayouts[n]; ok {
			return "gavel"
		}
	}
	if strings.Count(line, ",") == len(paiColumns)-1 {
		return "pai" // its tables ship without a header
	}
	if strings.HasSuffix(strings.ToLower(name), ".trace") {
		return "gavel"
	}
	return ""
}
