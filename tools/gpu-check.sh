#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU, its driver, CMake and nvcc
# (no package registry needed), build liftcc, then per target (CUDA first,
# NVIDIA's OpenCL as time remains): run the GPU tests, explore Jacobi2D,
# Heat, Gaussian and the iterated Jacobi2D (64 steps) at the paper sizes, and
# write the bench tables against the device-to-device copy, the expert and
# the naive hand-written kernels. GPU time comes in short leases, so one call
# of 8 minutes does the CUDA half:
#
#   tools/gpu-bundle.sh                  # once, on a Debian/Ubuntu machine with .ci/run's packages
#   tools/gpu-check.sh --bundle .gpu-bundle --out gpu-out --deadline 480
#   tools/gpu-check.sh --rehearse --deadline 480   # here, without a GPU (below)
#
# --bundle DIR    headers (nlohmann/json, doctest, CL/) and the OpenCL ICD loader
#                 from tools/gpu-bundle.sh; without it the system's are used
# --out DIR       where everything goes (default gpu-check/): stores in DIR/results
#                 (a second run resumes them, measuring nothing twice), logs and
#                 tables of this run in DIR/run-<UTC time>/ (never overwritten)
# --phases LIST   any of build,test,explore,bench (default all of them; per
#                 target in that order, CUDA's before OpenCL's)
# --budget T      wall-time budget of each exploration (default 60s, model search)
# --examples L    the bench's examples (default: the explored programs; all: every example)
# --build-dir D   the CMake build folder (default build-gpu)
# --targets L    cuda,opencl (default both)
# --programs L   the explored programs, at their paper sizes
#                (default jacobi2d_5pt,heat,gaussian,jacobi2d_5pt_iter64)
# --opencl-device SPEC  NVIDIA's OpenCL device for liftc's --device (default nvidia)
# --deadline S    stop starting steps S seconds after the start (default none), and
#                 cut each step's limit to what is left: for leases of a few minutes
# --bench-reserve S  with --deadline and the bench phase: seconds kept for the
#                 first target's bench (default 150); each exploration's budget
#                 shrinks so that the explorations leave them (an H200 run with
#                 deadline 420 gave the CUDA bench 79 s, and it timed out in its
#                 last round with no table)
# --rehearse      no GPU needed: CUDA only, the explorations prepare their
#                 variants for the compile-only sm_90 device (--prepare-only:
#                 NVRTC, ptxas figures, small-size checks; nothing timed), no
#                 GPU tests and no bench: checks the script and shows what
#                 the lease's CPU side costs
#
# Every phase runs under a time limit and a failing one does not stop the
# others; the last lines printed are a summary of each step and where its log is.
set -uo pipefail
cd "$(dirname "$0")/.."

bundle=""
out="gpu-check"
phases="build,test,explore,bench"
budget="60s"
examples=""
build_dir="build-gpu"
ocl_spec="nvidia"
targets="cuda,opencl"
programs="jacobi2d_5pt,heat,gaussian,jacobi2d_5pt_iter64"
deadline=0
bench_reserve=150
rehearse=0
while (($#)); do
  case $1 in
    --bundle) bundle=$(realpath "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --phases) phases=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --examples) examples=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --opencl-device) ocl_spec=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --programs) programs=$2; shift 2 ;;
    --deadline) deadline=$2; shift 2 ;;
    --bench-reserve) bench_reserve=$2; shift 2 ;;
    --rehearse) rehearse=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for phase in ${phases//,/ }; do
  case $phase in build | test | explore | bench) ;;
    *) echo "gpu-check: --phases: unknown phase '$phase' (expected build, test, explore or bench)" >&2; exit 2 ;;
  esac
done
for target in ${targets//,/ }; do
  case $target in cuda | opencl) ;;
    *) echo "gpu-check: --targets: unknown target '$target' (expected cuda or opencl)" >&2; exit 2 ;;
  esac
done
has_phase() {
  # (rehearsed: no GPU, so nothing to test or time)
  ((rehearse)) && [[ $1 == test || $1 == bench ]] && return 1
  [[ ",$phases," == *",$1,"* ]]
}
((rehearse)) && targets="cuda"
has_target() { [[ ",$targets," == *",$1,"* ]]; }

