"""Runs Gavel's simulator on a trace: runref.py TRACE POLICY OUT [SEED].

GAVEL_DIR names Gavel's scheduler/ directory. The cluster is the one the
comparison uses: 36 V100, 36 P100 and 36 K80 GPUs in 4-GPU servers, 360 s
rounds. OUT gets {"jct": {job index: JCT or null if dropped}, "avg": ...}.
"""
import json
import logging
import os
import sys

gavel = os.environ["GAVEL_DIR"]
sys.path.insert(0, gavel)
os.chdir(gavel)
logging.disable(logging.CRITICAL)
import scheduler  # noqa: E402
import utils  # noqa: E402

trace, policy_name, out = sys.argv[1], sys.argv[2], sys.argv[3]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
jobs, arrivals = utils.parse_trace(trace)
policy = utils.get_policy(policy_name, solver="ECOS", seed=seed)
s = scheduler.Scheduler(policy, throughputs_file="simulation_throughputs.json",
                        simulate=True, seed=seed, time_per_iteration=360)
s.simulate({"v100": 36, "p100": 36, "k80": 36}, arrivals, jobs,
           num_gpus_per_server={"v100": 4, "p100": 4, "k80": 4})
jct = {jid.as_tuple()[0]: t for jid, t in s._job_completion_times.items()}
json.dump({"jct": jct, "avg": s.get_average_jct(verbose=False)}, open(out, "w"))
