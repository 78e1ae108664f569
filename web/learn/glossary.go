package learn

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Term is one glossary entry. Forms are the words that name it in a text
// (the first is its usual name); an upper-case form is matched as
// written, any other in any case.
type Term struct {
	Key   string
	Name  string
	Def   string
	Forms []string
}

// Glossary is every term the lessons and the decision logs use, in
// alphabetical order of name.
func Glossary() []Term { return glossary }

// TermByKey returns the term with this key.
func TermByKey(key string) (Term, bool) {
	for _, t := range glossary {
		if t.Key == key {
			return t, true
		}
	}
	return Term{}, false
}

var glossary = sortedTerms([]Term{
	{Key: "jct", Name: "JCT (job completion time)", Forms: []string{"JCT", "JCTs", "job completion time", "job completion times", "completion time", "completion times"},
		Def: "How long a job took from arriving at the cluster to finishing: the time it waited in the queue plus the time it ran. Lower is better; the average, median and p95 summarise many jobs."},
	{Key: "queue", Name: "Queue and queuing delay", Forms: []string{"queuing delay", "queuing delays", "queue", "queues", "queued"},
		Def: "Jobs that have arrived but have not started wait in a queue. A job's queuing delay is the time from its arrival to its first start."},
	{Key: "fifo", Name: "FIFO (first in, first out)", Forms: []string{"FIFO", "first come, first served", "first in, first out"},
		Def: "The simplest policy: jobs start in the order they arrive. Strict FIFO never lets a later job start before an earlier one; with backfilling it does when the earlier one does not fit yet."},
	{Key: "cdf", Name: "CDF (cumulative distribution)", Forms: []string{"CDF", "CDFs"},
		Def: "A curve that shows, for each time on the x axis, the share of jobs whose completion time was at most that. Read across at 50 % for the median, at 95 % for the p95. A curve further left and higher is better."},
	{Key: "median", Name: "Median (p50)", Forms: []string{"median", "p50"},
		Def: "The middle value: half the jobs took less, half took more. Unlike the average, a few very long jobs do not move it."},
	{Key: "p95", Name: "p95 and the tail", Forms: []string{"p95", "tail", "95th percentile"},
		Def: "The 95th percentile: 95 % of jobs took at most this long, 5 % took longer. The slowest jobs are the tail of the distribution; the p95 measures it."},
	{Key: "policy", Name: "Policy (scheduler)", Forms: []string{"policy", "policies", "scheduling policy", "scheduler", "schedulers"},
		Def: "The rule that decides which waiting job starts next, on which GPUs, and whether a running job is paused or moved. Each lesson compares policies on the same jobs."},
	{Key: "head-of-line", Name: "Head-of-line blocking", Forms: []string{"head-of-line blocking", "head of the line", "head-of-line", "blocks the queue", "blocked"},
		Def: "When the first job in the queue needs more GPUs than are free, strict FIFO lets nobody pass it: the jobs behind it wait even if they would fit in the free GPUs, which stay idle."},
	{Key: "backfilling", Name: "Backfilling", Forms: []string{"backfilling", "backfill", "backfills", "backfilled"},
		Def: "Letting a later job start in GPUs that the first job in the queue cannot use yet. It fills idle GPUs, but a big job may then wait longer, since small jobs keep taking the GPUs it needs."},
	{Key: "starvation", Name: "Starvation", Forms: []string{"starvation", "starve", "starves", "starved", "starving"},
		Def: "A job waits far longer than others, possibly without end, because the policy keeps preferring other jobs: big jobs under backfilling, long jobs under SJF."},
	{Key: "sjf", Name: "SJF (shortest job first)", Forms: []string{"SJF", "shortest job first", "shortest-job-first"},
		Def: "Among the waiting jobs, start the one that will run for the shortest time. It needs to know every job's duration in advance, which real clusters rarely do. It lowers the average JCT, at the cost of long jobs."},
	{Key: "load", Name: "Load", Forms: []string{"load", "loads", "offered load"},
		Def: "How much work arrives compared with what the cluster can do: the GPU-hours that jobs ask for per hour, divided by the number of GPUs. At 100 % the cluster would have to be busy all the time just to keep up."},
	{Key: "knee", Name: "Knee (of a curve)", Forms: []string{"knee"},
		Def: "The point where a curve that grew slowly turns steeply upward. Waiting times have a knee as the load nears the cluster's capacity."},
	{Key: "utilization", Name: "Utilization", Forms: []string{"utilization", "utilisation"},
		Def: "The share of GPU time spent running jobs over the run. Idle GPUs while jobs wait (blocking, fragmentation) lower it."},
	{Key: "makespan", Name: "Makespan", Forms: []string{"makespan"},
		Def: "The time from the start until the last job finishes."},
	{Key: "las", Name: "LAS (least attained service)", Forms: []string{"LAS", "least attained service", "attained service"},
		Def: "A policy for when durations are unknown: run first the jobs that have received the least GPU time so far. New jobs start at once; a job that has run long drops behind. It needs preemption."},
	{Key: "tiresias", Name: "Tiresias", Forms: []string{"Tiresias"},
		Def: "A scheduler (Gu et al., NSDI 2019) built on least attained service counted in GPU-time, with a few priority queues so that jobs are not preempted too often. It does not need to know durations."},
	{Key: "preemption", Name: "Preemption", Forms: []string{"preemption", "preemptions", "preempt", "preempts", "preempted", "preempting", "paused"},
		Def: "Stopping a running job to give its GPUs to another; it resumes later from a checkpoint. Each restart costs time (loading the model and data again), set in the scenario's engine overheads."},
	{Key: "fragmentation", Name: "Fragmentation", Forms: []string{"fragmentation", "fragmented", "scattered"},
		Def: "Enough GPUs are free in the cluster, but spread over several servers, so a job that must run on one server does not fit anywhere."},
	{Key: "placement", Name: "Placement", Forms: []string{"placement", "placements", "placed"},
		Def: "Choosing which GPUs, on which servers, a job runs on. Consolidated placement spreads a job over servers when it must; strict placement keeps a job that fits on one server on one server, and makes it wait otherwise."},
	{Key: "server", Name: "Server", Forms: []string{"server", "servers"},
		Def: "One machine of the cluster, holding a few GPUs (often 4 or 8). GPUs of one server talk to each other fast; GPUs of different servers talk over the network, more slowly."},
	{Key: "heterogeneous", Name: "Heterogeneous cluster", Forms: []string{"heterogeneous", "GPU types", "GPU type"},
		Def: "A cluster with several kinds of GPUs (here V100, P100 and K80). A job runs at a different speed on each kind, and not every model gains the same from a faster GPU."},
	{Key: "throughput", Name: "Throughput and effective throughput", Forms: []string{"effective throughput", "throughput", "throughputs"},
		Def: "How fast a job trains, in iterations per second. Its effective throughput over a period is the average over the GPU types it ran on, weighted by the share of time on each: Gavel's measure of what a job receives."},
	{Key: "gavel", Name: "Gavel", Forms: []string{"Gavel"},
		Def: "A scheduler (Narayanan et al., OSDI 2020) that plans, for each job, the share of time it should get on each GPU type, so that each policy's goal is met in effective throughput; 6-minute rounds carry the plan out."},
	{Key: "round", Name: "Round", Forms: []string{"round", "rounds"},
		Def: "A fixed period (a few minutes) after which a round-based scheduler reconsiders every allocation: it may start, pause or move jobs at each round."},
	{Key: "sharing", Name: "GPU sharing", Forms: []string{"GPU sharing", "share a GPU", "shares a GPU", "sharing a GPU", "shared GPU", "shared GPUs", "share GPUs", "sharing"},
		Def: "Running two jobs on the same GPUs at once. Both slow down (interference) and both must fit in the GPU's memory, but neither has to wait."},
	{Key: "interference", Name: "Interference", Forms: []string{"interference", "slowdown", "slowdowns", "slows down"},
		Def: "How much slower a job runs when it shares its GPU with another. A slowdown factor of 1.5 means each job of the pair takes 1.5 times as long as alone."},
	{Key: "memory", Name: "GPU memory", Forms: []string{"GPU memory", "memory"},
		Def: "Each GPU has a fixed memory (16 GB on a V100 here). Jobs sharing a GPU must fit in it together; a job that needs more than is free cannot start there."},
	{Key: "sjf-bsbf", Name: "SJF-BSBF", Forms: []string{"SJF-BSBF", "share-or-wait", "share or wait"},
		Def: "Shortest job first with best sharing benefit (Luo et al., 2024): when a job cannot get GPUs of its own, it compares sharing GPUs with a running job now (both slowed by interference) against waiting, and does what finishes sooner."},
	{Key: "ojpp", Name: "OJPP", Forms: []string{"OJPP"},
		Def: "An online job placement policy (Yu et al., 2024) that packs jobs onto as few GPUs as it can by sharing GPU memory, predicting how much memory each job will need."},
	{Key: "collision", Name: "Memory collision", Forms: []string{"memory collision", "memory collisions", "collision", "collisions"},
		Def: "Two jobs sharing a GPU whose memory needs together exceed what it has, once their real use grows past what the scheduler predicted: one of them has to stop."},
	{Key: "migration", Name: "Migration", Forms: []string{"migration", "migrations", "migrate", "migrates", "migrated", "moved"},
		Def: "Moving a running job to other GPUs: it stops, saves its state, and restarts there. It costs a pause (the migration overhead) but can free room or improve packing."},
	{Key: "packing", Name: "Packing", Forms: []string{"packing", "packs", "packed"},
		Def: "Choosing which jobs share GPUs, or which jobs go together on servers, so that they fit well and slow each other down little."},
	{Key: "tesserae", Name: "Tesserae", Forms: []string{"Tesserae"},
		Def: "A placement layer (2025) that works on top of any scheduling policy: at each round it decides where jobs go, migrating and packing them when that pays, by solving matching problems."},
	{Key: "contention", Name: "Communication contention", Forms: []string{"communication contention", "contention", "contended"},
		Def: "Jobs spread over several servers exchange their results over the network at every step (all-reduce); when several of them share a link, each gets less bandwidth and slows down."},
	{Key: "allreduce", Name: "All-reduce", Forms: []string{"all-reduce", "ring all-reduce"},
		Def: "The step in which the GPUs of one job combine what each computed, usually passing it around a ring. Inside a server it is fast; across servers it uses the network."},
	{Key: "bandwidth", Name: "Bandwidth", Forms: []string{"bandwidth"},
		Def: "How many gigabytes per second a link carries. Jobs that share a link share its bandwidth."},
	{Key: "sjf-bco", Name: "SJF-BCO", Forms: []string{"SJF-BCO"},
		Def: "Shortest job first with balanced communication overhead (Wang et al., 2024): it places jobs to keep the number of jobs crossing each server's network link low."},
	{Key: "seed", Name: "Seed", Forms: []string{"seed", "seeds"},
		Def: "The number that starts the random generator. The same seed gives the same jobs and the same results, here and on the command line; other seeds give other samples of the same mix."},
	{Key: "sweep", Name: "Sweep", Forms: []string{"sweep", "sweeps", "swept"},
		Def: "Running the same scenario at several values of one setting (a load, a number of GPUs) to draw a curve."},
	{Key: "claim", Name: "Claim and check", Forms: []string{"claim", "claims", "check", "checks"},
		Def: "A paper's claim is a statement about its results (\"A beats B by 20 %\"). A check turns it into a test on our rerun, with a tolerance; its verdict says whether the claim held here."},
	{Key: "verdict", Name: "Verdicts: pass, fail, calibrated, exploration, n/a", Forms: []string{"calibrated", "exploration", "n/a", "reproduced", "verdict", "verdicts"},
		Def: "Pass: the claim held on our rerun. Fail: it did not. Calibrated: a number our set-up was tuned to match, so it proves nothing by itself and is not counted. Exploration: a check of something the paper leaves open, reported but not held against the paper. n/a: the check could not be made on this run."},
})

