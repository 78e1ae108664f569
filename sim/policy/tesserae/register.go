package tesserae

import (
	"github.com/schedlab/schedlab/sim/policy"
)

// variants are the baselines and variants of spec 003 §5.5 this family
// offers, each a default setting of Params. The Tiresias baseline without
// sharing, tiresias-rounds, is a priority scheduler in package tiresias:
// like Blox, it never moves a running job.
var variants = []struct {
	name, title, doc string
	set              func(*Params)
}{
	{"tesserae", "Tesserae-T",
		"Tiresias' order (least attained GPU-service first) in 6-minute rounds; placement by graph matching: " +
			"jobs that do not get GPUs of their own share a placed job's GPUs when their pair's normalised " +
			"throughput (measured pairs from the Blox data) is worth it, chosen by a maximum-weight matching; " +
			"then the plan is renamed node by node, GPU by GPU, so that as few running jobs as possible move.",
		func(*Params) {}},
	{"tesserae-gavel-migration", "Tesserae-T + Gavel migration",
		"Tesserae-T with Gavel's migration rule instead of the matching: a job keeps its GPUs only if all of " +
			"them are still free when its turn comes (largest jobs first), otherwise it moves (an ablation for the paper's Fig. 11).",
		func(p *Params) { p.Migration = "sticky" }},
	{"tesserae-ftf", "Tesserae-FTF",
		"Tesserae's placement (packing by matching, two-level migration matching) under a finish-time-fairness " +
			"order computed without sharing: the job furthest behind its fair finish time goes first.",
		func(p *Params) { p.Order = "ftf" }},
	{"tiresias-single", "Tiresias (Single)",
		"Tesserae-T where only 1-GPU jobs share GPUs (distributed jobs are never packed, as in Lucid and Pollux).",
		func(p *Params) { p.Packing = "single" }},
}

func init() {
	for _, v := range variants {
		policy.Register(policy.Family[Params]{
			Name:  v.name,
			Title: v.title,
			Paper: "Bian et al., Tesserae: Scalable Placement Policies for Deep Learning Workloads (arXiv 2508.04953, 2025)",
			Doc:   v.doc,
			Defaults: func() Params {
				p := DefaultParams()
				v.set(&p)
				return p
			},
			New: New,
		})
	}
}
