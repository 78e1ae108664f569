package lp

// Factorizations counts the factorisations w has made, for tests.
func Factorizations(w *Workspace) int { return w.s.factors }
