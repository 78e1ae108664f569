"""Compares schedlab's JCTs with the reference's: compare.py OURS.json REFPREFIX.

OURS.json is `schedlab run --format json` of a toscen.py scenario; the
reference's JCTs are read from REFPREFIX-POLICY.json (runref.py's output).
Jobs the reference drops (JCT null) are left out of both sides.
"""
import json
import sys

names = {"fifo_perf": "aware FIFO", "fifo": "agnostic FIFO", "isolated": "isolated"}
ours_all = json.load(open(sys.argv[1]))
prefix = sys.argv[2]
for run in ours_all["results"]:
    policy = run["policy"]
    ref = json.load(open("%s-%s.json" % (prefix, policy)))["jct"]
    ours = {int(j["id"][1:]): j["jct_s"] for j in run["jobs"]}
    pairs = [(ours[int(k)], v) for k, v in ref.items() if v is not None]
    dropped = sum(1 for v in ref.values() if v is None)
    n = len(pairs)
    within_1s = sum(1 for a, b in pairs if abs(a - b) <= 1)
    within_1pct = sum(1 for a, b in pairs if abs(a - b) <= 0.01 * b)
    avg_ours = sum(a for a, _ in pairs) / n
    avg_ref = sum(b for _, b in pairs) / n
    print("%-14s jobs %3d  within 1 s %3d  within 1%% %3d  avg JCT ours %9.1f s  ref %9.1f s  %+6.2f%%  dropped by ref %d"
          % (names.get(policy, policy), n, within_1s, within_1pct, avg_ours, avg_ref,
             100 * (avg_ours - avg_ref) / avg_ref, dropped))
