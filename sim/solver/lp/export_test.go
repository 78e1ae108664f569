package lp

// Factorizations counts the factorisations w has made, for tests.
func Factorizations(w *Workspace) int { return w.s.factors }

// ReadDumped and GunzipTestdata read the package's testdata, for the
// external tests and benchmarks.
var (
	ReadDumped     = readDumped
	GunzipTestdata = gunzipTestdata
)
