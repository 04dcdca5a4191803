#!/usr/bin/env python3
"""Checks that a sharded-and-merged exploration equals an unsharded one.

    compare_explorations.py MERGED_DIR UNSHARDED_DIR [--strict-best]

Both are `liftc explore --out` directories of the same program, sizes and
device. They must hold the same configurations (store keys) with the same
outcomes (ok / wrong / failed: verification is deterministic), and the best
kernel of each (best/**/launch.json) must be the same configuration, and the
merged best the fastest of the shards' best kernels (shards/*/best). The two
runs time every kernel separately, so when two configurations are within
timing noise of each other (10%, as timed by the unsharded run) either may come
out best; that case is reported and accepted. A larger gap means the two runs'
timings disagree (on a loaded machine they do, by tens of percent at these
kernel times): it is printed as a NOTE, and is a failure with --strict-best
(for a quiet machine or a GPU). Every other difference fails.
Exit status 0 when they agree, 1 otherwise.
"""
import json
import pathlib
import sys

NOISE = 0.10


def store(root):
    # The store itself, not the shards' copies (explore.sbatch keeps them
    # under shards/) nor anything under best/.
    files = [p for p in pathlib.Path(root).rglob("*.jsonl")
             if p.relative_to(root).parts[0] not in ("best", "shards", "logs")]
    if len(files) != 1:
        sys.exit(f"{root}: expected one result store (*.jsonl), found {len(files)}")
    records = {}
    for line in files[0].read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            records.setdefault(r["key"], r)  # first record of a key wins, as in liftc merge
    return files[0].relative_to(root), records


def best(root):
    launches = list(pathlib.Path(root, "best").rglob("launch.json"))
    if len(launches) != 1:
        sys.exit(f"{root}: expected one best kernel (best/**/launch.json), found {len(launches)}")
    return json.loads(launches[0].read_text())


def judge_gap(slower, faster, strict, problems, within, mismatch, note):
    """A timing `slower` than `faster`: within NOISE it is printed (`within`);
    beyond it, a problem (`mismatch`) with --strict-best, else a NOTE."""
    if slower <= faster * (1 + NOISE):
        print(within)
    elif strict:
        problems.append(mismatch)
    else:
        print(f"NOTE: {note}; --strict-best makes this a failure")


def main():
    args = [a for a in sys.argv[1:] if a != "--strict-best"]
    strict = "--strict-best" in sys.argv[1:]
    if len(args) != 2:
        sys.exit("usage: compare_explorations.py MERGED_DIR UNSHARDED_DIR [--strict-best]")
    merged_dir, unsharded_dir = args
    merged_path, merged = store(merged_dir)
    unsharded_path, unsharded = store(unsharded_dir)
    problems = []
    if merged_path != unsharded_path:
        problems.append(f"different stores: {merged_path} vs {unsharded_path}")
    if set(merged) != set(unsharded):
        problems.append(f"different configurations: {len(set(merged) - set(unsharded))} only sharded, "
                        f"{len(set(unsharded) - set(merged))} only unsharded")
    for key in sorted(set(merged) & set(unsharded)):
        if merged[key]["outcome"] != unsharded[key]["outcome"]:
            problems.append(f"{key}: {merged[key]['outcome']} sharded, {unsharded[key]['outcome']} unsharded")
    ok = [k for k, r in unsharded.items() if r["outcome"] == "ok"]
    if not ok:
        problems.append("no configuration ran correctly")
    b_merged, b_unsharded = best(merged_dir), best(unsharded_dir)
    # The merge keeps the fastest of the shards' best kernels: exactly.
    shard_bests = [json.loads(p.read_text()) for p in pathlib.Path(merged_dir, "shards").rglob("launch.json")]
    if shard_bests:
        fastest_shard_best = min(shard_bests, key=lambda launch: launch["medianNs"])
        if b_merged["key"] != fastest_shard_best["key"]:
            problems.append(f"the merged best {b_merged['key']} is not the fastest of the shards' best kernels "
                            f"({fastest_shard_best['key']}, {fastest_shard_best['medianNs']:.0f} ns)")
    # Against the store: each shard re-times its finalists in rounds and keeps
    # the best median of rounds, which can sit above another record's single
    # first timing, so the best is the store's fastest record up to noise.
    fastest_ns, fastest_key = min((r["medianNs"], k) for k, r in merged.items() if r["outcome"] == "ok")
    if b_merged["key"] != fastest_key:
        gap = (f"{b_merged['medianNs']:.0f} ns (its rounds) vs {fastest_ns:.0f} ns for {fastest_key} "
               f"(+{100 * (b_merged['medianNs'] / fastest_ns - 1):.1f}%)")
        judge_gap(b_merged["medianNs"], fastest_ns, strict, problems,
                  f"the merged best is the store's fastest record within timing noise: {gap}",
                  f"the merged best {b_merged['key']} is not the fastest record of the merged store: {gap}",
                  f"the merged best {b_merged['key']} is slower than the store's fastest record by more than "
                  f"{100 * NOISE:.0f}%: {gap}")
    print(f"configurations: {len(unsharded)} ({len(ok)} ok) in both")
    print(f"best, sharded + merged: {b_merged['key']} ({b_merged['medianNs']:.0f} ns)")
    print(f"best, unsharded:        {b_unsharded['key']} ({b_unsharded['medianNs']:.0f} ns)")
    if b_merged["key"] == b_unsharded["key"]:
        print("same best configuration")
    elif not problems:
        # Compare the two winners as the unsharded run timed them.
        a, b = unsharded[b_merged["key"]]["medianNs"], unsharded[b_unsharded["key"]]["medianNs"]
        gap = f"{a:.0f} vs {b:.0f} ns in the unsharded run (+{100 * (a / b - 1):.1f}%)"
        judge_gap(a, b, strict, problems, f"different winners within timing noise: {gap}",
                  f"different best configurations: {gap}",
                  f"different best configurations, {gap}: the two runs' timings disagree by more than "
                  f"{100 * NOISE:.0f}% (a shared or loaded machine)")
    for p in problems:
        print("mismatch:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
