package engine

// AdaptiveBatch implements perf.AdaptiveState: whether the policy's jobs
// adapt their batch size to the GPUs they hold.
func (s *State) AdaptiveBatch() bool { return s.opts.AdaptiveBatch }
