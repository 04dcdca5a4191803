#!/usr/bin/env python3
"""Kernel Tuner as a peer of `liftc bench`: tunes a hand-written OpenCL kernel
of bench/reference/ (the "tune a hand-written kernel" baseline) over the
work-group shape and thread coarsening, on one OpenCL device through PyOpenCL,
and runs the best configuration once more to hand its output back.

    kernel_tuner_peer.py --kernel bench/reference/jacobi2d_5pt.cl --name jacobi2d_5pt
                         --sizes N=512,M=512 [--input in.bin]... [--output out.bin]
                         [--device-name NAME] [--iterations 7] [--quick]

Sizes are given outermost first (as the kernels take them); the inputs are
raw little-endian float32 grids, row-major, in the kernel's argument order
(random ones in [-1, 1) when none are given). The result is one JSON line on
stdout: the best configuration, its time (Kernel Tuner's mean over
--iterations runs, from OpenCL events), output elements per second, the
number of configurations tried and the wall time of the tuning. Diagnostics
go to stderr; exit status 0 on success, 2 on bad arguments or missing
packages (the message says which), 1 on other failures.

The kernels follow bench/reference/README.md: `NAME(inputs..., out, sizes...)`,
one work-item per output point, NDRange innermost dimension first, and
`get_global_id` as the only index source. Coarsening is applied by source
transformation, the way a Kernel Tuner user writes it with a define: the
kernel body becomes a function of its global ids, and a new kernel computes
`coarsen_x` consecutive points along the innermost dimension per work-item.
"""
import argparse
import json
import re
import sys
import time


def fail(message, status=1):
    print(f"kernel_tuner_peer: {message}", file=sys.stderr)
    sys.exit(status)


try:
    import numpy as np
    import pyopencl as cl
    import kernel_tuner
except ImportError as e:  # the caller reports it and leaves the rows out
    fail(f"missing Python package ({e.name}): pip install kernel_tuner pyopencl", 2)

SIGNATURE = re.compile(r"__kernel\s+void\s+(\w+)\s*\(([^)]*)\)\s*\{")


def coarsened_source(source, name):
    """The kernel `name` computing coarsen_x consecutive points along dimension 0.

    The original kernel becomes `NAME_point`, with get_global_id(d) replaced
    by its extra parameters; returning early (outside the grid) skips only
    that point. coarsen_x is defined by Kernel Tuner from the tuning
    parameters.
    """
    match = next((m for m in SIGNATURE.finditer(source) if m.group(1) == name), None)
    if match is None:
        fail(f"no '__kernel void {name}(...)' in the kernel source", 2)
    params = match.group(2)
    names = [re.findall(r"\w+", p)[-1] for p in params.split(",")]
    head = source[: match.start()]
    body = source[match.end():]
    point = (f"static inline void {name}_point(const size_t liftcc_g0, const size_t liftcc_g1, "
             f"const size_t liftcc_g2, {params}) {{")
    return (head + "#define get_global_id(d) ((d) == 0 ? liftcc_g0 : (d) == 1 ? liftcc_g1 : liftcc_g2)\n" + point
            + body + "\n#undef get_global_id\n"
            + f"__kernel void {name}({params}) {{\n"
            + "  for (int c = 0; c < coarsen_x; ++c)\n"
            + f"    {name}_point(get_global_id(0) * coarsen_x + c, get_global_id(1), get_global_id(2), "
            + ", ".join(names) + ");\n}\n")


def find_device(name):
    for p, platform in enumerate(cl.get_platforms()):
        for d, device in enumerate(platform.get_devices()):
            if name is None or device.name == name or name in device.name:
                return p, d, device.name
    fail(f"no OpenCL device named '{name}' (PyOpenCL sees: "
         + ", ".join(dev.name for pl in cl.get_platforms() for dev in pl.get_devices()) + ")", 2)


