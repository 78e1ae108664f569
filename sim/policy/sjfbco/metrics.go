package sjfbco

import "github.com/schedlab/schedlab/sim/metrics"

// ExtraShare is spec 004 §4.3's realized contention and overhead share:
// the GPU-time jobs spent beyond their contention-free run time ρ̂ (their
// duration_s), over all the GPU-time they held, Σ G·(run − ρ̂) / Σ G·run.
// The paper bounds it by 15 %; the presets are judged by it.
func ExtraShare(c metrics.Context) float64 {
	extra, busy := 0.0, 0.0
	for _, r := range c.Selected {
		if r.RunS <= 0 || int(r.Job) >= len(c.Jobs) {
			continue
		}
		g := float64(r.GPUs)
		extra += g * (r.RunS - c.Jobs[r.Job].DurationS)
		busy += g * r.RunS
	}
	if busy == 0 {
		return 0
	}
	return extra / busy
}

func init() {
	metrics.Register(metrics.Def{Name: "rar_extra_share", Doc: "share of GPU-time spent beyond each job's contention-free run time (duration_s): contention, per-server overhead and slot rounding under the ring_allreduce model", Fn: ExtraShare})
}
