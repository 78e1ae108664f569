package mechanism

import (
	"cmp"
	"math"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/minheap"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
	"github.com/schedlab/schedlab/sim/workload"
)

// track is what the mechanism remembers about one job.
type track struct {
	job     *workload.Job
	sf      int     // its GPUs
	weight  float64 // its effective weight
	arrival float64
	finish  float64   // -1 until it finishes
	recv    []float64 // seconds it ran on each type
	isoTime float64   // seconds its work would have taken with an isolated share
	lastRem float64
	// the active jobs at the last recompute that planned for it, for its
	// isolated-share throughput since (Mechanism.isoThr); 0 before any
	isoActive int
	// selfCheck: the isolated-share throughput found at every recompute
	// and the isolated clock kept with it (checkIsoTime)
	shadowIsoThr, shadowIsoTime float64
	thr                         []float64
	gpus                        []cluster.GPUID // where it ran last round
	lastType                    int

	eq     float64 // its throughput under X^equal (plan.Input.ThrEqual)
	entity int32   // its entity's index (Mechanism.entNames), -1 without an entity or with eq ≤ 0

	// what a recompute last saw of it while it waited (see progress)
	seen             bool // it was waiting then, and has not started since
	seenRem, seenRun float64

	// quirk IntegerSteps and SplitSteps (ref-compat)
	taskEnd  float64 // when this round's micro-task ends
	stopAt   float64 // when to stop it, +Inf if it completes or runs on
	stopped  bool    // stopped at the end of its last micro-task
	failing  bool    // its micro-task fails this round
	failures int     // failed micro-tasks in a row
}

// Config is one Gavel policy as the mechanism runs it: the allocator that
// sets the targets, and how rounds treat its entries.
type Config struct {
	Title string         // the policy's name in errors and the decision log
	Alloc plan.Allocator // computes the target allocation X
	LPs   lp.Dumper      // hands the allocator's linear programs to a sink; nil if it solves none

	Mode      string  // ref-compat or clean (ideal runs in package fluid, not here)
	RoundS    float64 // round length: how long a lease lasts
	ResetMinS float64 // shortest time between two recomputations after arrivals and completions
	TraceJobs int     // runs with at most this many jobs record per-job shares and log every lease
	Quirks    Quirks  // the reference's quirks reproduced (ref-compat only)

	Shuffle      bool // visit types in a fresh random order each round (agnostic policies)
	FIFO         bool // never run entries with priority 0
	SpaceSharing bool // two jobs may share a GPU
	// MigrateMoves moves a job that runs on in the next round on other
	// GPUs with an engine migration (charged migration_s, counted as a
	// migration) instead of a preemption and a restart.
	MigrateMoves bool
	Entities     []plan.Entity // hierarchical fairness: whose shares the record compares with their weights

	// MaxWaiting, above 0, bounds each recompute to the running jobs and
	// the first MaxWaiting waiting jobs in WaitingKey's order (ascending,
	// ties by arrival; arrival order when WaitingKey is nil): an
	// approximation for very long queues, off at 0 (see considered).
	MaxWaiting int
	WaitingKey func(remaining float64, thr []float64) float64 // from a job's iterations left and solo throughput per type

	// Prices is the price of a GPU-hour of each type, for the cost series.
	Prices func(types []string) ([]float64, error)
	// SetPrices hands the cluster's prices to a cost-aware allocator.
	SetPrices func(types []string) error
}

