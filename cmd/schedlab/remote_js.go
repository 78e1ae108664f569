//go:build js

package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// errNoNetwork is what the WebAssembly build says of --remote and serve.
// It links no net/http (see sim/api): in WebAssembly under node Go's net
// package has only an in-process stand-in for the network (a --remote
// run retried its refused connections for the two minutes of
// --retry-for), and net/http was a third of the module, compiled and
// initialised at every start of every command.
var errNoNetwork = errors.New("the WebAssembly build of schedlab has no network (under node, Go's net package has only an in-process stand-in for it); run schedlab natively for serve and --remote")

// remoteOptions stands in for sim/api's RemoteOptions.
type remoteOptions struct{}

func (remoteFlags) options(int) (remoteOptions, error) { return remoteOptions{}, errNoNetwork }

func runRemote(_ *scenario.Scenario, _ bool, _ string, _ remoteFlags, _ int, _ string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "schedlab run: --remote:", errNoNetwork)
	return exitInvalid
}

func runStudyRemote(context.Context, *scenario.Scenario, bool, *remoteOptions) (*experiment.Study, experiment.StudyOutput, error) {
	return nil, experiment.StudyOutput{}, errNoNetwork
}
