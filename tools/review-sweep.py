#!/usr/bin/env python3
"""Explore, export and run programs this project's examples do not cover, as a review does.

For each program of a built-in set (radius 1-4, 1D/2D/3D, every boundary, several
grids, stages, iterated and tuple states, double, an int mask, a scalar input; sizes
that no tile divides): `liftc explore` on the default OpenCL device for a short
budget, `liftc export` of the best kernel, a C driver generated from the exported
header (compiled with -Wall -Wextra -Werror) that runs it on random inputs, and
`liftc eval` on the same inputs: the two results must agree. Prints one line per
program; exits 1 if any disagrees or fails.

  tools/review-sweep.py [--liftc build/tools/liftc/liftc] [--budget 20s]
                        [--families local] [--work DIR] [NAME ...]

Needs a C compiler and the OpenCL ICD loader (PoCL here). Not part of the test
command: a sweep takes about 25 s a program.
"""
import argparse, glob, itertools, json, os, random, re, shutil, struct, subprocess, sys

SIZE_NAMES = {1: ["N"], 2: ["N", "M"], 3: ["O", "N", "M"]}
SCALARS = {"float": ("f", 4), "double": ("d", 8), "int": ("i", 4), "bool": ("B", 1)}


def grid(dim, scalar="float"):
    t = scalar
    for s in reversed(SIZE_NAMES[dim]):
        t = f"[{t}]{s}"
    return t


def star(dim, r):
    taps = [[0] * dim]
    for d in range(dim):
        for o in range(-r, r + 1):
            if o:
                off = [0] * dim
                off[d] = o
                taps.append(off)
    return taps


def box(dim, r):
    return [list(t) for t in itertools.product(range(-r, r + 1), repeat=dim)]


def weighted(taps, g="A"):
    w = [(i * 7) % 5 + 1 for i in range(len(taps))]
    terms = " + ".join(f"{wi}.0f * {g}" + "".join(f"[{o}]" for o in t) for wi, t in zip(w, taps))
    return f"return ({terms}) / {sum(w)}.0f;"


def stencil(name, grids, body, **extra):
    return {"op": "stencil", "name": name, "grids": grids, "body": body, **extra}


def iterate(n, body, over="A", param="g"):
    return {"op": "iterate", "n": n, "f": {"lambda": [param], "body": body}, "in": {"param": over}}


def program(dim, inputs, body):
    return {"liftcc": 1, "sizes": [{"name": s, "min": 5} for s in SIZE_NAMES[dim]], "inputs": inputs, "body": body}


def wave(n, init):
    step = {"apply": {"lambda": ["u", "v"], "body": {"op": "tuple", "in": [
        stencil("wave", {"u": "clamp", "v": "pointwise"}, "return 2.0f*u[0] - v[0] + 0.2f*(u[-1] - 2.0f*u[0] + u[1]);"),
        {"param": "u"}]}},
        "args": [{"op": "get", "index": i, "in": {"param": "s"}} for i in (0, 1)]}
    return {"op": "get", "index": 0, "in": {"op": "iterate", "n": n, "f": {"lambda": ["s"], "body": step}, "in": init}}


