// Build-time generator of the Halide peers of `liftc bench` (bench/peers.h):
// defines Halide pipelines for a few example stencils and compiles each ahead
// of time twice into static libraries: scheduled for the host CPU (rows in
// parallel, the innermost dimension vectorised) and for Halide's OpenCL
// target (GPU tiles), plus one standalone Halide runtime object with OpenCL
// support. The OpenCL pipelines are compiled once per tile shape given on
// the command line, so that liftc bench can tune Halide's schedule too.
//
// Ahead of time rather than JIT because libHalide brings its own LLVM, which
// clashes with the LLVM inside PoCL when both live in one process (PoCL's
// kernel compiler crashes in the other LLVM's passes). The compiled
// pipelines need neither libHalide nor LLVM.
//
//   halide_gen OUTPUT_DIR TILE...   (TILE: XxY) writes halide_<name>.{a,h},
//       halide_<name>_opencl_<X>x<Y>.{a,h} per tile, halide_opencl_tiles.h (their
//       registry) and halide_runtime.o
#include <Halide.h>

#include <fstream>
#include <iostream>
#include <sstream>
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
  out(x, y) =
      (5.0f * c(x, y - 1) + 12.0f * c(x - 1, y) + 15.0f * c(x, y) + 12.0f * c(x + 1, y) + 5.0f * c(x, y + 1)) / 118.0f;
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

/// One work-item per output element in tileX x tileY tiles (3D: the planes
/// are the third grid dimension, one per tile). Partial tiles are shifted
/// inwards (Halide's default, much faster on PoCL than guarding them), so a
/// grid must be at least one tile wide; a smaller one is an error the bench
/// reports (and its tuning skips that tile shape).
void scheduleOpenCL(Stencil &s, int tileX, int tileY) {
  std::vector<Var> args = s.out.args();
  Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
  if (s.dims == 2) {
    s.out.gpu_tile(args[0], args[1], xo, yo, xi, yi, tileX, tileY);
  } else {
    Var zo("zo"), zi("zi");
    s.out.gpu_tile(args[0], args[1], args[2], xo, yo, zo, xi, yi, zi, tileX, tileY, 1);
  }
}

struct Tile {
  int x, y;
  std::string name() const { return std::to_string(x) + "x" + std::to_string(y); }
};

bool parseTile(const std::string &text, Tile &tile) {
  size_t sep = text.find('x');
  if (sep == std::string::npos) return false;
  try {
    tile = {std::stoi(text.substr(0, sep)), std::stoi(text.substr(sep + 1))};
  } catch (const std::exception &) {
    return false;
  }
  return tile.x >= 1 && tile.y >= 1 && tile.x * tile.y <= 1024;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: halide_gen OUTPUT_DIR TILE... (TILE: XxY, e.g. 32x8)\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Tile> tiles;
  for (int i = 2; i < argc; ++i) {
    Tile tile;
    if (!parseTile(argv[i], tile)) {
      std::cerr << "halide_gen: bad tile '" << argv[i] << "' (expected XxY with X * Y <= 1024)\n";
      return 2;
    }
    tiles.push_back(tile);
  }
  const Target host = get_host_target();
  const Target target = host.with_feature(Target::NoRuntime);
  const Target opencl = target.with_feature(Target::OpenCL);
  // The registry of the OpenCL pipelines (one per stencil and tile shape)
  // that bench/peers.cpp tunes over.
  std::ofstream registry(dir + "/halide_opencl_tiles.h");
  std::ostringstream entries;
  registry << "// Generated by tools/halide_gen: Halide's OpenCL pipelines, one per stencil and tile shape.\n"
              "#pragma once\n";
  for (auto make : {jacobi2d5pt, gaussian, heat}) {
    Stencil cpu = make();
    schedule(cpu, target);
    cpu.out.compile_to_static_library(dir + "/halide_" + cpu.name, {cpu.in}, "halide_" + cpu.name, target);
    for (const Tile &tile : tiles) {
      Stencil gpu = make(); // a fresh pipeline: a Func has one schedule
      scheduleOpenCL(gpu, tile.x, tile.y);
      const std::string name = "halide_" + gpu.name + "_opencl_" + tile.name();
      gpu.out.compile_to_static_library(dir + "/" + name, {gpu.in}, name, opencl);
      registry << "#include \"" << name << ".h\"\n";
      entries << "    {\"" << gpu.name << "\", " << tile.x << ", " << tile.y << ", " << name << "},\n";
    }
  }
  registry << "\nstruct HalideOpenCLPipeline {\n"
              "  const char *stencil;\n"
              "  int tileX, tileY;\n"
              "  int (*run)(halide_buffer_t *in, halide_buffer_t *out);\n"
              "};\n\n"
              "inline constexpr HalideOpenCLPipeline kHalideOpenCLPipelines[] = {\n"
           << entries.str() << "};\n";
  if (!registry) {
    std::cerr << "halide_gen: cannot write " << dir << "/halide_opencl_tiles.h\n";
    return 1;
  }
  compile_standalone_runtime(dir + "/halide_runtime.o", host.with_feature(Target::OpenCL));
  return 0;
}
