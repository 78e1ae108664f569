// Package trace imports public deep-learning cluster traces into
// schedlab's job lists and exports job lists back out.
//
// Each Format reads one published layout (Philly as Pollux ships it,
// Pollux workload CSVs, Gavel's TSV traces, Tiresias, Helios, Alibaba PAI
// v2020 task tables, and schedlab's own jobs CSV and scenario JSON) row by
// row. A row that cannot be read (a bad number, a wrong column count) is
// a line-numbered error; a row that reads but cannot become a job (no
// GPUs, an unknown model, larger than the cluster) is a line-numbered
// warning and is counted in the summary, never dropped silently.
//
// After reading, one pipeline applies the options in a fixed order:
// filters, time window (or the busiest window), seeded sampling, model
// mapping (Pollux's GPU-time buckets where the trace names no model), the
// cluster fit and time scaling. The result builds a scenario that
// scenario.Parse accepts.
package trace
