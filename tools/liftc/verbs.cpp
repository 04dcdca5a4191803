#include "tools/liftc/verbs.h"

namespace liftcc::cli {

std::vector<Verb> allVerbs() {
  return {
      {"check",
       "type-check a program and print it with its types",
       "usage: liftc check PROGRAM.json [--size N=64,...]\n"
       "\n"
       "Reads a liftcc JSON program, infers and checks every type, and prints the\n"
       "typed program. Without --size the check is symbolic (e.g. split(4) of\n"
       "[float]N is rejected unless N is provably divisible by 4); with --size the\n"
       "program is specialised to the given sizes first.\n",
       {{"size"}, {}},
       runCheck},
      {"eval",
       "run a program in the reference interpreter",
       "usage: liftc eval PROGRAM.json --size N=64[,M=32...] [--input NAME=random|NAME=FILE]...\n"
       "                  [--seed S] [--output FILE] [--print]\n"
       "\n"
       "Evaluates the program on concrete inputs with the reference interpreter.\n"
       "Inputs default to uniform random values in [-1, 1) drawn from --seed\n"
       "(default 1); FILE is raw little-endian binary in row-major order (float:\n"
       "4 bytes, double: 8, int: 4, bool: 1). --output writes the result in the\n"
       "same format; --print prints every value. A one-line summary of the result\n"
       "(type, count, min, max, sum) is always printed.\n",
       {{"size", "input", "seed", "output"}, {"print"}},
       runEval},
      {"compile",
       "generate an OpenCL C or CUDA C kernel from a low-level program",
       "usage: liftc compile PROGRAM.json [--target opencl|cuda] [-o|--output FILE] [--metadata FILE.json]\n"
       "                     [--size N=64,...] [--local X[,Y[,Z]]] [--kernel-name NAME]\n"
       "                     [--opt plain|tiled|local|coarsened|stream|streamLocal|timeTiledLocal|timeTiledStream] [--tile K|X,Y[,Z]]\n"
       "                     [--coarsen X[,Y[,Z]]] [--window private|global] [--vector W]\n"
       "                     [--ptx FILE.ptx [--arch sm_90]]\n"
       "                     [--specialise-boundaries [--noinline-border] [--split-border]] [--mapping D[,D[,D]]]\n"
       "                     [--fast-math none|mad|reassociate|relaxed] [--div-to-mul] [--fuse] [--time-tile T]\n"
       "       liftc compile PROGRAM.json --size N=64,... --strategy \"TEXT\" [-o FILE] [--metadata FILE.json] ...\n"
       "\n"
       "The program must be low-level: maps lowered to mapGlb, mapWrg/mapLcl or\n"
       "mapSeq, reductions to reduceSeq. Data-layout primitives become index\n"
       "arithmetic; only user-function results are written to memory. Without\n"
       "--size the kernel takes the sizes as int arguments; with --size they are\n"
       "folded into the index expressions. --metadata writes the launch\n"
       "configuration (arguments, NDRange as expressions of the sizes) as JSON.\n"
       "--opt plain|tiled|local|coarsened|stream lowers a high-level program first\n"
       "with that recipe (tiled, local and coarsened need --size; --tile K outputs per\n"
       "tile and dimension, default 8, or --tile X,Y[,Z] per dimension, x first).\n"
       "Tiles need not divide the extents: the last one is partial (guarded\n"
       "writes). coarsened: each work-item computes --coarsen X[,Y[,Z]] outputs\n"
       "along x, y, z (default 8,1,1), reading its window from a private copy (--window\n"
       "private, the default) or from global memory (--window global). stream\n"
       "marches the outermost dimension of a 2D/3D stencil with slideSeq, the\n"
       "window in registers. --vector W (2, 4, 8 or 16; plain, coarsened, streamLocal)\n"
       "vectorises the innermost dimension: W consecutive outputs along x as one\n"
       "vector, each tap one vloadN where its lanes are consecutive in memory\n"
       "(W must divide the x extent, and the x coarsening factor).\n"
       "With --target cuda, --ptx also compiles the kernel\n"
       "with NVRTC for --arch (default sm_90) and writes the PTX.\n"
       "--specialise-boundaries gives work-groups away from the borders code\n"
       "without bounds guard and without clamp/mirror/wrap/constant-pad\n"
       "arithmetic (the metadata's 'interior' has the margins); where --local\n"
       "divides the extent, the guard is dropped everywhere and the kernel\n"
       "requires that work-group size (reqd_work_group_size). --noinline-border\n"
       "(OpenCL): the border code calls never-inlined copies of the user\n"
       "functions, so that the device compiler cannot merge it with the interior\n"
       "code into one whose loads are all gathers (docs/codegen.md, Boundary specialisation).\n"
       "--split-border: in the work-groups at the border, each work-item whose\n"
       "own indices are interior runs the interior code.\n"
       "--fast-math mad|relaxed builds the kernel with -cl-mad-enable or\n"
       "-cl-fast-relaxed-math (CUDA: --fmad=true or --use_fast_math), recorded as\n"
       "buildOptions in the metadata; --fast-math reassociate builds it exactly\n"
       "but regroups each sum of n >= 10 terms in user functions into chains of\n"
       "ceil(sqrt(n)) terms (Gaussian's 25 taps: five row sums); --div-to-mul writes divisions of user\n"
       "functions by floating constants as multiplications by the inverse (exact\n"
       "for powers of two, within 1.5 ulp otherwise).\n"
       "--mapping lists the recipe's map-nest dimensions (x innermost, y, z) in\n"
       "NDRange order: y,x puts x on NDRange dimension 1; dimensions left out run\n"
       "sequentially in each work-item (inner ones only: y alone is a 1D NDRange\n"
       "over rows). --fuse (a program with intermediate arrays, which are kernels\n"
       "of their own writing global temporaries): every intermediate computed by\n"
       "maps of scalar functions is recomputed by the kernels reading it instead\n"
       "(with --opt local into each tile's local memory, with --opt coarsened into\n"
       "each work-item's private window). --time-tile T (a program iterate(n, f, A)):\n"
       "one kernel computes T steps, f composed T times with the intermediate steps\n"
       "fused (their halos recomputed), launched n/T times; T must divide n.\n"
       "--strategy TEXT rebuilds exactly the kernel of a strategy as\n"
       "'liftc explore' and 'liftc best' print it (e.g. \"coarsen(x=8) ;\n"
       "privateWindow ; mapGlb(x,y) ; wg(32,4) ; specialise ; fastMath(relaxed)\",\n"
       "grammar in docs/rewriting.md); it replaces --opt and the other variant options,\n"
       "and --metadata then also records the strategy and its work-group shape.\n",
       {{"target", "output", "metadata", "size", "local", "kernel-name", "opt", "tile", "coarsen", "window", "vector",
         "ptx", "arch", "fast-math", "strategy", "mapping", "time-tile"},
        {"div-to-mul", "specialise-boundaries", "noinline-border", "split-border", "fuse"}},
       runCompile},
      {"run",
       "run a low-level program's kernel on an OpenCL device or CUDA GPU",
       "usage: liftc run PROGRAM.json --size N=64,... [--device SPEC] [--check] [--seed S] [--repeat R]\n"
       "                 [--local X[,Y[,Z]]] [--opt plain|tiled|local|coarsened|stream|streamLocal|timeTiledLocal|timeTiledStream]\n"
       "                 [--tile K|X,Y[,Z]]\n"
       "                 [--coarsen X[,Y[,Z]]] [--window private|global] [--vector W] [--target opencl|cuda]\n"
       "                 [--specialise-boundaries [--noinline-border] [--split-border]] [--mapping D[,D[,D]]]\n"
       "                 [--strategy TEXT]\n"
       "                 [--fast-math none|mad|reassociate|relaxed] [--div-to-mul] [--fuse] [--time-tile T]\n"
       "                 [--count-global-loads]\n"
       "\n"
       "Generates the OpenCL kernel, runs it on random inputs and prints the\n"
       "median kernel time (profiling events, after one warm-up run). --device\n"
       "is an index (\"0\"), \"platform:device\" or a substring of the device or\n"
       "platform name (default: the first device). --check compares the result\n"
       "with the reference interpreter and fails on a mismatch. --target cuda\n"
       "compiles the CUDA kernel with NVRTC and runs it through the CUDA driver\n"
       "(loaded at run time; --device is then the CUDA device index).\n"
       "--fast-math and --div-to-mul as for compile; --check then allows the error\n"
       "they permit (docs/codegen.md, Fast math). --vector, --mapping, --fuse, --time-tile and --strategy as for\n"
       "compile (the strategy's wg(...) is the launch's work-group shape).\n"
       "--count-global-loads instead runs the kernel once with every global read\n"
       "counted (vector loads count their lanes) and prints the global loads\n"
       "executed per output (docs/gpu.md); single-kernel programs only.\n",
       {{"size", "device", "seed", "repeat", "local", "opt", "tile", "coarsen", "window", "vector", "target",
         "fast-math", "strategy", "mapping", "time-tile"},
        {"check", "div-to-mul", "specialise-boundaries", "noinline-border", "split-border", "fuse",
         "count-global-loads"}},
       runRun},
      {"rewrite",
       "apply a rewrite rule at a location, or list where rules apply",
       "usage: liftc rewrite PROGRAM.json --list [--size N=64,...]\n"
       "       liftc rewrite PROGRAM.json --rule NAME [--at LOCATION] [--size N=64,...] [--json] [--expanded] [-o "
       "FILE]\n"
       "       liftc rewrite PROGRAM.json --json [--expanded] [-o FILE]\n"
       "\n"
       "--list prints every rule of the catalogue that applies somewhere, with the\n"
       "locations (JSON pointers into the expanded program, e.g. /body/in/f/body). --rule\n"
       "applies one rule at one location (default /body), type-checks the result\n"
       "and prints it (--json: as a JSON program; -o: also write the JSON to FILE).\n"
       "Without --rule, --json writes the program itself. JSON is written with the\n"
       "derived forms mapN/padN/slideN/zipN where they match; --expanded writes\n"
       "their 1D compositions, the form the locations point into.\n"
       "Rules whose side conditions involve lengths (splitJoin, tiling) usually\n"
       "need concrete sizes: give --size.\n",
       {{"size", "rule", "at", "output"}, {"list", "json", "expanded"}},
       runRewrite},
      {"explore",
       "explore and tune the low-level variants of a program on an OpenCL device or CUDA GPU",
       "usage: liftc explore PROGRAM.json --size N=8192,M=8192 [--target opencl|cuda] [--device SPEC] [--out "
       "results/]\n"
       "                     [--budget 10m] [--evals N] [--timeout 60s] [--search "
       "exhaustive|random|annealing|model]\n"
       "                     [--runs R] [--seed S] [--shard i/n] [--name NAME] [--t4 FILE.json] [--quiet]\n"
       "                     [--fast-math none,reassociate,relaxed] [--space [--build]] [--families F,...] [--exclude-families "
       "F,...]\n"
       "                     [--param NAME=V1,V2,...]... [--no-roofline] [--prune F] [--prepare-threads N|auto]\n"
       "                     [--min-groups-per-sm N] [--prepare-only] [--finalists K] [--finalist-rounds R]\n"
       "                     [--no-knowledge]\n"
       "\n"
       "Derives the low-level variants of a high-level program with the rewrite\n"
       "recipes (plain, overlapped tiling, local-memory tiling, for every tile size\n"
       "the program's sizes allow; coarsened by 2, 4 or 8 along one dimension at a\n"
       "time where that divides the extent), crossed with work-group sizes; drops those that\n"
       "do not fit the device; then verifies each against the interpreter at a\n"
       "small size and times it at the given sizes (median of --runs runs after a\n"
       "warm-up), in the order the search strategy picks, within the budget:\n"
       "--budget (up to 30 days) bounds the wall time of everything the exploration does,\n"
       "the interpreter's references and compiling included (a kernel still running at its end is\n"
       "abandoned and not recorded); a budget that ends before one variant is measured\n"
       "is an error (exit status 1). --evals (1 to 1000000) bounds the number of new measurements\n"
       "(records already in the store are free). A kernel launch that runs longer\n"
       "than --timeout (1ms to 24h, default 60s) is recorded as 'timeout' with that timeout; a later\n"
       "run with a longer --timeout measures it again.\n"
       "Every measurement is appended to results/<device>/<name>/<sizes>.jsonl at\n"
       "once, so an interrupted run resumes without re-measuring; the best kernel\n"
       "goes to results/best/<device>/<name>/<sizes>/. --shard i/n evaluates every\n"
       "n-th candidate (for job arrays; combine with 'liftc merge'). --t4 exports\n"
       "the store in the T4 autotuning results format. --target cuda generates\n"
       "CUDA C, compiles it with NVRTC and runs it through the CUDA driver (loaded\n"
       "at run time; --device is then the CUDA device index); its results are\n"
       "filed under 'cuda <device name>'. Every variant is explored at each\n"
       "fast-math level of --fast-math (a list of none, mad, reassociate,\n"
       "relaxed; default none,reassociate,relaxed; reassociate only where a\n"
       "user function has a sum of 10 or more terms), each verified with the\n"
       "tolerance its level permits.\n"
       "The space is the union of strategy families: plain, stream, tiled, local,\n"
       "coarsened, vector (plain and coarsened along x with vectors) and mapping\n"
       "(those programs with other orders of the NDRange dimensions, or inner\n"
       "dimensions sequential), and for programs with intermediate arrays fused\n"
       "(the programs of the others but mapping with the intermediates recomputed\n"
       "by their readers, see compile --fuse), and for programs iterate(n, f, A)\n"
       "timeTiled (those programs computing several steps per kernel, see compile\n"
       "--time-tile; --param timeTile=2,4; and programs coarsened in every\n"
       "dimension, --param timeTileCoarsen=16x8x8,32x8x8, with timeTiledShapes\n"
       "work-group shapes each); each variant's kernel is generated when the\n"
       "search picks it, and variants are deduplicated by kernel and launch then.\n"
       "--space prints each family's parameters, programs and candidates and the\n"
       "total, and measures nothing; --space --build also generates every\n"
       "kernel and counts the distinct ones (slow: a minute for Heat 256^3).\n"
       "--families keeps\n"
       "only the listed families, --exclude-families drops some; --param sets a\n"
       "parameter range: tile, tileShape (e.g. 32x4,16x8x2 or none), coarsen, wg\n"
       "(work-group extents), window\n"
       "(private,global), coarsenShapes, vector (widths), mapped (recipes the mapping family\n"
       "remaps), mapping (e.g. yx,y), mappingShapes, specialise (off,on),\n"
       "fastMath. Each record stores its strategy ('liftc compile --strategy').\n"
       "The best kernel's launch.json says why it won ('why'; also printed): the\n"
       "bytes each output must move, the bandwidth that reached, its fraction of\n"
       "the device's copy roof (measured after the search at the problem's size;\n"
       "--no-roofline skips it) and its lead over the best of each other family.\n"
       "--search model fits a surrogate model of the time over the parameters\n"
       "to every measurement and measures the most promising variant next\n"
       "(--strategy, the old name of --search, is accepted for this release).\n"
       "--prune F skips the remaining variants of a low-level program once two\n"
       "of its variants ran and its best is more than F times the best so far\n"
       "(measured on recorded explorations: F=3 halves random and annealing\n"
       "searches on Jacobi2D; on a Heat store it missed the best variant in 2-4%\n"
       "of the runs). Off by default.\n"
       "--prepare-threads N compiles the variants the search will measure next\n"
       "and computes their small-size references on N worker threads while one\n"
       "thread verifies and times on the device (never two kernels at once).\n"
       "auto (default): none on a CPU device, whose cores the kernels use, else\n"
       "the host's hardware threads less one, at most 8; 0: none.\n"
       "With --target cuda every record holds the kernel's SASS figures (ptxas's\n"
       "report of its own NVRTC compilation: registers, spill bytes, shared\n"
       "memory, barriers, stack), and a variant that spills, or of whose\n"
       "work-groups fewer than --min-groups-per-sm N (0 to 32, default 2; 0: no\n"
       "check) fit on one SM by its registers and shared memory, is recorded as\n"
       "'constraints' and never timed.\n"
       "--prepare-only (with --target cuda; no GPU or driver needed) prepares the\n"
       "space's variants in a random order (--seed) for a compile-only sm_90\n"
       "device on --prepare-threads threads (auto: every hardware thread) for\n"
       "--budget (default 60s) or --evals variants, and reports variants prepared\n"
       "per second per core and their SASS figures; it runs nothing and writes\n"
       "nothing.\n"
       "Before the search, the baselines are measured whatever the budget (not\n"
       "counted by --evals): the plain kernel at the default launch and one\n"
       "default variant per family, so the best is never slower than them.\n"
       "After it, the --finalists K (0 to 100, default 5; 0: none) fastest\n"
       "variants and the plain default are timed again in --finalist-rounds R\n"
       "(1 to 100, default 5) interleaved rounds, the copy roof with them; the\n"
       "best median of rounds wins and is stored with its rounds.\n"
       "Other stores of the --out directory (this program at other sizes or on\n"
       "other devices, programs of the same shape) are knowledge: their winning\n"
       "strategies are listed and the model search starts from a prior fitted\n"
       "on them, never from their timings. --no-knowledge starts cold.\n",
       {{"size", "target", "device", "out", "budget", "evals", "timeout", "search", "strategy", "runs", "seed", "shard", "name",
         "t4", "fast-math", "families", "exclude-families", "param", "prune", "prepare-threads", "min-groups-per-sm",
         "finalists", "finalist-rounds"},
        {"quiet", "space", "build", "no-roofline", "prepare-only", "no-knowledge"}},
       runExplore},
      {"tune",
       "measure one variant of a program and record it",
       "usage: liftc tune PROGRAM.json --size N=... [--opt plain|tiled|local|coarsened|stream|streamLocal|timeTiledLocal|timeTiledStream]\n"
       "                  [--tile K|X,Y[,Z]]\n"
       "                  [--coarsen X[,Y[,Z]]] [--window private|global] [--vector W] [--local X[,Y[,Z]]]\n"
       "                  [--target opencl|cuda] [--device SPEC] [--out results/] [--runs R] [--timeout 60s] [--name "
       "NAME]\n"
       "                  [--fast-math none|mad|reassociate|relaxed] [--div-to-mul] [--specialise-boundaries "
       "[--noinline-border] [--split-border]]\n"
       "                  [--mapping D[,D[,D]]] [--fuse] [--time-tile T] [--strategy TEXT]\n"
       "\n"
       "Verifies and times a single configuration like 'liftc explore' does, and\n"
       "records it in the same result store (--specialise-boundaries, --noinline-border,\n"
       "--split-border, --vector, --mapping, --fuse, --time-tile and --strategy: see compile).\n",
       {{"size", "opt", "tile", "coarsen", "window", "vector", "local", "target", "device", "out", "runs", "timeout",
         "name", "fast-math", "strategy", "mapping", "time-tile"},
        {"div-to-mul", "specialise-boundaries", "noinline-border", "split-border", "fuse"}},
       runTune},
      {"best",
       "print the best kernels recorded in a results directory",
       "usage: liftc best RESULTS_DIR [--device NAME] [--program NAME]\n"
       "\n"
       "Prints, for each program and size explored on the device (a substring of\n"
       "its name), the fastest kernel with its configuration and speed. An entry\n"
       "that cannot be read (corrupt launch.json, a field of the wrong type, a\n"
       "missing kernel file) is one error line naming the file and field; the\n"
       "other entries are still printed, and the exit status is 1.\n",
       {{"device", "program"}, {}},
       runBest},
      {"export",
       "write C host code (OpenCL and CUDA) that builds and launches a kernel, for applications",
       "usage: liftc export BEST_DIR --out DIR [--name NAME]\n"
       "       liftc export PROGRAM.json --size N=...,M=... --out DIR [--target opencl|cuda|both]\n"
       "                    [--opt plain|tiled|local|coarsened|stream|streamLocal|timeTiledLocal|timeTiledStream] [--tile K|X,Y[,Z]]\n"
       "                    [--coarsen X[,Y[,Z]]] [--window private|global] [--vector W] [--local X[,Y[,Z]]]\n"
       "                    [--fuse] [--time-tile T] [--name NAME]\n"
       "\n"
       "Writes NAME_opencl.h/.c and/or NAME_cuda.h/.c into DIR: C99 code that\n"
       "embeds the kernel source, builds it once per OpenCL context and device\n"
       "(or CUDA context: NVRTC at run time, or PTX/cubin the caller gives) and\n"
       "launches the whole schedule (every kernel of a program of several, an\n"
       "iterate: every launch, buffers swapped)\n"
       "on the caller's buffers and queue or stream, with size and buffer checks\n"
       "and an error enum. The code needs only the OpenCL or CUDA headers and\n"
       "libraries, not liftcc.\n"
       "\n"
       "BEST_DIR is a best-kernel directory (results/best/DEVICE/PROGRAM/SIZES/,\n"
       "written by 'liftc explore'): its kernel, sizes and tuned work-group size,\n"
       "for its own target. With a program file the kernel is generated at --size\n"
       "(lowered by --opt, see 'liftc compile') for --target (default both);\n"
       "--local sets the work-group size. NAME (default: the program name) is the\n"
       "prefix of every exported symbol and file.\n",
       {{"out", "name", "size", "opt", "tile", "coarsen", "window", "vector", "local", "target", "time-tile"},
        {"fuse"}},
       runExport},
      {"schema",
       "print the JSON Schema of programs, or the primitive tables, generated from the primitive list",
       "usage: liftc schema [--markdown | --update-docs DOCS_DIR]\n"
       "\n"
       "Prints docs/program.schema.json as generated from the primitive list\n"
       "(LIFTCC_PRIMITIVES in core/ir/op.h: fields, summary, type scheme) and the\n"
       "derived forms; --markdown prints the primitive and derived-form tables of\n"
       "docs/program-format.md instead. --update-docs DIR rewrites\n"
       "DIR/program.schema.json and the generated tables of DIR/program-format.md\n"
       "(between its 'generated by liftc schema' markers); after adding a primitive,\n"
       "run it on docs/ (a test fails while the committed files differ).\n",
       {{"update-docs"}, {"markdown"}},
       runSchema},
      {"merge",
       "combine the result directories of sharded explorations",
       "usage: liftc merge --out RESULTS_DIR SHARD_DIR...\n"
       "\n"
       "Unions the result stores (first record of a configuration wins) and keeps\n"
       "the fastest of the best kernels. All or nothing: every source (and every\n"
       "store and entry already in RESULTS_DIR) is read and checked before the\n"
       "first write, so a bad source leaves RESULTS_DIR unchanged.\n",
       {{"out"}, {}},
       runMerge},
      {"bench",
       "compare generated kernels with hand-written ones and the copy-bandwidth roofline",
       "usage: liftc bench [--target opencl|cuda] [--device SPEC] [--examples all|multistage|jacobi2d_5pt,...] "
       "[--sizes "
       "paper|default]\n"
       "                   [--size-scale F] [--runs 20] [--warmups 2] [--tiles 8[,16...]] [--seed S]\n"
       "                   [--coarsened x8[,z8,x8:global,x8:vec4,x8:spec...]]\n"
       "                   [--results DIR] [--explore N] [--explore-budget 3m] [--explore-search random|model|...]\n"
       "                   [--csv FILE] [--markdown FILE] [--json FILE] [--png FILE] "
       "[--quiet]\n"
       "                   [--kernel-tuner full|quick|off] [--copy-mib N] [--min-time 0.2s]\n"
       "                   [--rounds 3]\n"
       "\n"
       "For each example, in one run on one OpenCL device (or CUDA GPU with --target\n"
       "cuda; --device is then its index): the generated kernels of the plain\n"
       "recipe, the stream recipe (2D and 3D examples), the tiled and local recipes\n"
       "(one of each per --tiles size, default 8), the coarsened recipe per\n"
       "--coarsened variant (a dimension x, y or z and the outputs per work-item\n"
       "along it, ':global' for the window read from global memory, ':vec4' for\n"
       "vectors of 4 lanes along x (2, 4, 8, 16; dividing the factor), ':spec' last for\n"
       "boundary specialisation with a guard-free launch, ':spec:noinline' with\n"
       "--noinline-border as well (see compile); default x8 and\n"
       "the outermost dimension by 8), the best kernel 'liftc explore' recorded for the device\n"
       "under --results (default results/), and the hand-written reference kernel\n"
       "of bench/reference/ (.cl, or .cu for CUDA; and Halide pipelines where the\n"
       "build found Halide, on OpenCL only).\n"
       "An example without a best kernel recorded at its benchmark sizes is first\n"
       "explored on the spot: --explore N variants (default 16, 0: never), or as many as\n"
       "--explore-budget allows per example (e.g. 3m), chosen by --explore-search\n"
       "(default random; exhaustive, annealing, model as in explore), stored under\n"
       "--results like 'liftc explore'. The memory bandwidth is the best\n"
       "of several verified copies (guarded, guard-free, float4 and float8 copy\n"
       "kernels, each with several work-group sizes, and the runtime's buffer copy;\n"
       "all are listed, with the host's memcpy on CPU devices); the roofline bound is\n"
       "bandwidth / (bytes of every grid read or written once per output element).\n"
       "Each example's copy buffers are as large as half its compulsory traffic\n"
       "(1 to 128 MiB, as liftc explore measures its roof), so the copy sees the\n"
       "caches the stencil sees; --copy-mib N uses N MiB for every example.\n"
       "\n"
       "Every kernel first runs on the same random inputs at a small size and is\n"
       "compared with the reference interpreter (1e-4 relative); a disagreeing one\n"
       "is reported WRONG and not timed. The rest are timed at the benchmark size\n"
       "(--sizes paper, the default: CGO'18 Table 1; default: 2048^2 in 2D, 128^3 in 3D;\n"
       "--size-scale multiplies every extent, rounded to a multiple of 32): median\n"
       "of --runs profiled kernel times after --warmups runs (without --runs: 20\n"
       "runs and more until they add up to --min-time, default 0.2 s, at most 1000),\n"
       "as output elements per second, with ratios to the hand-written kernel and\n"
       "to the roofline. Each example's kernels and peers are timed in --rounds rounds\n"
       "(default 3, 1 to 100) that take each in turn; a row's time is the median of\n"
       "its round medians, so that a slow phase of a shared machine slows one sample\n"
       "of every row rather than every sample of one row.\n"
       "--csv, --markdown and --json also write the report to files; --png draws it as a bar\n"
       "chart relative to the hand-written kernels with bench/plot.py (python3 and\n"
       "matplotlib; without them it prints the command to run). --examples names\n"
       "the examples (default: all, the 15 single stencils; multistage: SRAD's two\n"
       "stages, wave2d, chain3d_radius2 and the 2D Jacobi iterated 16 and 64 times,\n"
       "which add rows with every intermediate fused (plain, local t=8, coarsened x8)\n"
       "or time tiles of 2 and 4 steps per kernel, against a hand-written reference\n"
       "of several kernels or its host loop). When python3 has kernel_tuner and pyopencl,\n"
       "Kernel Tuner tunes each hand-written kernel over work-group shape and\n"
       "coarsening on the same device (row 'kernel tuner', with its tuning time next\n"
       "to the on-the-spot exploration's; --kernel-tuner quick: a small space, off:\n"
       "no such rows; OpenCL only). Progress goes to\n"
       "stderr unless --quiet. Exit status 1 when any kernel is WRONG.\n",
       {{"target", "device",       "examples", "sizes",          "size-scale",       "runs",  "warmups",  "tiles",
         "seed",   "results",      "explore",  "explore-budget", "explore-search", "explore-strategy", "csv",   "markdown", "json",
         "png",    "kernel-tuner", "copy-mib", "coarsened",      "min-time",         "rounds"},
        {"quiet"}},
       runBench},
  };
}

} // namespace liftcc::cli
