package engine

// SetMinCompact sets the smallest queue the engine compacts, for a test,
// and returns the function that restores it.
func SetMinCompact(n int) (restore func()) {
	old := minCompact
	minCompact = n
	return func() { minCompact = old }
}
