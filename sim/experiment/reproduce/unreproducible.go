package reproduce

import "github.com/schedlab/schedlab/sim/results"

// unreproducible lists, per paper, the figures and tables that cannot be
// reproduced from published data. The report gives each one a line with
// its reason and no numbers: none is invented for them.
var unreproducible = map[string][]results.Unreproducible{
	"tesserae": {
		{Figure: "Fig. 8", Why: "GPT3-3B on 8 GPUs packed with the vision models under several pipeline splits. " +
			"The paper does not publish the throughputs it measured per split, nor the better split it found, " +
			"and no public profile has them."},
		{Figure: "Fig. 12(b)", Why: "Tesserae-T against Tiresias (Single) on V100 GPUs. The paper prints no number for it, " +
			"and no throughput table of packed pairs measured on V100 GPUs is published (the published measurements are on A100 GPUs), " +
			"nor the memory each model needs, which decides which pairs fit in a V100's 16 GB."},
		{Figure: "Fig. 15", Why: "The parallelisation-strategy ablation for packed LLM jobs (data parallel, Megatron's default pipeline split, the best of a candidate set). " +
			"It needs each LLM's throughput, alone and packed, under each strategy, which the paper does not publish."},
		{Figure: "Table 2 and Fig. 10", Why: "How far the authors' simulator is from their physical 32-GPU A100 cluster (deviation over 5 runs, and one sampled JCT CDF). " +
			"That compares two measurements of the authors' own testbed; without that cluster or its per-job records there is nothing to compare a simulated run with."},
	},
}

// CannotReproduce is the figures of paper that cannot be reproduced from
// published data, each with its reason.
func CannotReproduce(paper string) []results.Unreproducible {
	return append([]results.Unreproducible(nil), unreproducible[paper]...)
}
