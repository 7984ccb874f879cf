#!/usr/bin/env python3
"""The tuner's search against a long uniform random search of the same space, from ground truths.

usage: bench/search_vs_random.py SEARCH.json RANDOM.json [SEARCH.json RANDOM.json]...

Each pair is one case measured in one call: SEARCH from `family_bench --search N` (configurations in
the order the tuner measured them), RANDOM from `family_bench --sample M` (the default configuration,
then M drawn uniformly). The best known is the faster of the two bests; the table gives how many of
each's measurements it took to come within 3% of it (none: never within the run).
"""
import json
import sys

WITHIN = 1.03


def measured(path):
    w = json.load(open(path))["workloads"][0]
    return w, [c["measurement"]["median_us"] for c in w["configs"] if c["measurement"]["status"] == "ok"]


def first_within(times, best):
    return next((i + 1 for i, t in enumerate(times) if t <= WITHIN * best), None)


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.exit(__doc__)
    print("| case | search: measured | its best µs | random: measured | its best µs | search's best / best known "
          "| search: measurements to within 3% | random: measurements to within 3% |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    counts = []
    for search_path, random_path in zip(argv[1::2], argv[2::2]):
        w, search = measured(search_path)
        _, rand = measured(random_path)
        best = min(min(search), min(rand))
        s, r = first_within(search, best), first_within(rand, best)
        counts.append(s if s is not None else float("inf"))
        problem = json.dumps(w.get("problem"), sort_keys=True)
        print(f"| {w['workload']} {w['dtype']} {problem} | {len(search)} | {min(search):.2f} | {len(rand)} | {min(rand):.2f} "
              f"| {min(search) / best:.3f} | {s if s else 'not within ' + str(len(search))} "
              f"| {r if r else 'not within ' + str(len(rand))} |")
    counts.sort()
    mid = len(counts) // 2
    median = counts[mid] if len(counts) % 2 else (counts[mid - 1] + counts[mid]) / 2
    print(f"\nMedian measurements for the search to come within 3% of the best known: {median}.")


if __name__ == "__main__":
    main(sys.argv)
