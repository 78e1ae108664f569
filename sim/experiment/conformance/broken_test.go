package conformance

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
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
	reg.Add(policy.Family[flagParams]{
		Name: brokenPrefix + "when-flagged", Title: "when-flagged",
		New: func(p flagParams) (engine.Policy, error) {
			if p.Flagged {
				return &broken{extraGPUs: 1}, nil
			}
			return &broken{}, nil
		},
	}.Factory())
	return reg
}()

// flagParams are the parameters of a policy that is broken only with one
// of its variants (flagged), and whose other variant (mode "b") the
// validator refuses beside the defaults: mode b needs flagged.
type flagParams struct {
	Flagged bool   `json:"flagged"`
	Mode    string `json:"mode,omitempty" enum:",a,b"`
}

func (p *flagParams) Check() []schema.Problem {
	if p.Mode == "b" && !p.Flagged {
		return []schema.Problem{{Path: "mode", Msg: "b needs flagged"}}
	}
	return nil
}

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
			ps := Suite{Policies: withBroken, Settings: Settings[:1], Seeds: Seeds}.Check(context.Background(), brokenPrefix+name).Problems
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

// The variants of a policy's parameters are run too: a fault that only
// one of them has is caught and named; a variant the validator refuses for
// its parameters alone is reported apart, not as the policy's fault.
func TestBrokenVariantIsCaught(t *testing.T) {
	f, _ := withBroken.Lookup(brokenPrefix + "when-flagged")
	var labels []string
	for _, v := range Variants(f) {
		labels = append(labels, v.Label)
	}
	if want := []string{"", "flagged=true", "mode=a", "mode=b"}; !slices.Equal(labels, want) {
		t.Errorf("variants %q, want %q", labels, want)
	}
	rep := Suite{Policies: withBroken, Settings: Settings[:1], Seeds: Seeds}.Check(context.Background(), brokenPrefix+"when-flagged")
	if len(rep.Problems) == 0 {
		t.Fatal("the flagged variant's fault was not caught")
	}
	for _, p := range rep.Problems {
		if p.Variant != "flagged=true" || !strings.Contains(p.Msg, "was given") {
			t.Errorf("reported, but not for the flagged variant's fault: %s", p)
		}
	}
	if len(rep.RefusedVariants) == 0 {
		t.Error("mode=b, which the validator refuses, is not reported as refused")
	}
	for _, p := range rep.RefusedVariants {
		if p.Variant != "mode=b" || !strings.Contains(p.Msg, "b needs flagged") {
			t.Errorf("refused variant: %s", p)
		}
	}
	t.Logf("reported: %s; refused: %s", rep.Problems[0], rep.RefusedVariants[0])
}

// Fifo's variants, by hand from its parameters.
func TestVariantsOfFIFO(t *testing.T) {
	f, _ := policy.Lookup("fifo")
	var got []string
	for _, v := range Variants(f) {
		got = append(got, v.Label+" "+string(v.Params))
	}
	want := []string{" ", `backfill=false {"backfill":false}`, `best_fit=true {"best_fit":true}`, `preempt=true {"preempt":true}`, `placement=strict {"placement":"strict"}`}
	if !slices.Equal(got, want) {
		t.Errorf("variants\n%q\nwant\n%q", got, want)
	}
}
