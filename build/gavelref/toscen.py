"""Turns a Gavel trace into a schedlab scenario: toscen.py TRACE NAME SHIFT OUT.

Each trace line becomes an explicit job (model, batch size, steps, GPUs,
arrival + SHIFT seconds); the policies are aware FIFO ("fifo_perf"),
agnostic FIFO ("fifo") and isolated, labelled as Gavel names them.
"""
import json
import re
import sys

trace, name, shift, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
jobs = []
for i, line in enumerate(open(trace)):
    f = line.rstrip("\n").split("\t")
    job_type, steps, scale, arrival = f[0], int(f[5]), int(f[6]), float(f[9])
    m = re.match(r"(.*) \(batch size (\d+)\)", job_type)
    model, batch = (m.group(1), int(m.group(2))) if m else (job_type, {"A3C": 4, "CycleGAN": 1}[job_type])
    jobs.append({"id": "j%d" % i, "arrival_s": arrival + shift, "gpus": scale, "model": model,
                 "batch_size": batch, "iterations": steps, "duration_s": 3600})
servers = [{"count": 9, "gpus": 4, "gpu_type": t} for t in ("V100", "P100", "K80")]
policies = [{"name": "gavel-fifo", "label": "fifo_perf"},
            {"name": "gavel-fifo", "label": "fifo", "params": {"aware": False}},
            {"name": "gavel-isolated", "label": "isolated"}]
scenario = {"name": name, "description": "A trace from Gavel's generator", "cluster": {"servers": servers},
            "workload": {"jobs": jobs}, "perf": {"model": "throughput"}, "policies": policies, "seeds": [0]}
json.dump(scenario, open(out, "w"), indent=1)
