// Build-time generator of the Halide peers of `liftc bench` (bench/peers.h):
// defines Halide pipelines for a few example stencils and compiles each ahead
// of time twice into static libraries: scheduled for the host CPU (rows in
// parallel, the innermost dimension vectorised) and for Halide's OpenCL
// target (GPU tiles), plus one standalone Halide runtime object with OpenCL
// support.
//
// Ahead of time rather than JIT because libHalide brings its own LLVM, which
// clashes with the LLVM inside PoCL when both live in one process (PoCL's
// kernel compiler crashes in the other LLVM's passes). The compiled
// pipelines need neither libHalide nor LLVM.
//
//   halide_gen OUTPUT_DIR   writes halide_<name>.{a,h}, halide_<name>_opencl.{a,h}
//                           and halide_runtime.o
#include <Halide.h>

#include <iostream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

struct Stencil {
  std::string name;
  int dims;
  ImageParam in;
  Func out;
};

// Each definition matches examples/<name>.cpp (weights, clamp boundary =
// repeat_edge, grid [..][y][x] with x innermost = Halide dimension 0).

Stencil jacobi2d5pt() {
  ImageParam in(Float(32), 2, "in");
  Func c = BoundaryConditions::repeat_edge(in);
  Var x("x"), y("y");
  Func out("jacobi2d_5pt");
  out(x, y) = (5.0f * c(x, y - 1) + 12.0f * c(x - 1, y) + 15.0f * c(x, y) + 12.0f * c(x + 1, y) +
               5.0f * c(x, y + 1)) / 118.0f;
  return {"jacobi2d_5pt", 2, in, out};
}

Stencil gaussian() {
  ImageParam in(Float(32), 2, "in");
  Func c = BoundaryConditions::repeat_edge(in);
  Var x("x"), y("y");
  const float b[5] = {1, 4, 6, 4, 1};
  // Row-major sum of b[dy] b[dx] / 256 * in.
  Expr sum;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      Expr term = (b[dy + 2] * b[dx + 2] / 256.0f) * c(x + dx, y + dy);
      sum = sum.defined() ? sum + term : term;
    }
  Func out("gaussian");
  out(x, y) = sum;
  return {"gaussian", 2, in, out};
}

Stencil heat() {
  ImageParam in(Float(32), 3, "in");
  Func u = BoundaryConditions::repeat_edge(in);
  Var x("x"), y("y"), z("z");
  Expr c = u(x, y, z);
  Func out("heat");
  out(x, y, z) = 0.125f * (u(x, y, z + 1) - 2.0f * c + u(x, y, z - 1)) +
                 0.125f * (u(x, y + 1, z) - 2.0f * c + u(x, y - 1, z)) +
                 0.125f * (u(x + 1, y, z) - 2.0f * c + u(x - 1, y, z)) + c;
  return {"heat", 3, in, out};
}

/// Rows (2D) or fused (row, plane) pairs (3D) in parallel, the innermost
/// dimension vectorised at the target's natural float width (rows must be
/// at least one vector wide).
void schedule(Stencil &s, const Target &target) {
  const int lanes = target.natural_vector_size<float>();
  std::vector<Var> args = s.out.args();
  if (s.dims == 2) {
    s.out.parallel(args[1]).vectorize(args[0], lanes);
  } else {
    Var yz("yz");
    s.out.fuse(args[1], args[2], yz).parallel(yz).vectorize(args[0], lanes);
  }
}

/// One work-item per output element in 32 x 8 tiles (3D: the planes are
/// the third grid dimension), the shape of the hand-written kernels. Partial
/// tiles are shifted inwards (Halide's default, much faster on PoCL than
/// guarding them), so a grid must be at least one tile wide; a smaller one
/// is an error the bench reports.
void scheduleOpenCL(Stencil &s) {
  std::vector<Var> args = s.out.args();
  Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
  if (s.dims == 2) {
    s.out.gpu_tile(args[0], args[1], xo, yo, xi, yi, 32, 8);
  } else {
    Var zo("zo"), zi("zi");
    s.out.gpu_tile(args[0], args[1], args[2], xo, yo, zo, xi, yi, zi, 32, 8, 1);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: halide_gen OUTPUT_DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  const Target host = get_host_target();
  const Target target = host.with_feature(Target::NoRuntime);
  const Target opencl = target.with_feature(Target::OpenCL);
  for (auto make : {jacobi2d5pt, gaussian, heat}) {
    Stencil cpu = make();
    schedule(cpu, target);
    cpu.out.compile_to_static_library(dir + "/halide_" + cpu.name, {cpu.in}, "halide_" + cpu.name, target);
    Stencil gpu = make(); // a fresh pipeline: a Func has one schedule
    scheduleOpenCL(gpu);
    const std::string name = "halide_" + gpu.name + "_opencl";
    gpu.out.compile_to_static_library(dir + "/" + name, {gpu.in}, name, opencl);
  }
  compile_standalone_runtime(dir + "/halide_runtime.o", host.with_feature(Target::OpenCL));
  return 0;
}
