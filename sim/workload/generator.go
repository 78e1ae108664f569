package workload

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/internal/registry"
)

// A Generator produces a job list from a seed. The same seed always gives
// the same jobs, natively and in WebAssembly.
type Generator interface {
	Generate(seed uint64) ([]Job, error)
}

// A Counter knows how many jobs it will make before making any, so that a
// scenario over the job limit is refused before anything is allocated.
// Every registered generator implements it; fields names the parameters
// that set the count (for error messages), e.g. "base_jobs × scale".
type Counter interface {
	JobCount() (n int64, fields string)
}

// A Batcher says from its parameters alone whether every job it makes
// arrives at time 0 (an offline batch), so that a scenario giving a policy
// that plans one batch arrivals over time is refused before anything is
// built; fields names the parameters that set the arrivals, for messages.
type Batcher interface {
	AllAtZero() (yes bool, fields string)
}

// GeneratorFamily is what a generator registers: its name and
// documentation, its parameter struct P with defaults, and how to build it
// from filled parameters. The registry converts to and from the untyped
// GeneratorKind that scenarios, the schema and the page read, so a
// generator never casts its parameters.
type GeneratorFamily[P any] struct {
	Name string
	Doc  string
	// Defaults returns the parameters a scenario starts from, a fresh
	// value on each call (the decoder writes into it, slices included);
	// nil means P's zero value.
	Defaults func() P
	// New builds the generator from filled parameters.
	New func(P) (Generator, error)
}

// GeneratorKind is the registry's untyped view of a GeneratorFamily, for
// readers that handle every generator alike.
type GeneratorKind struct {
	Name string
	Doc  string
	// NewParams returns a pointer to a parameter struct holding the
	// defaults; the scenario decoder fills it from JSON.
	NewParams func() any
	// New builds the generator from what NewParams returned; anything else
	// is an error, not a panic.
	New func(params any) (Generator, error)
}

var generators = registry.New[GeneratorKind]("generator")

// RegisterGenerator makes a generator available to scenarios. It panics
// on a duplicate or empty name, a missing New or parameters that are not
// a struct: programming errors.
func RegisterGenerator[P any](f GeneratorFamily[P]) {
	if f.New == nil {
		panic(fmt.Sprintf("generator %q: a family needs a New", f.Name))
	}
	params := registry.ParamsOf("generator", f.Name, f.Defaults)
	generators.Add(f.Name, GeneratorKind{Name: f.Name, Doc: f.Doc, NewParams: params.New,
		New: func(v any) (Generator, error) {
			p, err := params.From(v)
			if err != nil {
				return nil, err
			}
			return f.New(p)
		}})
}

// LookupGenerator returns the registered generator kind with that name.
func LookupGenerator(name string) (GeneratorKind, bool) { return generators.Get(name) }

// GeneratorNames returns the registered generator kinds, sorted.
func GeneratorNames() []string { return generators.Names() }

// stream returns an independent random stream for one purpose of one
// seed, so that changing how one quantity is drawn never shifts the others.
func stream(seed uint64, purpose uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed_0000+purpose))
}

// Stream identifiers; their values are part of the reproducibility contract.
const (
	streamArrivals = iota + 1
	streamDurations
	streamTypes
	streamScale
	streamPriority
	streamSLO
	streamGPUs
	streamModels
)

// poissonArrivals returns n arrival times with exponential gaps of mean
// 3600/perHour seconds, the first at 0. perHour = 0 puts every job at 0.
func poissonArrivals(r *rand.Rand, n int, perHour float64) []float64 {
	t := make([]float64, n)
	a := newArrivals(r, perHour)
	for i := range t {
		t[i] = a.next()
	}
	return t
}

// arrivals draws the times poissonArrivals returns one at a time, for
// generators that need no slice of them.
type arrivals struct {
	r       *rand.Rand
	mean, t float64
	started bool
}

func newArrivals(r *rand.Rand, perHour float64) *arrivals {
	a := &arrivals{r: r}
	if perHour > 0 {
		a.mean = 3600 / perHour
	}
	return a
}

func (a *arrivals) next() float64 {
	if a.started && a.mean > 0 {
		a.t += detmath.ExpVariate(a.r) * a.mean
	}
	a.started = true
	return a.t
}

// Weighted is one outcome of a discrete distribution.
type Weighted[T any] struct {
	Value  T
	Weight float64
}

// pick draws from a discrete distribution by cumulative weight.
func pick[T any](r *rand.Rand, items []Weighted[T]) T {
	total := 0.0
	for _, it := range items {
		total += it.Weight
	}
	u := r.Float64() * total
	for _, it := range items {
		if u < it.Weight {
			return it.Value
		}
		u -= it.Weight
	}
	return items[len(items)-1].Value
}

func roundTo(x, unit float64) float64 { return math.Round(x/unit) * unit }
