// Package engine is schedlab's discrete-event core.
//
// Time is continuous (seconds). Between two events every running job
// advances at a constant rate given by the perf model, so the next
// completion is computed, never stepped. Events are arrivals, completions,
// the end of a restart or migration overhead, rate changes a perf model
// announces, and policy wake-ups. All events at one instant are applied in
// a fixed order (kind, then job ID), and then the policy is asked once to
// decide, seeing every event of that instant as a trigger.
//
// A policy acts through the State it is handed: Start, Preempt, Migrate,
// Resize, WakeAt and Log. Each action is checked at once against the
// invariants (GPU capacity, memory, sharing limit, gang size, arrival) and
// applied, so the policy sees its own changes. The engine charges the
// configured overheads, asks the perf model for new rates, records
// everything (per-job records, per-GPU allocation intervals, utilization
// over time, the decision log) and stops with a clear error when the run
// exceeds its event or time budget, or when jobs are left that nothing will
// ever start.
package engine
