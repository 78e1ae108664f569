package perf

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf/gaveltable"
	"github.com/schedlab/schedlab/sim/workload"
)

// Throughputs is implemented by models that know every job's throughput on
// every GPU type alone and beside one partner: what heterogeneity-aware
// policies plan with.
type Throughputs interface {
	// SoloThroughput is job j's iterations per second on j.GPUs GPUs of
	// gpuType, 0 when it cannot run there.
	SoloThroughput(j *workload.Job, gpuType string) float64
	// PairThroughput is the iterations per second of a and b while they
	// share the same GPUs of gpuType, 0, 0 when they cannot.
	PairThroughput(a, b *workload.Job, gpuType string) (float64, float64)
}

// ThroughputParams configure the measured-throughput model.
type ThroughputParams struct {
	Placement string `json:"placement,omitempty" enum:",consolidated,servers" help:"consolidated: every job runs at its consolidated throughput (Gavel's simulator); servers: a multi-GPU job spread over several servers runs at the unconsolidated throughput"`
}

// Throughput is the model of Gavel's measured throughputs (spec 001
// §5.3): a job's rate is the table's throughput of its job type (model and
// batch size) at its scale factor on its GPUs' type; a job sharing its
// GPUs with one partner of the same scale factor runs at the measured pair
// throughput. A gang spread over several GPU types, or a GPU shared by more
// than two jobs, cannot run (rate 0).
type Throughput struct {
	t       *gaveltable.Table
	servers bool
	rows    map[string][]rowAt // by model (a map keyed by string alone is the fast kind: Row is asked at every rate query)
}

// rowAt is the table row of one batch size and scale factor of a model.
type rowAt struct{ batch, sf, row int }

// NewThroughput builds the model over the embedded table.
func NewThroughput(p ThroughputParams) (*Throughput, error) {
	t, err := gaveltable.Default()
	if err != nil {
		return nil, err
	}
	m := &Throughput{t: t, servers: p.Placement == "servers", rows: map[string][]rowAt{}}
	// Filled once here and only read afterwards: one model serves runs in
	// parallel.
	for _, tm := range workload.GavelZoo {
		for _, jt := range t.Jobs() {
			if jt.Key == tm.Key() {
				m.setRow(tm.Model, tm.BatchSize, jt.SF, t.Index(jt.Key, jt.SF))
			}
		}
	}
	return m, nil
}

// lookup is the row recorded for model at batch size batch and sf GPUs.
func (m *Throughput) lookup(model string, batch, sf int) (int, bool) {
	for _, r := range m.rows[model] {
		if r.batch == batch && r.sf == sf {
			return r.row, true
		}
	}
	return 0, false
}

// setRow records the row of model at batch size batch and sf GPUs,
// replacing an earlier one.
func (m *Throughput) setRow(model string, batch, sf, row int) {
	rs := m.rows[model]
	for i := range rs {
		if rs[i].batch == batch && rs[i].sf == sf {
			rs[i].row = row
			return
		}
	}
	m.rows[model] = append(rs, rowAt{batch, sf, row})
}

// Table is the throughput table.
func (m *Throughput) Table() *gaveltable.Table { return m.t }

// Row returns the table row of job j at sf GPUs, or -1.
func (m *Throughput) Row(j *workload.Job, sf int) int {
	if r, ok := m.lookup(j.Model, j.BatchSize, sf); ok {
		return r
	}
	key := workload.Template{Model: j.Model, BatchSize: j.BatchSize}.Key()
	if r := m.t.Index(key, sf); r >= 0 {
		return r
	}
	return m.t.Index(j.Model, sf) // a bare key such as "A3C"
}

// SoloThroughput implements Throughputs.
func (m *Throughput) SoloThroughput(j *workload.Job, gpuType string) float64 {
	return m.t.Solo(m.Row(j, j.GPUs), m.t.GPUIndex(gpuType), gaveltable.Consolidated)
}

// PairThroughput implements Throughputs.
func (m *Throughput) PairThroughput(a, b *workload.Job, gpuType string) (float64, float64) {
	if a.GPUs != b.GPUs {
		return 0, 0
	}
	return m.t.Pair(m.Row(a, a.GPUs), m.Row(b, b.GPUs), m.t.GPUIndex(gpuType), gaveltable.Consolidated)
}

// Rate implements Model.
func (m *Throughput) Rate(s State, id workload.JobID) float64 {
	gpus := s.Placement(id).GPUs
	if len(gpus) == 0 {
		return 0
	}
	c := s.Cluster()
	typ := c.GPUs[gpus[0]].Type
	for _, g := range gpus[1:] {
		if c.GPUs[g].Type != typ {
			return 0
		}
	}
	place := gaveltable.Consolidated
	if m.servers && c.ServersSpanned(gpus) > 1 {
		place = gaveltable.Unconsolidated
	}
	j := s.Job(id)
	row, col := m.Row(j, len(gpus)), m.t.GPUIndex(typ)
	partner, measured := pairPartner(s, id, gpus)
	switch {
	case !measured:
		return 0
	case partner < 0:
		return m.t.Solo(row, col, place)
	}
	own, _ := m.t.Pair(row, m.Row(s.Job(partner), len(gpus)), col, place)
	return own
}

