package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// The model names and GPU types schedlab knows: those its perf models,
// generators and interference matrices have numbers for, and those the
// built-in scenarios name.
//
// A GPU type outside them is refused (a typo would make GPUs no perf
// model or policy knows the speed of); a new type is defined by giving
// its speed in the perf model's parameters. A model name is a label of
// the scenario's own unless it is a near miss of a known one ("resnet5O",
// "BERT"): a typo would silently make jobs that no interference matrix
// row matches, so a near miss is refused with the name it resembles. A
// perf model that needs numbers for a model refuses an unknown one itself.
var (
	knownModels = func() []string {
		names := []string{
			// the SJF-BSBF tasks (the analytic perf model's parameters)
			"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3",
			// teaching scenarios and the Tesserae mix
			"resnet50", "transformer", "gpt2", "vgg19", "DCGAN", "PointNet", "Bert-Large", "GPT2-Medium",
			// the SJF-BCO generator's ring-all-reduce jobs
			"rar",
			// the TensorFlow benchmark CNNs of Tiresias traces (sim/trace)
			"alexnet", "googlenet", "inception3", "inception4", "resnet101", "resnet152", "vgg11", "vgg16",
		}
		for _, t := range workload.GavelZoo {
			names = append(names, t.Model)
		}
		names = append(names, workload.OJPPMatrixModels...)
		return dedupe(names)
	}()
	knownGPUTypes = []string{"K80", "P100", "V100", "T4", "1080Ti", "2080Ti", "A100", "H100"}
)

func dedupe(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// KnownModels lists the model names a scenario may use without defining
// them in its interference matrix.
func KnownModels() []string { return append([]string(nil), knownModels...) }

// KnownGPUTypes lists the GPU types a scenario may use without naming
// them in its perf model's parameters.
func KnownGPUTypes() []string { return append([]string(nil), knownGPUTypes...) }

// checkNames refuses unknown model names and GPU types, and listed jobs
// that ask for more GPUs than the cluster has. A generator's GPU-count mix
// may make such jobs: they are a notice, not a problem (see Notices), and
// the run reports them unschedulable (the conformance suite makes them on
// purpose), since only some of its jobs are concerned and which ones
// depends on the seed.
func (sc *Scenario) checkNames() []schema.Problem {
	var ps []schema.Problem
	models := sc.modelVocabulary()
	types := sc.gpuTypeVocabulary()
	for i, g := range sc.Cluster.Servers {
		if g.GPUType != "" {
			ps = append(ps, unknownName(schema.Index("cluster.servers", i)+".gpu_type", "GPU type", g.GPUType, types, true)...)
		}
	}
	for i, j := range sc.Workload.Jobs {
		path := schema.Index("workload.jobs", i)
		if j.Model != "" {
			ps = append(ps, nearMiss(path+".model", j.Model, models)...)
		}
		if j.GPUType != "" {
			ps = append(ps, unknownName(path+".gpu_type", "GPU type", j.GPUType, types, true)...)
		}
		ps = append(ps, sc.tooBig(path+".gpus", j.GPUs, j.GPUType)...)
	}
	if p, ok := sc.genParams.(*workload.PoissonParams); ok {
		const path = "workload.generator"
		for i, m := range p.Models {
			if m.Model != "" {
				ps = append(ps, nearMiss(schema.Index(path+".models", i)+".model", m.Model, models)...)
			}
		}
	}
	return ps
}

// tooBig refuses a job size no placement can ever satisfy: more GPUs than
// the cluster has (of the job's GPU type when it names one). Such a job
// would never run, and the results would only say "39 of 40 finished".
func (sc *Scenario) tooBig(path string, gpus int, gpuType string) []schema.Problem {
	total, ok := sc.gpusOf(gpuType)
	if !ok {
		return nil // the cluster's own problem is reported; its size is unknown
	}
	if int64(gpus) <= total {
		return nil
	}
	what := "GPUs"
	if gpuType != "" {
		what = gpuType + " GPUs"
	}
	return []schema.Problem{{Path: path, Msg: fmt.Sprintf(
		"asks for %d GPUs, but the cluster has %s %s in all, so it could never run",
		gpus, group(total), what)}}
}

// unknownName says that name is not in known, with the nearest known name.
func unknownName(path, what, name string, known []string, fold bool) []schema.Problem {
	for _, k := range known {
		if k == name || fold && strings.EqualFold(k, name) {
			return nil
		}
	}
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if near := schema.Nearest(name, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	msg += "; known types: " + strings.Join(known, ", ")
	if what == "GPU type" {
		msg += " (another type needs its speed in the perf model's parameters)"
	}
	return []schema.Problem{{Path: path, Msg: msg}}
}

// nearMiss refuses a model name that differs from a known one only by
// case or a typo or two (see knownModels).
func nearMiss(path, name string, known []string) []schema.Problem {
	if len(name) < 4 || slices.Contains(known, name) {
		return nil // short names are too easily near anything
	}
	if k := schema.Nearest(name, known); k != "" {
		return []schema.Problem{{Path: path, Msg: fmt.Sprintf(
			"unknown model %q; did you mean %q?", name, k)}}
	}
	return nil
}

// modelVocabulary is the known models plus those the scenario's own
// interference matrix names (a matrix row defines a model).
func (sc *Scenario) modelVocabulary() []string {
	names := append([]string(nil), knownModels...)
	if in := sc.Perf.Interference; in != nil {
		names = append(names, in.Models...)
	}
	return dedupe(names)
}

// gpuTypeVocabulary is the known GPU types plus every "gpu_type" the perf
// model's parameters name (a speed table defines a type).
func (sc *Scenario) gpuTypeVocabulary() []string {
	names := append([]string(nil), knownGPUTypes...)
	var tree any
	if len(sc.Perf.Params) > 0 && json.Unmarshal(sc.Perf.Params, &tree) == nil {
		collectGPUTypes(tree, &names)
	}
	return dedupe(names)
}

func collectGPUTypes(v any, names *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "gpu_type" && s != "" {
				*names = append(*names, s)
			} else {
				collectGPUTypes(x, names)
			}
		}
	case []any:
		for _, x := range v {
			collectGPUTypes(x, names)
		}
	}
}
