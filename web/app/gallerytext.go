package app

// The gallery's words for students: each paper's name and one line on
// what it is about, and for each built-in scenario a two-line summary and,
// for a paper figure, the paper's claim in a sentence. The scenarios' own
// descriptions are written for the people who check the reproduction; a
// scenario missing here falls back to the first sentence of its own.

// Paper is one paper of the gallery.
type Paper struct {
	Key, Name, About string
}

// Papers in the gallery's order.
var Papers = []Paper{
	{"sjf-bsbf", "SJF-BSBF", "Letting two jobs share a GPU, but only when sharing finishes them sooner than waiting (Luo et al., wise resource sharing)."},
	{"gavel", "Gavel", "Scheduling on a cluster of mixed GPU types: give each job the time on the types where it runs fastest (Narayanan et al., OSDI 2020)."},
	{"ojpp", "OJPP", "Placing workers of many jobs on few GPUs while keeping their mutual slowdown bounded (Li et al., interference-aware placement)."},
	{"tesserae", "Tesserae", "Placing jobs by graph matching, so that rounds move fewer jobs and pack better pairs (Tesserae, scalable placement)."},
	{"sjf-bco", "SJF-BCO", "Scheduling ring-all-reduce jobs whose gradients compete for the same network links (SJF-BCO, communication contention)."},
}

// cardText is a scenario's summary and, for a paper figure, its claim;
// for a cross-paper comparison, what we found (no paper made that claim).
type cardText struct{ summary, claim string }

