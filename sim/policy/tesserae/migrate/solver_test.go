package migrate

import "github.com/schedlab/schedlab/sim/solver/match"

type matchSolver struct{ s match.Solver }
