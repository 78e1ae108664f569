package api

import "time"

// The defaults of RemoteOptions (in remote.go; these are in every build,
// so that the command line's flags show them where RunRemote is left out).
const (
	DefaultRetryFor       = 2 * time.Minute
	DefaultRequestTimeout = 10 * time.Minute
)
