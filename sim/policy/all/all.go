// Package all registers every policy family; import it for its side
// effect wherever scenarios are parsed or run.
package all

import (
	_ "github.com/schedlab/schedlab/sim/policy/fifo"     // FIFO
	_ "github.com/schedlab/schedlab/sim/policy/gavel"    // Gavel's policies and mechanism
	_ "github.com/schedlab/schedlab/sim/policy/ojpp"     // OJPP, OJPAP and the baselines of its paper
	_ "github.com/schedlab/schedlab/sim/policy/pollux"   // Pollux
	_ "github.com/schedlab/schedlab/sim/policy/script"   // policies written in Starlark
	_ "github.com/schedlab/schedlab/sim/policy/sharing"  // SJF-BSBF, SJF-FFS
	_ "github.com/schedlab/schedlab/sim/policy/sjf"      // SJF
	_ "github.com/schedlab/schedlab/sim/policy/sjfbco"   // SJF-BCO, FF, LS, RAND
	_ "github.com/schedlab/schedlab/sim/policy/tesserae" // Tesserae-T and the baselines of its paper
	_ "github.com/schedlab/schedlab/sim/policy/tiresias" // Tiresias
)
