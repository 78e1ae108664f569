//go:build !unix

package main

import (
	"context"
	"errors"
)

// errNoRusage says why nothing is measured here: the report reads each
// command's resource usage from a Unix kernel.
var errNoRusage = errors.New("the performance table measures processes through Unix's resource usage, which this system does not give")

func timed(context.Context, string, ...string) (usage, error) { return usage{}, errNoRusage }

func limited(context.Context, int, string, ...string) (usage, bool, error) {
	return usage{}, false, errNoRusage
}