// pairPartner finds the job that shares id's GPUs: -1 when id runs alone.
// measured is false where the table has no rate: more than two jobs on a
// GPU, or two jobs that share some of their GPUs but not all.
func pairPartner(s State, id workload.JobID, gpus []cluster.GPUID) (partner workload.JobID, measured bool) {
	partner = -1
	for _, g := range gpus {
		for _, p := range s.JobsOn(g) {
			switch {
			case p == id || p == partner:
			case partner < 0:
				partner = p
			default:
				return -1, false
			}
		}
	}
	if partner < 0 {
		return -1, true
	}
	pg := s.Placement(partner).GPUs
	if len(pg) != len(gpus) || !sameSet(pg, gpus) {
		return -1, false
	}
	return partner, true
}

func sameSet(a, b []cluster.GPUID) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Coupling implements Model: a job's rate depends on its GPU partner.
func (m *Throughput) Coupling() Coupling { return SharedGPU }

// Prepare turns each job's duration_s, its standalone duration on V100s
// at its scale factor (Gavel's definition), into iterations.
func (m *Throughput) Prepare(c *cluster.Cluster, jobs []workload.Job) error {
	v100 := m.t.GPUIndex("v100")
	for i := range jobs {
		j := &jobs[i]
		row := m.Row(j, j.GPUs)
		if row < 0 {
			return fmt.Errorf("job %s: the throughput table has no job type %q with batch size %d on %d GPUs (known: Gavel's 26 job types, e.g. model \"ResNet-50\" with batch_size 64)",
				j.Name, j.Model, j.BatchSize, j.GPUs)
		}
		if j.Iterations > 0 {
			continue
		}
		if !(j.DurationS > 0) {
			return fmt.Errorf("job %s: needs duration_s or iterations", j.Name)
		}
		thr := m.t.Solo(row, v100, gaveltable.Consolidated)
		if thr <= 0 {
			return fmt.Errorf("job %s: no V100 throughput to turn its duration into iterations", j.Name)
		}
		j.Iterations = j.DurationS * thr
	}
	var missing []string
	for _, typ := range c.Types() {
		if m.t.GPUIndex(typ) < 0 {
			missing = append(missing, typ)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the throughput table knows GPU types %s, not %s", strings.ToUpper(strings.Join(m.t.GPUTypes(), ", ")), strings.Join(missing, ", "))
	}
	return nil
}

func init() {
	Register(Family[ThroughputParams]{
		Name: "throughput",
		Doc: "Gavel's measured throughputs (Narayanan et al., OSDI'20): each of the 26 job types (model and batch size) at 1, 2, 4 or 8 GPUs " +
			"has an iterations/s figure on V100, P100 and K80, and two single-GPU jobs sharing a GPU run at their measured pair throughputs. " +
			"A job's duration_s is its run time alone on V100s.",
		New: func(p ThroughputParams, _ *cluster.Cluster) (Model, error) {
			return NewThroughput(p)
		},
	})
}

// Runnable reports whether job j can ever run on cluster c under model m,
// beyond having enough GPUs of one type with enough memory (which the
// engine checks with cluster.Fit): a model that knows each job's
// throughput on every GPU type (Throughputs) may give it none on every type
// the cluster has enough GPUs of, e.g. a 4-GPU job of a model Gavel's table
// has no 4-GPU K80 throughput for, on a cluster whose only four GPUs of
// one type are K80s. Such a job is unschedulable, not a job to wait for.
// Other models, and elastic jobs (need differs from j.GPUs), are not
// checked here.
func Runnable(m Model, c *cluster.Cluster, j *workload.Job, need int, memGB float64) (bool, string) {
	tp, ok := As[Throughputs](m) // a wrapper's factors slow a job down, they never make it runnable
	if !ok || need != j.GPUs {
		return true, ""
	}
	var zero []string
	for _, t := range c.Types() {
		if j.GPUType != "" && t != j.GPUType {
			continue
		}
		if fits, _ := c.Fit(need, memGB, t); !fits {
			continue
		}
		if tp.SoloThroughput(j, t) > 0 {
			return true, ""
		}
		zero = append(zero, t)
	}
	if len(zero) == 0 {
		return true, "" // cluster.Fit says why it does not fit
	}
	return false, fmt.Sprintf("the perf model gives %s on %d GPUs no throughput on %s, the only GPU types with %d GPUs for it",
		j.Model, need, strings.Join(zero, " or "), need)
}