mkdir -p "$out/results"
out=$(realpath "$out")
run_dir="$out/run-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir "$run_dir" || { echo "gpu-check: $run_dir already exists" >&2; exit 1; }
summary="$run_dir/summary.txt"
liftc="$build_dir/tools/liftc/liftc"

# step NAME SECONDS COMMAND...: runs COMMAND with its output in NAME.log and a
# line in the summary (ok, FAILED rc, or TIMEOUT).
step() {
  local name=$1 seconds=$2
  shift 2
  local log="$run_dir/$name.log" start=$SECONDS rc
  if ((deadline > 0)); then
    local left=$((deadline - SECONDS))
    if ((left < 20)); then
      printf '%-34s %-22s %5ds\n' "$name" "SKIPPED (deadline)" 0 | tee -a "$summary"
      return 1
    fi
    ((seconds > left)) && seconds=$left
  fi
  echo "== $name: $*" | tee "$log"
  timeout --kill-after=10 "$seconds" "$@" >>"$log" 2>&1
  rc=$?
  local verdict="ok"
  ((rc == 124 || rc == 137)) && verdict="TIMEOUT after ${seconds}s"
  ((rc != 0 && rc != 124 && rc != 137)) && verdict="FAILED (exit $rc)"
  printf '%-34s %-22s %5ds  %s\n' "$name" "$verdict" $((SECONDS - start)) "$log" | tee -a "$summary"
  return $rc
}

# --- The machine ------------------------------------------------------------
{
  echo "date: $(date -u)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  command -v nvcc >/dev/null && nvcc --version | tail -2
  cmake --version | head -1
  c++ --version | head -1
  echo "cores: $(nproc)"
} >"$run_dir/machine.txt" 2>&1
cat "$run_dir/machine.txt"

# NVIDIA's OpenCL: an ICD loader (the system's, else the bundle's) and a
# vendor file naming libnvidia-opencl.so.1 (containers often mount the driver's
# libraries without /etc/OpenCL/vendors/nvidia.icd).
if [[ -n $bundle ]]; then
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$bundle/lib"
  export CMAKE_PREFIX_PATH="$bundle${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
fi
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  nv_ocl=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1/ {found = $NF} END {print found}')
  [[ -z $nv_ocl ]] && nv_ocl=$(find /usr/local/nvidia /usr/lib/x86_64-linux-gnu /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
  if [[ -n $nv_ocl ]]; then
    mkdir -p "$run_dir/icd"
    echo "$nv_ocl" >"$run_dir/icd/nvidia.icd"
    export OCL_ICD_VENDORS="$run_dir/icd" OCL_ICD_FILENAMES="$nv_ocl"
    echo "OpenCL: NVIDIA's ICD at $nv_ocl (vendor file written to $run_dir/icd)" | tee -a "$run_dir/machine.txt"
  else
    echo "OpenCL: no NVIDIA vendor file and no libnvidia-opencl.so.1: the OpenCL steps will fail" | tee -a "$run_dir/machine.txt"
  fi
fi

# --- Build --------------------------------------------------------------------
if has_phase build; then
  configure=(cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DLIFTCC_NVRTC=ON -DLIFTCC_WITH_HALIDE=OFF)
  if [[ -n $bundle ]]; then
    configure+=(-DOpenCL_INCLUDE_DIR="$bundle/include" -DOpenCL_LIBRARY="$bundle/lib/libOpenCL.so.1")
  fi
  step configure 300 "${configure[@]}" &&
    step build 900 cmake --build "$build_dir" -j "$(nproc)" --target liftc $(has_phase test && echo liftcc_tests) \
      $([[ -f $build_dir/Makefile ]] && echo "-- -k") # every compile error in one log
fi

# The CGO'18 paper's Table 1 sizes (examples/registry.cpp), as liftc --size.
paper_sizes() {
  case $1 in
    jacobi2d_5pt | jacobi2d_9pt | gaussian | gradient | stencil2d | jacobi2d_5pt_iter16 | jacobi2d_5pt_iter64)
      echo "N=4096,M=4096" ;;
    heat | jacobi3d_7pt | jacobi3d_13pt | poisson) echo "O=256,N=256,M=256" ;;
    *) return 1 ;;
  esac
}
[[ -z $examples ]] && examples=$programs

