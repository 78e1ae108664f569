package metrics

// peerMetrics are the metrics that read Context.Peers.
var peerMetrics = map[string]bool{}

// RegisterPeers registers a named metric that reads Context.Peers (it
// compares a run with the other policies' runs of the same trace), so
// that the runs of one policy alone are known not to compute it. Such a
// metric reads of its own run only its job records (Context.Selected and
// Jobs), not the rest of Context.Result: a copied run (experiment.RunShare)
// keeps only those for it.
func RegisterPeers(d Def) {
	Register(d)
	peerMetrics[d.Name] = true
}

// NeedsPeers reports whether metric name reads Context.Peers.
func NeedsPeers(name string) bool { return peerMetrics[name] }