def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        key, _, value = part.partition("=")
        if not key or not value.isdigit() or int(value) < 1:
            fail(f"bad --sizes entry '{part}' (expected NAME=positive integer)", 2)
        sizes.append((key, int(value)))
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--sizes", required=True)
    ap.add_argument("--input", action="append", default=[])
    ap.add_argument("--inputs", type=int, default=1, help="number of input grids when no --input is given")
    ap.add_argument("--output")
    ap.add_argument("--device-name")
    ap.add_argument("--iterations", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="a small space (for tests)")
    args = ap.parse_args()

    sizes = parse_sizes(args.sizes)
    dims = len(sizes)
    if not 1 <= dims <= 3:
        fail("1 to 3 sizes expected", 2)
    extents = [v for _, v in sizes]
    count = int(np.prod(extents))
    if args.input:
        inputs = []
        for path in args.input:
            grid = np.fromfile(path, dtype="<f4")
            if grid.size != count:
                fail(f"{path}: {grid.size} floats, expected {count}", 2)
            inputs.append(grid.astype(np.float32))
    else:
        rng = np.random.default_rng(1)
        inputs = [rng.uniform(-1, 1, count).astype(np.float32) for _ in range(args.inputs)]
    try:
        with open(args.kernel) as f:
            source = f.read()
    except OSError as e:
        fail(f"cannot read the kernel: {e}", 2)
    platform, device, device_name = find_device(args.device_name)

    out = np.zeros(count, dtype=np.float32)
    arguments = inputs + [out] + [np.int32(v) for v in extents]
    problem_size = tuple(reversed(extents))  # innermost first, as the NDRange
    # Work-group shapes of 16 to 1024 work-items over the two innermost
    # dimensions, times coarsening along the innermost one: 66 configurations
    # in 2D/3D, 21 in 1D (--quick: 10 and 4).
    shapes = [16, 32, 64, 128, 256] if not args.quick else [4, 16, 64]
    if dims == 1:
        shapes = [16, 32, 64, 128, 256, 512, 1024] if not args.quick else [16, 64]
    tune_params = {"block_size_x": shapes, "coarsen_x": [1, 2, 4] if not args.quick else [1, 2]}
    if dims >= 2:
        tune_params["block_size_y"] = [1, 2, 4, 8, 16] if not args.quick else [1, 4]
    restrictions = ["16 <= block_size_x * block_size_y <= 1024" if dims >= 2 else "16 <= block_size_x <= 1024"]
    max_wg = cl.get_platforms()[platform].get_devices()[device].max_work_group_size
    restrictions.append(f"block_size_x * {'block_size_y' if dims >= 2 else '1'} <= {max_wg}")

    # The answer every configuration is checked against: the hand-written
    # kernel itself (liftc bench verifies that one against the interpreter).
    plain = kernel_tuner.run_kernel(args.name, source, problem_size, arguments,
                                    {"block_size_x": 16, "block_size_y": 1} if dims >= 2 else {"block_size_x": 16},
                                    lang="OpenCL", platform=platform, device=device, quiet=True)
    expected = plain[len(inputs)]
    answer = [None] * len(inputs) + [expected] + [None] * len(extents)

    coarse = coarsened_source(source, args.name)
    start = time.perf_counter()
    results, env = kernel_tuner.tune_kernel(
        args.name, coarse, problem_size, arguments, tune_params, lang="OpenCL", platform=platform,
        device=device, grid_div_x=["block_size_x", "coarsen_x"], restrictions=restrictions, answer=answer,
        atol=1e-5, iterations=args.iterations, strategy="brute_force", quiet=True, verbose=False)
    tuning_seconds = time.perf_counter() - start
    timed = [r for r in results if isinstance(r.get("time"), float)]
    if not timed:
        fail("no configuration ran")
    best = min(timed, key=lambda r: r["time"])
    config = {k: best[k] for k in tune_params}

    if args.output:
        final = kernel_tuner.run_kernel(args.name, coarse, problem_size, arguments, config, lang="OpenCL",
                                        platform=platform, device=device, grid_div_x=["block_size_x", "coarsen_x"],
                                        quiet=True)
        final[len(inputs)].astype("<f4").tofile(args.output)

    best_ns = best["time"] * 1e6  # Kernel Tuner reports milliseconds
    print(json.dumps({
        "peer": "kernel_tuner", "kernelTunerVersion": kernel_tuner.__version__, "device": device_name,
        "kernel": args.name, "sizes": dict(sizes), "best": config, "bestNs": best_ns,
        "elementsPerSecond": count / (best_ns * 1e-9), "configurations": len(timed),
        "tuningSeconds": tuning_seconds,
    }))


if __name__ == "__main__":
    main()
