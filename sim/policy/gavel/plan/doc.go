// Package plan is the vocabulary that Gavel's allocators, its round
// mechanism and its fluid simulator share (spec 001 §1): the problem an
// allocator solves (Input: the active jobs, each with its throughput on
// every GPU type, and how many GPUs of each type there are) and its answer,
// the allocation X (Allocation: the fraction of time each job, or pair of
// jobs sharing GPUs, should spend on each type), with the quantities the
// paper defines on them (equal-share and isolated throughput, effective
// throughput).
package plan