func sortedTerms(ts []Term) []Term {
	sort.Slice(ts, func(i, j int) bool { return strings.ToLower(ts[i].Name) < strings.ToLower(ts[j].Name) })
	return ts
}

// Span is a piece of text; Term, when set, is the glossary key it names.
type Span struct {
	Text string
	Term string
}

// match is one occurrence of a term's form in a text.
type match struct {
	start, end int
	term       string
}

// Link splits text into spans, linking the first occurrence of each
// glossary term to it. Longer forms win over the shorter ones they hold
// ("SJF-BSBF" over "SJF", "strict placement" over "placement").
func Link(text string) []Span { return linkExcept(text, "") }

// linkExcept links as Link does, except the term skip (a definition does
// not link to itself).
func linkExcept(text, skip string) []Span {
	var ms []match
	lower := strings.ToLower(text)
	for _, t := range glossary {
		if t.Key == skip {
			continue
		}
		for _, f := range t.Forms {
			exact := f != strings.ToLower(f)
			hay, needle := lower, strings.ToLower(f)
			if exact {
				hay, needle = text, f
			}
			for from := 0; ; {
				i := strings.Index(hay[from:], needle)
				if i < 0 {
					break
				}
				s, e := from+i, from+i+len(needle)
				if boundary(text, s, e) {
					ms = append(ms, match{s, e, t.Key})
				}
				from = e
			}
		}
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return ms[i].end > ms[j].end
	})
	var out []Span
	linked := map[string]bool{}
	at := 0
	for _, m := range ms {
		if m.start < at {
			continue // inside a longer match
		}
		if linked[m.term] {
			// a later mention: plain text, but it still hides the
			// shorter forms inside it
			continue
		}
		if m.start > at {
			out = append(out, Span{Text: text[at:m.start]})
		}
		out = append(out, Span{Text: text[m.start:m.end], Term: m.term})
		linked[m.term] = true
		at = m.end
	}
	if at < len(text) {
		out = append(out, Span{Text: text[at:]})
	}
	return merge(out)
}

// merge joins neighbouring plain spans.
func merge(spans []Span) []Span {
	var out []Span
	for _, s := range spans {
		if n := len(out); n > 0 && s.Term == "" && out[n-1].Term == "" {
			out[n-1].Text += s.Text
			continue
		}
		out = append(out, s)
	}
	return out
}

// boundary reports whether text[s:e] stands as a word: no letter, digit
// or hyphen joins it on either side.
func boundary(text string, s, e int) bool {
	if s > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:s])
		if wordRune(r) {
			return false
		}
	}
	if e < len(text) {
		r, _ := utf8.DecodeRuneInString(text[e:])
		if wordRune(r) {
			return false
		}
	}
	return true
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' }

// DefSpans is a term's definition, linking the other terms it names.
func (t Term) DefSpans() []Span { return linkExcept(t.Def, t.Key) }
