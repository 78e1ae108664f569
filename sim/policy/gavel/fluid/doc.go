// Package fluid simulates Gavel's ideal allocation (mode "ideal", spec 001
// §3.5 and Figure 13): no rounds and no GPU placements; between events
// every active job progresses continuously at its time-averaged rate
// thr(m, X) = Σ_j T_mj·X_mj (plus its pairs' shares). The discrete engine
// cannot express a job running at a fraction of a GPU's rate without
// holding it, so Run has its own event loop (the next event is the earliest
// of the next arrival, the next fluid completion and the next due
// recompute) and returns the same kind of result as the engine.
package fluid