var cardTexts = map[string]cardText{
	"fifo-vs-sjf":   {"Thirty jobs arrive almost at once on 16 GPUs. First-come-first-served against shortest-job-first: who waits, and how long?", ""},
	"fragmentation": {"Four GPUs are free, but one on each server. Does a 4-GPU job wait, or spread over servers?", ""},
	"gavel-small":   {"Twelve jobs on six GPUs of three types. Watch Gavel give each job more time on the type that suits it.", ""},
	"gavel-trace":   {"500 jobs from Gavel's generator on 108 GPUs of three types, scheduled without knowing which type is faster.", ""},
	"head-of-line":  {"Small jobs stuck behind a big one that does not fit yet. Backfilling lets them through; what does the big job pay?", ""},
	"load-sweep":    {"The same cluster under rising load. Completion times creep up, then explode near full capacity.", ""},
	"tiny":          {"Three jobs on two servers: small enough to follow every decision by hand in the timeline.", ""},

	"compare-memshare": {"OJPP's cluster, where jobs sharing a GPU slow each other down.",
		"On an idle cluster, packing jobs together only slows them; on a busy one, OJPP's careful packing and SJF-BSBF's careful sharing finish jobs first."},
	"compare-analytic": {"SJF-BSBF's 64 GPUs and jobs, as the load grows.",
		"Under heavy load, sharing a GPU only when it pays (SJF-BSBF) gives the lowest completion times; Gavel gains from sharing too."},
	"compare-throughput": {"Gavel's GPU speeds and jobs, as the job rate grows.",
		"At the highest job rate, Tesserae's packing by matching beats Gavel's sharing, which beats no sharing by a fifth."},

	"sjf-bsbf-fig4":         {"30 jobs on a 16-GPU testbed: how long jobs take, as a distribution, and how long each model queues.", "Sharing GPUs wisely gives the lowest median completion time."},
	"sjf-bsbf-fig6a":        {"240 to 480 jobs on 64 GPUs: average completion time as the load grows, for eight schedulers.", "SJF-BSBF keeps the lowest average completion time as the load rises."},
	"sjf-bsbf-fig6b":        {"Two jobs on one GPU slow each other by a factor ξ. Sweep ξ from 1 to 2 and compare sharing always with sharing wisely.", "Wise sharing matches always-sharing when sharing is free and pulls ahead as sharing gets costly."},
	"sjf-bsbf-pair":         {"One GPU, a long job running, a short one arriving: share now or wait? A two-job puzzle behind the paper's theorem.", "The best choice is always one of the two extremes: share at once or wait to the end."},
	"sjf-bsbf-table2":       {"30 jobs on the paper's 16-GPU testbed: makespan and average completion time of seven schedulers.", "SJF-BSBF finishes jobs sooner on average than sharing always, or never."},
	"sjf-bsbf-table3":       {"240 jobs on 64 GPUs: the paper's main comparison of seven schedulers, small and large jobs apart.", "SJF-BSBF and Pollux lead, ahead of plain SJF, Tiresias and FIFO."},
	"sjf-bsbf-table4":       {"The main comparison with twice as many jobs: 480 on 64 GPUs.", "Under heavier load, wise sharing still gives the lowest average completion time."},
	"sjf-bsbf-memory":       {"The 64-GPU workload with GPU memory from 11 to 22 GB: how much does sharing depend on memory?", ""},
	"sjf-bsbf-memory-tight": {"A tighter memory table: jobs that share must shrink their batches. Average completion time from 11 to 32 GB.", ""},
	"sjf-bsbf-why-two":      {"Why at most two jobs per GPU? Allow one, two or three and see the third job slow everyone.", ""},

	"gavel-cost":               {"Renting GPUs of three types: what does a schedule cost, with and without deadlines?", "Minimising cost spends clearly less than maximising throughput."},
	"gavel-fifo-multi":         {"First-come-first-served on three GPU types with multi-GPU jobs: knowing the types' speeds, and packing jobs in pairs.", "Knowing each type's speed lowers completion times; packing adds little for multi-GPU jobs."},
	"gavel-fifo-single":        {"First-come-first-served on 108 GPUs of three types, as the job rate grows.", "Heterogeneity-aware FIFO keeps completion times lower at every load."},
	"gavel-fig10-ftf-multi":    {"Finish-time fairness on three GPU types: is each job done about as soon as with its own share of the cluster?", "Gavel's version stays fair at higher job rates than the type-blind one."},
	"gavel-fig11-hierarchical": {"Three groups of users with weights 1, 2 and 3 share nine GPUs of three types. Watch their shares over time.", "Each group's share follows its weight."},
	"gavel-fig13-mechanism":    {"Gavel hands out GPUs in rounds of 6 to 48 minutes. How close do rounds come to the ideal continuous allocation?", "Six-minute rounds come within a few percent of the ideal."},
	"gavel-fig8-las-single":    {"Average completion time against the job rate on 108 GPUs of three types, for five schedulers.", "Gavel sustains a higher job rate before completion times blow up."},
	"gavel-fig9-las-multi":     {"The same comparison with jobs of 1 to 8 GPUs.", "Gavel sustains a higher job rate than the type-blind scheduler."},
	"gavel-las-priorities":     {"Some jobs matter five times more. Does knowing GPU types help the important ones?", "Gavel cuts high-priority completion times about 1.5× at high load."},
	"gavel-makespan":           {"All jobs submitted at once: how soon is the last one done, as the number of jobs grows?", "Gavel finishes the whole batch about 2.5× sooner than FIFO."},

	"ojpp-fig4":    {"Four workers to place: two GPUs with heavy interference, or three GPUs with little? A small case to see the trade-off.", "Packing tightly saves a GPU but slows the jobs by half."},
	"ojpp-fig5-8":  {"20-job queues placed five ways: one GPU per worker, plain bin packing, and bounded variants. Slowdown against GPUs used.", "Plain bin packing slows jobs most; OJPP saves GPUs with bounded slowdown."},
	"ojpp-fig7":    {"The slowdown of each model's jobs under five placement strategies.", "Interference-aware placement protects the most sensitive model."},
	"ojpp-fig9":    {"Jobs with more and more workers: does balancing workers across GPUs keep the slowdown flat?", "Without balancing, slowdown grows with the number of workers."},
	"ojpp-fig10":   {"Interference that changes while jobs run, and a placement that adjusts itself online.", "Smoothing the measurements avoids reacting to short spikes."},
	"ojpp-fig11":   {"Placing with a predicted interference table instead of the true one: how much is lost?", "A prediction with small errors barely changes the outcome."},
	"ojpp-online":  {"Jobs arrive over time and are placed as they come; when a GPU turns out worse than planned, workers move.", "Planning with a wrong table slows jobs more than planning with the true one."},
	"ojpp-predict": {"Measure half of the interference table and predict the rest: is the prediction good enough to plan with?", "Planning with the predicted table stays within 10% of the true one."},
	"ojpp-table5":  {"Six settings of OJPP's three bounds: GPUs saved against the performance each job is guaranteed.", "Looser bounds save more GPUs at the cost of guaranteed performance."},

	"tesserae-ablations":         {"Switch off one part of Tesserae at a time (the migration matching, then what packing maximises) on 80 GPUs.", "Each part earns its place: the matching moves fewer jobs than Gavel's rule, and the packing objective hardly matters."},
	"tesserae-fig11-sensitivity": {"Why does the matching save fewer moves here than in the paper? Pack only strong pairs and watch the saving grow.", "Once packing keeps only strong pairs, the matching cuts migrations by a third or more."},
	"tesserae-fig13-ftf":         {"Finish-time fairness on 80 GPUs: does each job finish about as soon as with its own share of the cluster?", "Tesserae's placement makes a fair schedule fairer than Gavel's."},
	"tesserae-fig16-noise":       {"What if the measured pair speeds are off by up to 100%? Tesserae decides with noisy numbers; jobs run at their true speed.", "Tesserae barely suffers from profiling errors."},
	"tesserae-fig18-estimators":  {"Measuring every pair of jobs at every GPU count is costly. Two cheaper estimates against the full table.", "A simple linear model is almost as good as measuring everything."},
	"tesserae-fig9-physical":     {"120 jobs on a 32-GPU cluster like the paper's testbed: Tesserae against Tiresias.", "Tesserae lowers average completion time by up to 1.62× and makespan by up to 1.15×."},
	"tesserae-fig11-migrations":  {"900 jobs on 80 GPUs, scheduled in rounds: how many jobs move between rounds, and how well do pairs pack?", "Placing by matching cuts migrations by about a third."},
	"tesserae-fig17-gavel-trace": {"Gavel's trace of 900 jobs on 80 GPUs: Tesserae's placements against the baselines.", "Tesserae gives the lowest average completion time of all."},

	"sjfbco-fig2":      {"Two ring-all-reduce jobs on two servers: packed, each on its own server, or split across both?", "Split rings share the network and both run slower."},
	"sjfbco-fig4":      {"160 jobs at once on 20 servers with contended links: makespan and average completion time of four schedulers.", "SJF-BCO finishes the whole batch first."},
	"sjfbco-fig4-mild": {"The same comparison with milder network contention.", "SJF-BCO finishes the whole batch first."},
	"sjfbco-fig5":      {"SJF-BCO's κ decides which jobs may spread over servers. Makespan for each κ.", "Letting small jobs spread helps at first, then hurts."},
	"sjfbco-fig5-mild": {"Makespan for each κ with milder contention.", "Letting small jobs spread helps at first, then hurts."},
	"sjfbco-fig6":      {"Makespan of four schedulers as servers are added, 10 to 20 servers.", "SJF-BCO's makespan falls as servers are added and stays lowest."},
	"sjfbco-fig6-mild": {"Makespan as servers are added, with milder contention.", "SJF-BCO's makespan falls as servers are added."},
	"sjfbco-fig7":      {"SJF-BCO's λ asks for servers with λ times a job's GPUs free. Makespan for each λ.", "A little headroom (λ = 2) beats none."},
	"sjfbco-fig7-mild": {"Makespan for each λ with milder contention.", "A little headroom (λ = 2) beats none."},
	"sjfbco-wang-demo": {"Four rings over the same links take more than twice as long as one alone: the measurement behind the model.", "Four spread rings take 2.29× as long as one alone."},
}
