// Build-time generator of the Halide peers of `liftc bench` (bench/peers.h):
// defines Halide pipelines for a few example stencils, schedules them for the
// host CPU (rows in parallel, the innermost dimension vectorised) and
// compiles them ahead of time into static libraries, one per stencil, plus
// one standalone Halide runtime object.
//
// Ahead of time rather than JIT because libHalide brings its own LLVM, which
// clashes with the LLVM inside PoCL when both live in one process (PoCL's
// kernel compiler crashes in the other LLVM's passes). The compiled
// pipelines need neither libHalide nor LLVM.
//
//   halide_gen OUTPUT_DIR   writes halide_<name>.{a,h} and halide_runtime.o
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
/// dimension vectorised at the target's natural float width.
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

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: halide_gen OUTPUT_DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  const Target host = get_host_target();
  const Target target = host.with_feature(Target::NoRuntime);
  for (Stencil s : {jacobi2d5pt(), gaussian(), heat()}) {
    schedule(s, target);
    s.out.compile_to_static_library(dir + "/halide_" + s.name, {s.in}, "halide_" + s.name, target);
  }
  compile_standalone_runtime(dir + "/halide_runtime.o", host);
  return 0;
}
