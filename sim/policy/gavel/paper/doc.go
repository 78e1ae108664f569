// Package paper is what Gavel's evaluation measures beyond the engine's
// metrics (spec 001 §5–§7): the metrics of its figures (finish-time
// fairness ρ, cost, SLO violations, hierarchical share error, steady-state
// normalised throughput), computed from the series the policies record,
// and Figure 12's scalability benchmark, which times one allocation of a
// policy against the number of active jobs.
package paper