// Mechanism is Gavel's round-based scheduling mechanism (spec 001 §3)
// around an allocator; it is the engine.Policy of every Gavel policy.
type Mechanism struct {
	cfg        Config
	ready      bool // set up for the run's cluster
	tracing    bool // record per-job series and log every lease (small runs)
	gpu        gpuTypes
	jobs       []*track // by job id; nil until the job arrives
	ledger     ledger
	rounds     rounds
	cost       float64 // dollars spent so far
	busy       []bool  // by job: taken this round (scratch of pick), or finished since the tiers were built (see keepLive)
	live       []int32 // the combinations with a positive target still running, by index, as of liveAt
	liveAt     liveStamp
	doneSince  []workload.JobID // jobs whose completion the mechanism saw since liveAt
	tiers      [][]tierEntry    // by type: live's combinations with a positive target there that can run there (mode ref-compat)
	groups     []tierGroups     // by type: how tiers[j] is grouped by size; made with tiers
	liveSized  []int32          // scratch of buildTiers: live by size
	liveZero   []int32          // all combinations still running, by index, as of zeroAt
	zeroAt     zeroStamp
	zeroNow    zeroStamp // this round's stamp (see keepZero)
	list       []cand    // scratch of pick: the candidates of one type
	picker     picker    // scratch of pick
	lastAt     []int32   // scratch of place, by job
	fullBefore []int     // scratch of place, by type: see consolidated
	sortBuf    []int32   // scratch of byTypeAndSize
	sortOrder  []int32   // scratch of place: byTypeAndSize's order
	sizeAt     []int     // scratch of byTypeAndSize
	wanted     wanted    // scratch of apply
	order      []int     // scratch of pick: this round's order of types
	taken      []bool    // scratch of place, by GPU
	done       []bool    // scratch of place, by chosen entry
	free       []int     // scratch of place, by server

	// quirk IntegerSteps: the jobs given a micro-task that stops before
	// the round ends, by stop time, those before stopHead stopped, and the
	// earliest stop still to come, so that the many events of a round that
	// stop nothing cost no scan.
	stops    []stop
	stopHead int
	nextStop float64
	sorter   stopSorter       // scratch of microTasks
	due      []workload.JobID // scratch of stopMicroTasks

	firstHeap minheap.Heap[keyed] // scratch of firstByKey
	held      []bool              // scratch of topUp, by job
	inJobs    []plan.Job          // scratch of recompute: the input's jobs
	keyBuf    []ckey              // scratch of recompute: the allocation's keys
	effIdx    []int               // scratch of effective
	eff       []float64           // effective's result
	entSums   []float64           // scratch of shares, by entity
	entOut    []entityShare       // scratch of shares

	// The active jobs (arrived, not finished) as record's shares count
	// them: how many, how many with a NaN throughput under X^equal, and
	// of each entity (by index into entNames; entIdx is the reverse).
	numActive int
	nanEq     int
	entNames  []string
	entIdx    map[string]int32
	entCount  []int

	// selfCheck: each recompute also makes what the incremental
	// bookkeeping keeps from scratch, and the first difference is kept in
	// checkErr (tests).
	selfCheck   bool
	checkErr    error
	checks      struct{ shares, progress, active, live, zero int } // how many comparisons selfCheck made
	completions int                                                // jobs completed so far (complete)
	activeDone  int                                                // completions when active last filtered activeIDs
	activeIDs   []workload.JobID                                   // see active
	idBufs      [3][]workload.JobID                                // scratch of activeFull: pending, running, both
}

// gpuTypes is the cluster as the mechanism sees it: per GPU type, in the
// cluster's order.
type gpuTypes struct {
	types   []string
	count   []float64 // GPUs
	prices  []float64 // dollars per GPU-hour
	servers [][]cluster.ServerID
	most    []int             // by type: the most GPUs a server of the type has
	order   []int             // the reference's order of visiting types (typeOrder)
	single  [][]cluster.GPUID // single[g] is {g}: a one-GPU placement's GPUs, shared and never changed
}

// rounds is the round in progress and the one before.
type rounds struct {
	n          int
	start, end float64
	prev       []placement // this round's leases, accounted at its end
	last       []placement // for lease renewal
	spare      []placement // a list no longer read, for the next round's
}

// stopper is an allocator's LP solver that can be told when to give up
// (alloc.LPs).
type stopper interface{ StopWhen(stop func() bool) }

// New returns the mechanism for one run of a policy.
func New(cfg Config) *Mechanism { return &Mechanism{cfg: cfg} }

