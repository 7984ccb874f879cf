#!/usr/bin/env python3
"""Adds the configurations of a partial ground truth (family_bench --schedule NAME) to a whole one.

usage: bench/merge_ground_truth.py WHOLE.json PART.json [OUT.json]   (OUT defaults to WHOLE)

Every (workload, dtype, problem) of PART must already be in WHOLE; its configurations are added, or
replace those of the same key. WHOLE's meta keeps its run and gains a "merged" entry naming
PART's commit, command and copy bandwidth, since the merged configurations come from that run.
"""
import json
import sys


def case_key(w):
    """A case: its workload, dtype and problem (a dense family's workloads differ by problem alone)."""
    return (w["workload"], w["dtype"], json.dumps(w.get("problem"), sort_keys=True))


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    whole_path, part_path = argv[1], argv[2]
    out_path = argv[3] if len(argv) == 4 else whole_path
    with open(whole_path) as f:
        whole = json.load(f)
    with open(part_path) as f:
        part = json.load(f)
    cases = {case_key(w): w for w in whole["workloads"]}
    added = 0
    for w in part["workloads"]:
        key = case_key(w)
        if key not in cases:
            sys.exit(f"{part_path}: {key[0]} {key[1]} {key[2]} is not in {whole_path}")
        target = cases[key]
        if (target["rows"], target["nnz"]) != (w["rows"], w["nnz"]):
            sys.exit(f"{key[0]} {key[1]}: the two files describe different matrices")
        index = {c["config"]: i for i, c in enumerate(target["configs"])}
        for c in w["configs"]:
            if c["config"] in index:
                target["configs"][index[c["config"]]] = c
            else:
                target["configs"].append(c)
            added += 1
    meta = part["meta"]
    whole["meta"].setdefault("merged", []).append(
        {"commit": meta.get("commit"), "command": meta.get("command"), "copy_gbs": meta.get("copy_gbs")})
    with open(out_path, "w") as f:
        json.dump(whole, f, separators=(",", ":"))
    print(f"{added} configurations from {len(part['workloads'])} cases merged into {out_path}")


if __name__ == "__main__":
    main(sys.argv)
