// Package mechanism is Gavel's round-based scheduling mechanism (spec 001
// §3), the engine.Policy of every Gavel policy except in mode ideal: it
// asks an allocator (plan.Allocator) for the target allocation X when jobs
// arrive or finish, and turns X into leases round by round.
//
//   - mechanism.go: the events, the rounds and the time each combination
//     (a job alone or a pair) received on each GPU type.
//   - recompute.go: a new allocation, and the learner's series and log.
//   - pick.go: each round's priorities (target ÷ share received) and the
//     greedy choice of entries.
//   - lease.go: GPUs for the chosen entries, keeping last round's when they
//     are free (lease renewal), and the starts and preemptions.
package mechanism
