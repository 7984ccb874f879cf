#!/usr/bin/env python3
"""How many measurements ktuned's search took, on the GPU, to come within 3% of the best known
configuration, for spaces too large to measure whole (the graph families').

The best known configuration of a case is the fastest of a uniform sample of its space
(family_bench --sample N) and of everything the search measured (family_bench --search B, the
tuner as ktuned runs it: first model, SAAKE walk, ensemble). The search's count is the position
of the first configuration within the tolerance in the order it measured them (a configuration
measured again, as a finalist, counts once); a search that never got there counts as B + 1.
Also per case: the first cost model's Spearman rank correlation over the sample (its
`predicted_us`, recorded by family_bench) and the search's pick over the sample's best.

With --by-sample the sample is the whole space, measured in the same call as the search: each
configuration the search measured counts at its time in the sample and the best known is the
sample's best, so that the count asks whether the search found a configuration within 3% of the
best, not whether its own measurement of it drew under the whole space's fastest draw (the same
configuration's medians differ by 3-10% between two measurements of one run on small graphs).

usage: measured_search_eval.py --sample SAMPLE.json... --search SEARCH.json... [--known OTHER.json...]
                              [--tolerance 0.03] [--by-sample] [--md OUT.md]
(each a family_bench <family>_ground_truth.json; a case is evaluated where some sample and some
search hold it, whichever files and families they are; each option repeats. --known adds what
other runs measured, e.g. an earlier search, to the best known)
"""
import argparse
import json
import statistics


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    mean = (n + 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    va = sum((x - mean) ** 2 for x in ra)
    vb = sum((y - mean) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va > 0 and vb > 0 else 0.0


def ok_us(config):
    m = config.get("measurement") or {}
    return m.get("median_us") if m.get("status") == "ok" else None


def case_key(w):
    return (w["workload"], json.dumps(w.get("problem"), sort_keys=True), w["dtype"])


def budget_of(meta):
    words = meta["command"].split()
    return int(words[words.index("--search") + 1])


def family_of(truth):
    return truth["meta"]["command"].split()[2]  # "family_bench --family NAME ..."


def load_cases(paths):
    """Every case of the files, by (family, workload, problem, dtype), with its file's meta."""
    cases = {}
    for path in paths:
        with open(path) as f:
            truth = json.load(f)
        for w in truth["workloads"]:
            cases[(family_of(truth),) + case_key(w)] = (w, truth["meta"])
    return cases


def known_us(known, key):
    """The fastest verified time other runs measured for the case (infinity if none)."""
    return min((t for w, _ in known.get(key, []) for t in map(ok_us, w["configs"]) if t is not None),
               default=float("inf"))


def evaluate(samples, searches, tolerance, known=None, by_sample=False):
    rows = []
    for key, (w, _) in samples.items():
        if key not in searches:
            continue
        searched, meta = searches[key]
        budget = budget_of(meta)
        measured = [(c["config"], ok_us(c), c.get("predicted_us")) for c in w["configs"]]
        measured = [m for m in measured if m[1] is not None]
        order, seen = [], set()
        for c in searched["configs"]:
            if c["config"] not in seen:
                seen.add(c["config"])
                order.append((c["config"], ok_us(c)))
        sample_best = min(t for _, t, _ in measured)
        if by_sample:
            sample_us = {c: t for c, t, _ in measured}
            missing = [c for c, t in order if t is not None and c not in sample_us]
            if missing:
                raise SystemExit(f"--by-sample: {w['workload']}'s search measured {missing[0]}, which the sample lacks")
            order = [(c, sample_us.get(c) if t is not None else None) for c, t in order]
        times = [t for _, t in order if t is not None]
        best_known = sample_best if by_sample else min([sample_best, known_us(known or {}, key)] + times)
        count = budget + 1
        best_so_far = float("inf")
        for i, (_, t) in enumerate(order[:budget], start=1):
            if t is not None:
                best_so_far = min(best_so_far, t)
            if best_so_far <= best_known * (1 + tolerance):
                count = i
                break
        predicted = [p for _, _, p in measured]
        rows.append({
            "family": key[0], "workload": w["workload"], "dtype": w["dtype"], "sample": len(measured),
            "first_model_spearman": spearman(predicted, [t for _, t, _ in measured]) if all(
                p is not None and p > 0 for p in predicted) else None,
            "sample_best_us": sample_best, "search_best_us": min(times) if times else None,
            "measurements_to_tolerance": count, "budget": budget,
        })
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", action="append", required=True)
    ap.add_argument("--search", action="append", required=True)
    ap.add_argument("--known", action="append", default=[])
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--by-sample", action="store_true")
    ap.add_argument("--md")
    a = ap.parse_args()
    known = {}
    for path in a.known:
        for key, case in load_cases([path]).items():
            known.setdefault(key, []).append(case)
    rows = evaluate(load_cases(a.sample), load_cases(a.search), a.tolerance, known, a.by_sample)
    if not rows:
        raise SystemExit("no case appears in both a sample and a search")
    lines = [f"| family | graph | dtype | sampled | first-model ρ | sample best µs | search best µs | "
             f"search / sample best | measurements to {a.tolerance:.0%} |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        rho = "-" if r["first_model_spearman"] is None else f"{r['first_model_spearman']:.2f}"
        sb = r["search_best_us"]
        ratio = "-" if sb is None else f"{sb / r['sample_best_us']:.3f}"
        count = r["measurements_to_tolerance"]
        lines.append(f"| {r['family']} | {r['workload']} | {r['dtype']} | {r['sample']} | {rho} | "
                     f"{r['sample_best_us']:.1f} | {'-' if sb is None else f'{sb:.1f}'} | {ratio} | "
                     f"{count if count <= r['budget'] else '>' + str(r['budget'])} |")
    counts = [r["measurements_to_tolerance"] for r in rows]
    within = sum(c <= r["budget"] for c, r in zip(counts, rows))
    lines.append("")
    lines.append(f"{len(rows)} cases: median {statistics.median(counts):g} measurements to within "
                 f"{a.tolerance:.0%} of the best known; {within} of {len(rows)} within the budget.")
    text = "\n".join(lines) + "\n"
    if a.md:
        with open(a.md, "w") as f:
            f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
