#!/usr/bin/env python3
"""Bar chart of a `liftc bench --csv` table, after Figures 7/8 of the CGO'18
Lift stencil paper: one group of bars per benchmark, one bar per variant,
the height being the variant's performance relative to the hand-written
kernel (1.0 = as fast), and a marker for the roofline bound (the copy
kernel's bandwidth over the stencil's compulsory traffic) on the same scale.

    python3 bench/plot.py bench.csv bench.png [--title TEXT] [--linear]

Needs matplotlib (`pip install matplotlib`); liftc itself does not.
Rows that are not OK (wrong or failed kernels) are left out; a benchmark
without a hand-written kernel is plotted relative to its plain variant and
marked with '*'.
"""

import argparse
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def variant_label(variant):
    """One legend entry per kind of bar: an explored best is named by its
    configuration, which differs per benchmark."""
    return "explored best" if variant.startswith("explored") else variant


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="CSV written by liftc bench --csv")
    parser.add_argument("png", help="output image (PNG)")
    parser.add_argument("--title", default=None)
    parser.add_argument("--linear", action="store_true",
                        help="linear y axis (default logarithmic: roofline ratios can be 50x)")
    args = parser.parse_args(argv)

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot.py: matplotlib is not installed (pip install matplotlib)\n")
        return 2

    rows = load(args.csv)
    if not rows:
        sys.stderr.write("plot.py: no rows in %s\n" % args.csv)
        return 1

    examples = []  # in CSV order
    perf = {}  # example -> {variant: elements/s}
    roofline = {}
    sizes = {}
    for r in rows:
        if r.get("row_kind") == "copy":  # the copy roofline's candidates, not a benchmark
            continue
        ex = r["example"]
        if ex not in perf:
            examples.append(ex)
            perf[ex] = {}
            sizes[ex] = r["sizes"]
        roofline[ex] = float(r["roofline_elements_per_s"] or 0)
        if r["status"].lower() != "ok" or not r["elements_per_s"]:
            continue
        perf[ex][variant_label(r["variant"])] = float(r["elements_per_s"])

    # Variants: the hand-written one is the baseline (drawn as the 1.0 line),
    # everything else a bar, in order of first appearance.
    def is_reference(v):
        return v == "hand-written"

    variants = []
    for ex in examples:
        for v in perf[ex]:
            if not is_reference(v) and v not in variants:
                variants.append(v)

    baselines = {}
    starred = set()
    for ex in examples:
        ref = [v for v in perf[ex] if is_reference(v)]
        if ref:
            baselines[ex] = perf[ex][ref[0]]
        elif "plain" in perf[ex]:
            baselines[ex] = perf[ex]["plain"]
            starred.add(ex)
        elif perf[ex]:
            baselines[ex] = next(iter(perf[ex].values()))
            starred.add(ex)
    examples = [ex for ex in examples if ex in baselines]
    if not examples:
        sys.stderr.write("plot.py: no benchmark has a timed row\n")
        return 1

    n = len(variants)
    width = 0.8 / max(n, 1)
    fig, ax = plt.subplots(figsize=(min(16, max(8, 0.75 * len(examples) + 3)), 5))
    cmap = plt.get_cmap("tab10")
    for i, v in enumerate(variants):
        xs, ys = [], []
        for j, ex in enumerate(examples):
            if v in perf[ex]:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(perf[ex][v] / baselines[ex])
        ax.bar(xs, ys, width, label=v, color=cmap(i % 10), edgecolor="black", linewidth=0.4)
    # Roofline: a short horizontal bar over each group.
    for j, ex in enumerate(examples):
        if roofline[ex] > 0:
            y = roofline[ex] / baselines[ex]
            ax.hlines(y, j - 0.45, j + 0.45, colors="red", linewidth=2,
                      label="roofline (copy bandwidth)" if j == 0 else None)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1, label="hand-written = 1.0")
    ax.set_xticks(range(len(examples)))
    ax.set_xticklabels([ex + ("*" if ex in starred else "") for ex in examples], rotation=30, ha="right")
    ax.set_ylabel("performance relative to hand-written")
    if not args.linear:
        ax.set_yscale("log")
    device = rows[0].get("device", "")
    title = args.title or ("liftc bench on %s" % device)
    if starred:
        title += "\n(* no hand-written kernel: relative to plain)"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