// Options implements engine.Policy.
func (m *Mechanism) Options() engine.Options {
	limit := 1
	if m.cfg.SpaceSharing {
		limit = 2
	}
	return engine.Options{MaxJobsPerGPU: limit, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

// DumpLPs implements lp.Dumper.
func (m *Mechanism) DumpLPs(sink func(p *lp.Problem)) {
	if m.cfg.LPs != nil {
		m.cfg.LPs.DumpLPs(sink)
	}
}

func (m *Mechanism) setup(s *engine.State) error {
	// One LP or matching of thousands of jobs can take minutes: it gives
	// up when the run is stopped.
	for _, x := range []any{m.cfg.LPs, m.cfg.Alloc} {
		if st, ok := x.(stopper); ok {
			st.StopWhen(func() bool { return s.Interrupted() != nil })
		}
	}
	c := s.Cluster()
	m.gpu.types = append([]string(nil), c.Types()...)
	m.gpu.count = make([]float64, len(m.gpu.types))
	m.gpu.servers = make([][]cluster.ServerID, len(m.gpu.types))
	idx := map[string]int{}
	for j, t := range m.gpu.types {
		idx[t] = j
	}
	for _, g := range c.GPUs {
		m.gpu.count[idx[g.Type]]++
	}
	m.gpu.most = make([]int, len(m.gpu.types))
	for _, srv := range c.Servers {
		j := idx[srv.Type]
		m.gpu.servers[j] = append(m.gpu.servers[j], srv.ID)
		m.gpu.most[j] = max(m.gpu.most[j], srv.NumGPUs)
	}
	m.gpu.order = typeOrder(m.gpu.types)
	m.gpu.single = make([][]cluster.GPUID, len(c.GPUs))
	for g := range c.GPUs {
		m.gpu.single[g] = []cluster.GPUID{cluster.GPUID(g)}
	}
	prices, err := m.cfg.Prices(m.gpu.types)
	if err != nil {
		return err
	}
	m.gpu.prices = prices
	if m.cfg.SetPrices != nil {
		if err := m.cfg.SetPrices(m.gpu.types); err != nil {
			return err
		}
	}
	m.ledger.init(len(m.gpu.types), m.cfg.RoundS, m.cfg.Mode == "clean")
	m.ledger.resetAtZero = m.cfg.Quirks.ResetAtZero
	m.jobs = make([]*track, s.NumJobs())
	m.nextStop = math.Inf(1)
	m.tracing = s.NumJobs() <= m.cfg.TraceJobs && s.Recording()
	m.rounds.end = math.Inf(-1)
	m.ready = true
	return nil
}

func (m *Mechanism) oracle(s *engine.State) plan.Oracle {
	return plan.Oracle{Model: s.Perf(), Cluster: s.Cluster()}
}

// Decide implements engine.Policy.
func (m *Mechanism) Decide(s *engine.State, triggers []engine.Trigger) error {
	if !m.ready {
		if err := m.setup(s); err != nil {
			return err
		}
	}
	now := s.Now()
	roundOver := false
	for _, t := range triggers {
		switch t.Kind {
		case engine.Arrival:
			m.arrive(s, t.Job)
		case engine.Completion:
			m.complete(s, t.Job)
		case engine.WakeUp:
			roundOver = roundOver || now >= m.rounds.end
		}
	}
	if m.cfg.Quirks.IntegerSteps {
		if err := m.stopMicroTasks(s, now); err != nil {
			return err
		}
		// The last micro-task's end, or its job's completion, ends the
		// round (within rounding of the predicted time).
		roundOver = roundOver || now >= m.rounds.end-1e-9*max(1, math.Abs(m.rounds.end))
	}
	// An idle cluster does not wait for the round to end (the reference
	// jumps to the next arrival; a round whose jobs all finished early
	// ends at the last finish).
	if !roundOver && !(s.NumRunning() == 0 && s.NumPending() > 0) {
		if s.Telling() {
			for _, t := range triggers {
				if t.Kind == engine.Arrival && s.Status(t.Job) == engine.Pending {
					s.TellRound(t.Job, m.cfg.Title, m.cfg.RoundS, m.rounds.end)
				}
			}
		}
		return nil
	}
	return m.round(s)
}

func (m *Mechanism) arrive(s *engine.State, id workload.JobID) {
	o := m.oracle(s)
	job := s.Job(id)
	tr := &track{job: job, sf: job.GPUs, weight: job.EffectiveWeight(), arrival: job.ArrivalS, finish: -1, recv: make([]float64, len(m.gpu.types)), lastRem: job.Iterations, thr: make([]float64, len(m.gpu.types)), lastType: -1,
		taskEnd: math.Inf(1), stopAt: math.Inf(1)}
	for j, t := range m.gpu.types {
		tr.thr[j] = o.Solo(job, t)
	}
	m.jobs[id] = tr
	m.listArrival(id)
	m.ledger.arrive(id)
	// what record's shares count of the active jobs
	in := plan.Input{Count: m.gpu.count}
	tr.eq, tr.entity = in.ThrEqual(tr.thr), -1
	m.numActive++
	if tr.eq != tr.eq {
		m.nanEq++
	}
	if e := job.Entity; e != "" && tr.eq > 0 {
		i, ok := m.entIdx[e]
		if !ok {
			if m.entIdx == nil {
				m.entIdx = map[string]int32{}
			}
			i = int32(len(m.entNames))
			m.entIdx[e] = i
			m.entNames = append(m.entNames, e)
			m.entCount = append(m.entCount, 0)
		}
		tr.entity = i
		m.entCount[i]++
	}
}

func (m *Mechanism) complete(s *engine.State, id workload.JobID) {
	tr := m.jobs[id]
	tr.finish = s.Now()
	m.completions++
	m.doneSince = append(m.doneSince, id)
	m.numActive--
	if tr.eq != tr.eq {
		m.nanEq--
	}
	if tr.entity >= 0 {
		m.entCount[tr.entity]--
	}
	if iso := m.isoThr(tr, tr.sf); iso > 0 {
		tr.isoTime += tr.lastRem / iso
	}
	if m.selfCheck {
		m.checkIsoTime(s, id, tr, tr.lastRem/tr.shadowIsoThr)
	}
	if tr.isoTime > 0 {
		s.Record("gavel/iso_time_s", id, tr.isoTime)
	}
	m.ledger.due = true
}

// round ends the current round and starts the next: account for the time
// each combination ran, recompute the allocation if due, pick and place.
func (m *Mechanism) round(s *engine.State) error {
	now := s.Now()
	m.account(s, now)
	if m.ledger.dueAt(now, m.cfg.ResetMinS) {
		m.ledger.selfCheck = m.selfCheck
		if err := m.recompute(s); err != nil {
			return err
		}
		if err := cmp.Or(m.checkErr, m.ledger.checkErr); err != nil {
			return err
		}
	}
	m.rounds.n++
	m.topUp(s)
	chosen := m.pick(s)
	if m.checkErr != nil {
		return m.checkErr
	}
	for _, pl := range m.rounds.last {
		for _, id := range pl.k.members() {
			m.jobs[id].failing = false
		}
	}
	placed := m.place(s, chosen)
	if m.cfg.Quirks.SplitSteps {
		m.markFailures(s, placed)
	}
	old := m.rounds.last
	if err := m.apply(s, placed); err != nil {
		return err
	}
	for _, pl := range old {
		for _, id := range pl.k.members() {
			m.jobs[id].stopped = false // a lease not renewed at once is a restart
		}
	}
	if len(old) > 0 && (len(placed) == 0 || &old[0] != &placed[0]) {
		m.rounds.spare = old
	}
	m.rounds.prev = placed
	if m.cfg.Quirks.IntegerSteps && len(placed) > 0 {
		end, completes := m.microTasks(s, placed)
		m.rounds.start, m.rounds.end = now, end
		return m.roundEnds(s, end, completes)
	}
	if m.cfg.Quirks.IdleUntilArrival && len(placed) == 0 && s.NumPending() > 0 {
		if done, err := m.idle(s); done || err != nil {
			return err
		}
	}
	m.rounds.start, m.rounds.end = now, now+m.cfg.RoundS
	if s.NumPending()+s.NumRunning() > 0 {
		return s.WakeAt(m.rounds.end)
	}
	return nil
}

// account adds last round's execution times: to each combination's time
// on its type (the longer member's time for a pair), to the type's total,
// to each job's received time, and to the cost.
func (m *Mechanism) account(s *engine.State, now float64) {
	if len(m.rounds.prev) == 0 {
		return
	}
	defer func() { s.Record("gavel/cost_usd", -1, m.cost) }()
	for _, pl := range m.rounds.prev {
		exec := 0.0
		for _, id := range pl.k.members() {
			tr := m.jobs[id]
			end := now
			if tr.finish >= 0 && tr.finish < now {
				end = tr.finish
			}
			if m.cfg.Quirks.IntegerSteps {
				end = min(end, tr.taskEnd)
			}
			e := max(0, end-m.rounds.start)
			tr.recv[pl.j] += e
			exec = max(exec, e)
		}
		m.ledger.ran(pl.c, pl.j, exec)
		m.cost += m.gpu.prices[pl.j] * float64(len(pl.gpus)) * exec / 3600
	}
	m.rounds.prev = nil
}
