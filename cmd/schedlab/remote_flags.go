package main

import (
	"flag"
	"time"

	"github.com/schedlab/schedlab/sim/api"
)

// remoteFlags are the flags of run and reproduce that say how sweep
// points go to API servers.
type remoteFlags struct {
	urls     *string
	retryFor *time.Duration
	timeout  *time.Duration
}

func addRemoteFlags(fs *flag.FlagSet, what string) remoteFlags {
	return remoteFlags{
		urls:     fs.String("remote", "", what),
		retryFor: fs.Duration("retry-for", api.DefaultRetryFor, "with --remote: how long a sweep point keeps being retried, on the next server each time, when a server does not answer or answers 5xx (long enough for a server to be restarted)"),
		timeout:  fs.Duration("request-timeout", api.DefaultRequestTimeout, "with --remote: longest a server may take over one sweep point before the point moves to the next server"),
	}
}
