package trace

import (
	"encoding/json"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
)

// Perf is the perf model an imported scenario uses.
type Perf struct {
	Model  string          `json:"model"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Cluster is a named cluster preset with the perf model and policies an
// imported scenario on it uses.
type Cluster struct {
	Name     string       `json:"name"`
	Doc      string       `json:"doc"`
	Spec     cluster.Spec `json:"spec"`
	Perf     Perf         `json:"perf"`
	Policies []string     `json:"policies"`
	// Models says how jobs get what the perf model needs (see Models*):
	// "" gives a job that names no model one of Pollux's tasks.
	Models string `json:"models,omitempty"`
	// BatchPolicies, when set, replace Policies on an import whose jobs
	// all arrive at time 0 (Options.AtZero): policies that plan an
	// offline batch refuse jobs that arrive over time.
	BatchPolicies []string `json:"batch_policies,omitempty"`
}

// How a preset's jobs get what its perf model needs.
const (
	// ModelsOJPP gives every job a type of the OJPP paper's Mixed queue,
	// the library the memshare model knows: with probability ½ one of the
	// C-high and I-high types, otherwise one of the Average types, each
	// type of its class equally likely (spec 002 §5.3, queue 1). The
	// trace's own models are replaced, since memshare times no other.
	ModelsOJPP = "ojpp"
	// ModelsRAR gives every job the iterations F that the ring_allreduce
	// model needs: its contention-free iteration time τ0 is drawn
	// uniformly from the SJF-BCO paper's [0.01, 0.05] s (spec 004 §4.1)
	// and F = round(duration / τ0), so that alone on one server it runs
	// about its logged duration. Models become "rar", as in the paper's
	// generator.
	ModelsRAR = "rar"
)

func group(count, gpus int, typ string, memGB float64) cluster.ServerGroup {
	return cluster.ServerGroup{Count: count, GPUs: gpus, GPUType: typ, GPUMemoryGB: memGB}
}

// clusters are the presets. Jobs of Philly, Helios and PAI get Pollux's
// six tasks, which the analytic model times; Gavel's job types need the
// measured throughput table; Tiresias names TensorFlow benchmark CNNs no
// model times, so its jobs keep their durations under the constant model.
var clusters = []Cluster{
	{Name: "sjf-bsbf-64", Doc: "16 servers × 4 RTX 2080 Ti (11 GB), the SJF-BSBF paper's simulated cluster; analytic model",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(16, 4, "2080Ti", 11)}},
		Perf: Perf{Model: "analytic"}, Policies: []string{"fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf"}},
	{Name: "pollux-64", Doc: "16 servers × 4 T4 (16 GB), Pollux's simulated cluster; analytic model",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(16, 4, "T4", 16)}},
		Perf: Perf{Model: "analytic"}, Policies: []string{"fifo", "sjf", "tiresias", "pollux"}},
	{Name: "gavel-108", Doc: "36 V100, 36 P100 and 36 K80 on 4-GPU servers, Gavel's heterogeneous cluster; measured throughputs",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(9, 4, "V100", 16), group(9, 4, "P100", 16), group(9, 4, "K80", 12)}},
		Perf: Perf{Model: "throughput"}, Policies: []string{"fifo", "sjf", "gavel-las"}},
	{Name: "tiresias-128", Doc: "32 servers × 4 GPUs (Tiresias's n32g4); constant model",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(32, 4, "P100", 16)}},
		Perf: Perf{Model: "constant"}, Policies: []string{"fifo", "sjf", "tiresias"}},
	{Name: "helios-256", Doc: "32 servers × 8 V100 (32 GB), the size of one large Helios virtual cluster; analytic model",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(32, 8, "V100", 32)}},
		Perf: Perf{Model: "analytic"}, Policies: []string{"fifo", "sjf", "tiresias"}},
	{Name: "constant-64", Doc: "16 servers × 4 V100 (16 GB); constant model (every job runs its duration alone)",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(16, 4, "V100", 16)}},
		Perf: Perf{Model: "constant"}, Policies: []string{"fifo", "sjf", "tiresias"}},
	{Name: "ojpp-64", Doc: "16 servers × 4 GTX 1080 Ti (11 GB), the OJPP paper's simulated GPU; memshare model, every job a type of OJPP's Mixed queue",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(16, 4, "1080Ti", 11)}},
		Perf: Perf{Model: "memshare"}, Policies: []string{"ojpp-dedicated", "ojpp-best-fit", "ojpp"}, Models: ModelsOJPP},
	{Name: "sjf-bco-64", Doc: "16 servers × 4 V100 (16 GB); the SJF-BCO paper's ring_allreduce model, every job given iterations for an iteration time drawn from the paper's [0.01, 0.05] s",
		Spec: cluster.Spec{Servers: []cluster.ServerGroup{group(16, 4, "V100", 16)}},
		Perf: Perf{Model: "ring_allreduce"}, Policies: []string{"fifo", "sjf", "tiresias"}, Models: ModelsRAR,
		BatchPolicies: []string{"sjfbco-ff", "sjfbco-ls", "sjf-bco"}},
}

// Clusters lists the presets.
func Clusters() []Cluster { return clusters }

// LookupCluster returns the preset called name.
func LookupCluster(name string) (Cluster, bool) {
	for _, c := range clusters {
		if c.Name == name {
			return c, true
		}
	}
	return Cluster{}, false
}

// ClusterNames are the presets' names, comma-separated.
func ClusterNames() string {
	names := make([]string, len(clusters))
	for i, c := range clusters {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