def programs():
    A = {d: {"name": "A", "type": grid(d)} for d in (1, 2, 3)}
    B = {d: {"name": "B", "type": grid(d)} for d in (1, 2, 3)}
    P = {}

    def add(name, dim, sizes, inputs, body):
        P[name] = (program(dim, inputs, body), dict(zip(SIZE_NAMES[dim], sizes)))

    add("r4_1d_mirror", 1, [997], [A[1]], stencil("s", {"A": "mirror"}, weighted(star(1, 4))))
    add("r3_2d_wrap_star", 2, [61, 67], [A[2]], stencil("s", {"A": "wrap"}, weighted(star(2, 3))))
    add("r2_2d_constant_box", 2, [53, 71], [A[2]], stencil("s", {"A": {"constant": 1.5}}, weighted(box(2, 2))))
    add("r4_2d_mirror_box", 2, [29, 31], [A[2]], stencil("s", {"A": "mirror"}, weighted(box(2, 4))))
    add("r4_3d_clamp_star", 3, [19, 23, 29], [A[3]], stencil("s", {"A": "clamp"}, weighted(star(3, 4))))
    add("r1_3d_wrap_box", 3, [17, 13, 31], [A[3]], stencil("s", {"A": "wrap"}, weighted(box(3, 1))))
    add("r2_3d_mirror_star", 3, [21, 19, 37], [A[3]], stencil("s", {"A": "mirror"}, weighted(star(3, 2))))
    add("three_grids_2d", 2, [47, 59], [A[2], B[2], {"name": "C", "type": grid(2)}],
        stencil("s", {"A": "clamp", "B": "pointwise", "C": "mirror"},
                "return 0.5f * (A[-2][0] + A[2][0] + A[0][-2] + A[0][2]) * B[0][0] + 0.25f * (C[1][1] - C[-1][-1]);"))
    add("two_stages_2d", 2, [43, 57], [A[2]], {"apply": {"lambda": ["p"], "body": stencil(
        "d2", {"p": "mirror"}, "return p[-1][0] + p[1][0] + p[0][-1] + p[0][1] - 4.0f * p[0][0];")},
        "args": [stencil("avg", {"A": "wrap"}, weighted(box(2, 1)))]})
    first = stencil("s1", {"A": "clamp"}, "return 0.5f * (A[-1][0] + A[1][0]);")
    second = {"apply": {"lambda": ["p"], "body": stencil("s2", {"p": "mirror"}, "return 0.5f * (p[0][-2] + p[0][2]);")},
              "args": [first]}
    add("three_stages_2d", 2, [43, 37], [A[2]], {"apply": {"lambda": ["q"], "body": stencil(
        "s3", {"q": {"constant": 0.5}}, "return q[-1][-1] + q[1][1] - q[0][0];")}, "args": [second]})
    add("two_outputs_2d", 2, [41, 53], [A[2]], {"op": "tuple", "in": [
        stencil("lap", {"A": "mirror"}, "return A[-1][0] + A[1][0] + A[0][-1] + A[0][1] - 4.0f * A[0][0];"),
        stencil("grad", {"A": "wrap"}, "return A[0][2] - A[0][-2] + A[2][0] - A[-2][0];")]})
    add("iterated_1d_wrap", 1, [1009], [A[1]], iterate(9, stencil("h", {"g": "wrap"}, weighted(star(1, 1), "g"))))
    add("iterated_2d_constant_r2", 2, [37, 41], [A[2]],
        iterate(7, stencil("h", {"g": {"constant": 0}}, weighted(star(2, 2), "g"))))
    add("iterated_2d_clamp_r4", 2, [45, 47], [A[2]], iterate(4, stencil("h", {"g": "clamp"}, weighted(star(2, 4), "g"))))
    add("iterated_3d_mirror", 3, [15, 17, 33], [A[3]], iterate(5, stencil("h", {"g": "mirror"}, weighted(star(3, 1), "g"))))
    add("iterated_with_source_2d", 2, [31, 47], [A[2], B[2]], iterate(5, stencil(
        "h", {"g": "mirror", "B": "pointwise"},
        "return 0.2f * (g[-1][0] + g[1][0] + g[0][-1] + g[0][1] + g[0][0]) + 0.05f * B[0][0];")))
    add("wave_1d_at_rest", 1, [997], [A[1]], wave(6, {"op": "tuple", "in": [{"param": "A"}, {"param": "A"}]}))
    add("wave_1d_two_inputs", 1, [1013], [A[1], B[1]], wave(7, {"op": "tuple", "in": [{"param": "A"}, {"param": "B"}]}))
    add("double_2d", 2, [33, 35], [{"name": "A", "type": grid(2, "double")}],
        stencil("s", {"A": "clamp"}, "return 0.2 * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1] + A[0][0]);"))
    add("int_mask_2d", 2, [39, 45], [{"name": "K", "type": grid(2, "int")}, A[2]], stencil(
        "s", {"K": "pointwise", "A": "clamp"},
        "if (K[0][0] > 0) return A[0][0]; return 0.25f * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1]);", returns="float"))
    add("scalar_input_2d", 2, [31, 43], [A[2], {"name": "k", "type": "float"}], stencil(
        "s", {"A": "mirror"}, "return A[0][0] + k * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1] - 4.0f * A[0][0]);",
        scalars=["k"]))
    return P


