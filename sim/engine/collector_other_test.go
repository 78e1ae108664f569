//go:build !(js && wasm)

package engine_test

// collectAsDeployed leaves the collector at Go's default natively, where
// the command line and the API server run with it.
func collectAsDeployed() (restore func()) { return func() {} }
