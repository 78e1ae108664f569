// Package alloc holds Gavel's allocators (spec 001 §2): each turns the
// active jobs (a plan.Input) into a target allocation X. One file per
// policy family:
//
//   - maxmin.go: max-min fairness (LAS, weighted LAS), aware or agnostic;
//     waterfill.go: water filling and hierarchical fairness;
//     agnostic.go: the heterogeneity-agnostic plan and its central optimum;
//     classes.go and fairlp.go: the class-aggregated LP these share.
//   - perjob.go and joblp.go: policies with one LP row per job, namely
//     makespan.go (minimum makespan), ftf.go (finish-time fairness),
//     throughput.go (maximum total throughput, and minimum cost in the
//     reference's per-dollar form, with SLOs) and cost.go (minimum cost in
//     the paper's ratio form).
//   - fifo.go: FIFO and shortest job first, without an LP, as the
//     reference runs them; the baselines isolated.go, gandiva.go (Gandiva's
//     packing) and allox.go (AlloX).
//
// lps.go solves a policy's LPs with warm starts and hands them to a dump
// sink.
package alloc
