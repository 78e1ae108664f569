package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
)

// loadScenario reads a built-in scenario by name, or a scenario file.
func loadScenario(arg string) (*scenario.Scenario, []byte, error) {
	data, ok := scenarios.Read(arg)
	if !ok {
		var err error
		data, err = os.ReadFile(arg)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("no built-in scenario or file named %q (\"schedlab list\" shows the built-in ones)", arg)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	sc, err := scenario.Parse(data)
	return sc, data, err
}