# GPU tests: the CUDA suites (driver, NVRTC, runtime, explore, export,
# codegen), or the OpenCL suites that execute generated kernels against the
# interpreter on NVIDIA's OpenCL device (LIFTCC_REQUIRE_OPENCL=1: no device
# fails them).
run_tests() {
  local tests="$build_dir/tests/liftcc_tests"
  if [[ $1 == cuda ]]; then
    step test-cuda 600 "$tests" -sf='*cuda*' --duration=true
  else
    step test-opencl-kernels 900 env LIFTCC_REQUIRE_OPENCL=1 LIFTCC_OCL_DEVICE="$ocl_spec" "$tests" \
      -sf='*example_kernels_test*,*opencl_runtime_test*,*vector_test*,*slide_seq_test*,*coarsening_test*,*partial_tiles_test*,*multistage_test*,*copy_roofline_test*' \
      --duration=true
  fi
}

# seconds BUDGET: --budget as seconds (60s, 2m or 90).
seconds_of() {
  case $1 in
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *) echo "$1" ;;
  esac
}

# exploration_budget N: --budget, or less with --deadline so that the N
# explorations still to run leave --bench-reserve seconds for the bench
# (about 15 s each beyond the budget: start-up and the finalists' rounds).
exploration_budget() {
  local wanted share
  wanted=$(seconds_of "$budget")
  if ((deadline > 0)) && has_phase bench; then
    share=$(((deadline - SECONDS - bench_reserve) / $1 - 15))
    ((share < wanted)) && wanted=$share
    ((wanted < 15)) && wanted=15
  fi
  echo "${wanted}s"
}

# Explorations at the paper sizes, resuming the stores of OUT/results (a
# later call measures nothing twice); rehearsed, prepared for the
# compile-only device instead.
run_explorations() {
  local target=$1 device=(--device 0) name sizes remaining
  [[ $target == opencl ]] && device=(--device "$ocl_spec")
  remaining=$(wc -w <<<"${programs//,/ }")
  for name in ${programs//,/ }; do
    sizes=$(paper_sizes "$name") || { echo "gpu-check: --programs: no paper sizes for '$name'" >&2; continue; }
    if ((rehearse)); then
      step "prepare-$target-$name" 900 "$liftc" explore "examples/json/$name.json" --size "$sizes" \
        --target "$target" --prepare-only --budget "$budget"
    else
      step "explore-$target-$name" 900 "$liftc" explore "examples/json/$name.json" --size "$sizes" \
        --target "$target" "${device[@]}" --search model --budget "$(exploration_budget "$remaining")" \
        --out "$out/results"
    fi
    remaining=$((remaining - 1))
  done
  ((rehearse)) || step "best-$target" 60 "$liftc" best "$out/results"
}

# Bench tables: generated kernels, the explored best (from the stores above;
# an example without one is explored with 16 variants first), the expert and
# the naive hand-written kernels, and the roofline (the best verified copy,
# cuMemcpyDtoD or clEnqueueCopyBuffer among them), timed in the same rounds.
run_bench() {
  local target=$1 device=(--device 0)
  [[ $target == opencl ]] && device=(--device "$ocl_spec")
  step "bench-$target" 900 "$liftc" bench --target "$target" "${device[@]}" --sizes paper \
    --examples "$examples" --results "$out/results" --kernel-tuner off \
    --markdown "$run_dir/bench-$target.md" --csv "$run_dir/bench-$target.csv" --json "$run_dir/bench-$target.json"
}

# Per target, CUDA first: with --deadline, what does not fit is skipped and
# said so, and the lease's minutes go to the CUDA figures before OpenCL's.
for target in ${targets//,/ }; do
  has_phase test && run_tests "$target"
  has_phase explore && run_explorations "$target"
  has_phase bench && run_bench "$target"
done

# One screen: the steps, then each bench table's explored-best, expert,
# hand-written and copy rows (the Markdown tables hold every row).
echo
echo "gpu-check summary ($run_dir):"
cat "$summary"
for table in "$run_dir"/bench-*.md; do
  [[ -f $table ]] || continue
  echo
  echo "$(basename "$table" .md): explored best, expert and hand-written rows (same-run ratios; all rows in $table)"
  grep -E '^\| *(example|---)|explored|expert|hand-written' "$table" | head -40
done
! grep -q "FAILED\|TIMEOUT\|SKIPPED" "$summary"