def scalar_and_count(type_text, sizes):
    m = re.match(r"^\[+(\w+)\](.*)$", type_text)
    if not m:
        return type_text, 1
    count = 1
    for d in re.findall(r"(\w+)\]?", m.group(2)):
        count *= int(d) if d.isdigit() else sizes[d]
    return m.group(1), count


DRIVER = r'''#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include "k_opencl.h"
#define CHECK(e) do { cl_int e_ = (e); if (e_ != CL_SUCCESS) { fprintf(stderr, "OpenCL error %d, line %d\n", (int)e_, __LINE__); exit(2); } } while (0)
static cl_context context;
static cl_mem load(const char *path, size_t bytes) {
  FILE *f = fopen(path, "rb"); char *p = malloc(bytes); size_t n = f ? fread(p, 1, bytes, f) : 0;
  if (f) fclose(f);
  if (n != bytes) { fprintf(stderr, "%s: short\n", path); exit(2); }
  cl_int error; cl_mem m = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, p, &error);
  CHECK(error); free(p); return m;
}
static cl_mem scratch(size_t bytes) {
  cl_int error; cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &error); CHECK(error); return m;
}
static void save(cl_command_queue q, cl_mem m, size_t bytes, FILE *to) {
  char *p = malloc(bytes); CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL));
  fwrite(p, 1, bytes, to); free(p);
}
int main(void) {
  cl_platform_id platform; cl_device_id device; cl_int error;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &error); CHECK(error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error); CHECK(error);
  k_opencl_program *program; char log[8192];
  k_opencl_status status = k_opencl_build(context, device, &program, log, sizeof log);
  if (status != K_OPENCL_OK) { fprintf(stderr, "build: %s\n%s\n", k_opencl_status_string(status), log); return 3; }
@BUFFERS@
  cl_event done;
  status = k_opencl_launch(program, queue, @ARGS@, &done);
  if (status != K_OPENCL_OK) { fprintf(stderr, "launch: %s\n", k_opencl_status_string(status)); return 4; }
  CHECK(clWaitForEvents(1, &done));
  FILE *result = fopen("@RESULT@", "wb");
@SAVES@
  fclose(result);
  k_opencl_release(program);
  return 0;
}
'''


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def sweep_one(liftc, work, prog, sizes, budget, families):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    path = os.path.join(work, "program.json")
    json.dump(prog, open(path, "w"))
    size_arg = ",".join(f"{k}={v}" for k, v in sizes.items())
    explore = [liftc, "explore", path, "--size", size_arg, "--budget", budget, "--out", f"{work}/results", "--quiet"]
    if families:
        explore += ["--families", families]
    r = run(explore)
    if r.returncode:
        return False, "explore: " + r.stderr.strip()[-300:]
    best = glob.glob(f"{work}/results/best/*/*/*")
    r = run([liftc, "export", best[0], "--out", f"{work}/exported", "--name", "k"])
    if r.returncode:
        return False, "export: " + r.stderr.strip()[-300:]
    header = open(f"{work}/exported/k_opencl.h").read()
    signature = re.search(r"k_opencl_launch\(k_opencl_program \*program, cl_command_queue queue, (.*), cl_event \*done\);",
                          header).group(1)
    inputs = {i["name"]: i["type"] for i in prog["inputs"]}
    rng = random.Random(7)
    buffers, args, saves, eval_inputs = [], [], [], []
    for declaration in signature.split(","):
        ctype, name = declaration.strip().rsplit(" ", 1)
        program_name = name.rstrip("_") if name.rstrip("_") in inputs else name
        if ctype == "int64_t":
            args.append(str(sizes[name.rstrip("_")]))
            continue
        macro = f"K_OPENCL_{program_name.upper()}_BYTES"
        if program_name in inputs:
            scalar, count = scalar_and_count(inputs[program_name], sizes)
            code, _ = SCALARS[scalar]
            values = [rng.uniform(-1, 1) if scalar in ("float", "double") else rng.randint(0 if scalar == "bool" else -5, 1 if scalar == "bool" else 5)
                      for _ in range(count)]
            data = f"{work}/{program_name}.bin"
            open(data, "wb").write(struct.pack(f"<{count}{code}", *values))
            eval_inputs += ["--input", f"{program_name}={data}"]
            buffers.append(f'  cl_mem {name} = load("{data}", {macro});')
        else:
            buffers.append(f"  cl_mem {name} = scratch({macro});")
            saves.append(f"  save(queue, {name}, {macro}, result);")
        args.append(name)
    driver = (DRIVER.replace("@BUFFERS@", "\n".join(buffers)).replace("@ARGS@", ", ".join(args))
              .replace("@SAVES@", "\n".join(saves)).replace("@RESULT@", f"{work}/got.bin"))
    open(f"{work}/driver.c", "w").write(driver)
    r = run(["cc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{work}/exported", f"{work}/driver.c",
             f"{work}/exported/k_opencl.c", "-o", f"{work}/driver", "-lOpenCL"])
    if r.returncode:
        return False, "cc: " + r.stderr.strip()[-300:]
    r = run([f"{work}/driver"])
    if r.returncode:
        return False, "driver: " + (r.stdout + r.stderr).strip()[-300:]
    r = run([liftc, "eval", path, "--size", size_arg, *eval_inputs, "--output", f"{work}/expected.bin"])
    if r.returncode:
        return False, "eval: " + r.stderr.strip()[-300:]
    got, expected = open(f"{work}/got.bin", "rb").read(), open(f"{work}/expected.bin", "rb").read()
    if len(got) != len(expected):
        return False, f"{len(got)} bytes from the driver, {len(expected)} from eval"
    result_kind = "double" if "double" in json.dumps(prog["inputs"]) else "float"
    code, width = SCALARS[result_kind]
    n = len(got) // width
    a, b = struct.unpack(f"<{n}{code}", got), struct.unpack(f"<{n}{code}", expected)
    bad = [i for i in range(n) if not (abs(a[i] - b[i]) <= 1e-3 * max(1.0, abs(b[i])) or (a[i] != a[i] and b[i] != b[i]))]
    launch = json.load(open(f"{best[0]}/launch.json"))
    strategy = launch.get("strategy") or json.dumps(launch.get("configuration", {}))[:120]
    if bad:
        return False, f"{len(bad)} of {n} values differ (first at {bad[0]}: {a[bad[0]]} vs {b[bad[0]]}); best: {strategy}"
    return True, f"{n} values agree; best: {strategy}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--liftc", default=os.path.join(os.path.dirname(__file__), "..", "build", "tools", "liftc", "liftc"))
    parser.add_argument("--budget", default="20s")
    parser.add_argument("--families", default="")
    parser.add_argument("--work", default="/tmp/liftcc-review-sweep")
    parser.add_argument("names", nargs="*")
    options = parser.parse_args()
    failed = 0
    for name, (prog, sizes) in programs().items():
        if options.names and name not in options.names:
            continue
        ok, line = sweep_one(os.path.abspath(options.liftc), os.path.join(options.work, name), prog, sizes,
                             options.budget, options.families)
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {line}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
