package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// brokenPrefix names the policies that exist only to be caught.
const brokenPrefix = "test-broken-"

// broken is a first-come policy with one deliberate fault.
type broken struct {
	extraGPUs   int  // start each job on this many GPUs more than it asks for
	early       bool // also start the next job that has not arrived yet
	newestFirst bool // serve the newest pending job first
	quiet       bool // ignore the engine's refusals instead of returning them
}

// instances counts the broken-nondeterministic policies built, a global
// that makes every other run differ: the fault the determinism check is
// for (state kept outside the run, such as a package-level cache).
var instances int

// withBroken is the registered policies plus the broken ones, which stay
// out of policy.Default: the page, the CLI and the other tests never see
// them.
var withBroken = func() *policy.Registry {
	reg := policy.Default.Clone()
	add := func(name string, mk func() *broken) {
		reg.Add(policy.Family[policy.NoParams]{
			Name: brokenPrefix + name, Title: name,
			New: func(policy.NoParams) (engine.Policy, error) { return mk(), nil },
		}.Factory())
	}
	add("too-many-gpus", func() *broken { return &broken{extraGPUs: 1} })
	add("too-many-gpus-quiet", func() *broken { return &broken{extraGPUs: 1, quiet: true} })
	add("before-arrival", func() *broken { return &broken{early: true} })
	add("nondeterministic", func() *broken {
		instances++
		return &broken{newestFirst: instances%2 == 0}
	})
	return reg
}()

func (b *broken) Options() engine.Options { return engine.Options{} }

func (b *broken) Decide(s *engine.State, _ []engine.Trigger) error {
	ids := s.Pending()
	if b.newestFirst {
		for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
			ids[i], ids[j] = ids[j], ids[i]
		}
	}
	if b.early {
		for id := range s.NumJobs() {
			if s.Status(workload.JobID(id)) == engine.NotArrived {
				ids = append(ids, workload.JobID(id))
				break
			}
		}
	}
	for _, id := range ids {
		gpus := freeGPUs(s, s.Job(id).GPUs+b.extraGPUs)
		if gpus == nil {
			continue
		}
		if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil && !b.quiet {
			return err
		}
	}
	return nil
}

// freeGPUs returns n idle GPUs, or nil.
func freeGPUs(s *engine.State, n int) []cluster.GPUID {
	var out []cluster.GPUID
	for _, g := range s.Cluster().GPUs {
		if s.NumJobsOn(g.ID) == 0 {
			out = append(out, g.ID)
			if len(out) == n {
				return out
			}
		}
	}
	return nil
}

// The conformance check reports each broken policy, with the fault named.
func TestBrokenPoliciesAreCaught(t *testing.T) {
	for name, want := range map[string]string{
		"too-many-gpus":       "was given",
		"too-many-gpus-quiet": "the policy starts none of them", // its jobs never start: the run is stuck
		"before-arrival":      "before its arrival",
		"nondeterministic":    "not deterministic",
	} {
		t.Run(name, func(t *testing.T) {
			ps := Suite{Policies: withBroken, Settings: Settings[:1], Seeds: seeds}.Check(context.Background(), brokenPrefix+name).Problems
			if len(ps) == 0 {
				t.Fatalf("%s passed the conformance check", name)
			}
			for _, p := range ps {
				if !strings.Contains(p.Msg, want) {
					t.Errorf("reported, but not for its fault (want %q): %s", want, p)
				}
			}
			t.Logf("reported: %s", ps[0])
		})
	}
}

// The broken policies are checked from a registry of their own and never
// enter the one scenarios read.
func TestBrokenPoliciesStayOutOfTheRegistry(t *testing.T) {
	for _, n := range policy.Names() {
		if strings.HasPrefix(n, brokenPrefix) {
			t.Errorf("%s is in policy.Default", n)
		}
	}
	if _, err := scenario.Parse(Document(Settings[0], 1, brokenPrefix+"too-many-gpus")); err == nil || !strings.Contains(err.Error(), "unknown policy") {
		t.Errorf("a scenario of a broken policy parsed without its registry: %v", err)
	}
	if _, ok := withBroken.Lookup(brokenPrefix + "too-many-gpus"); !ok {
		t.Error("the test registry lacks the broken policies")
	}
}
