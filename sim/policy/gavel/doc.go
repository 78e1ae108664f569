// Package gavel is Gavel's heterogeneity-aware scheduling (Narayanan et
// al., OSDI 2020; spec 001): policies written as optimisation problems
// over an allocation X (the fraction of time each job, or pair of jobs
// sharing a GPU, should spend on each GPU type), solved with schedlab's own
// LP solver, and the round-based mechanism that turns X into leases.
//
// Every policy comes heterogeneity-agnostic (it plans as if all GPU types
// were alike) and heterogeneity-aware, and with space sharing where spec 001
// defines it: max-min fairness (LAS) and weighted LAS, water filling and
// hierarchical (multi-level) fairness, finish-time fairness, FIFO,
// shortest job first, minimum makespan, maximum total throughput, minimum
// cost with or without SLOs, and the baselines Gandiva-style packing,
// AlloX and isolated. Agnostic max-min fairness plans with throughput 1 on
// every type, as the reference does, and picks a central optimum of its
// degenerate LP (ref-compat, ideal) or the most even spread over the types
// a job can use (clean), never an arbitrary vertex (alloc/agnostic.go).
//
// The mechanism (spec 001 §3) runs in rounds (6 minutes by default). The
// allocation is recomputed when jobs arrive or finish (at most every
// reset_min_s); each round, entries (job or pair, GPU type) are ranked by
// priority = X ÷ the share of the type's time they received since the last
// recompute, picked greedily, and placed keeping last round's GPUs when
// they are free (lease renewal). Mode "ref-compat" reproduces the
// reference simulator: one list per type visited V100, P100, K80 (shuffled
// every round for the agnostic policies), and entries with X = 0 still run
// on free GPUs (work-conserving backfill) except for the FIFO family. Mode
// "clean" ranks all entries in one list and runs only entries with X > 0.
// Mode "ideal" has no rounds: every job progresses continuously at its
// time-averaged rate Σ_j T_mj·X_mj (spec 001 Figure 13), in a fluid
// simulator of its own.
//
// What a learner sees: each run records the series gavel/objective (the
// LP's objective at each recompute) and, for runs of at most trace_jobs
// jobs, gavel/x/TYPE (a job's target share of TYPE) and gavel/received/TYPE
// (the share of its time since arrival it actually spent on TYPE), per job;
// gavel/cost_usd is the cumulative cost. The decision log says, every
// round, which entries ran where and why (priority, target, received share,
// lease renewed or not).
//
// This package registers the policies and holds their parameters; the
// work is done below it, each part in its own package:
//
//   - plan: what an allocator plans over and its answer, the allocation X;
//   - alloc: the allocators, one file per policy family and per baseline;
//   - mechanism: the rounds and leases that turn X into GPU placements;
//   - fluid: the fluid simulator of mode ideal;
//   - paper: the metrics of Gavel's figures and the Figure 12 benchmark.
//
// None of them imports this package, and alloc does not import mechanism
// or fluid: an allocator sees only a plan.Input.
package gavel
