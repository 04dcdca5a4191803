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
// Besides the schedule written here, each CPU pipeline is also scheduled by
// every Halide autoscheduler plugin given with --plugin (Debian's Halide 14
// ships Mullapudi2016, Adams2019 and Li2018), so that the peer is what a
// Halide user would get from Halide itself, not only from us.
//
//   halide_gen OUTPUT_DIR [--plugin LIB]... TILE...   (TILE: XxY) writes
//       halide_<name>.{a,h}, halide_<name>_<scheduler>.{a,h} per plugin
//       (scheduler: the plugin's file name after libautoschedule_, e.g.
//       mullapudi2016), halide_cpu_schedules.h (their registry),
//       halide_<name>_opencl_<X>x<Y>.{a,h} per tile, halide_opencl_tiles.h
//       (their registry) and halide_runtime.o
#include <Halide.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
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

/// A Halide autoscheduler plugin: its library, the short name of the files
/// it schedules (libautoschedule_adams2019.so: adams2019) and the name it
/// registers itself under.
struct AutoScheduler {
  std::string library, shortName, registeredName;
};

/// The plugins Halide 14 ships, by short name; others are refused (their
/// registered name is unknown).
std::optional<AutoScheduler> autoSchedulerOf(const std::string &library) {
  std::string stem = std::filesystem::path(library).stem().string();
  const std::string prefix = "libautoschedule_";
  if (stem.rfind(prefix, 0) != 0) return std::nullopt;
  std::string shortName = stem.substr(prefix.size());
  for (const auto &[name, registered] : std::vector<std::pair<std::string, std::string>>{
           {"mullapudi2016", "Mullapudi2016"}, {"adams2019", "Adams2019"}, {"li2018", "Li2018"}})
    if (shortName == name) return AutoScheduler{library, name, registered};
  return std::nullopt;
}

/// The autoschedulers need estimates of the extents: the paper's sizes of
/// the bench examples (CGO'18 Table 1: 4096^2 in 2D, 256^3 in 3D), at which
/// `liftc bench --sizes paper` runs them; the schedule runs at any size.
void setEstimates(Stencil &s) {
  const int extent = s.dims == 2 ? 4096 : 256;
  Region region(static_cast<size_t>(s.dims), Range(0, extent));
  s.in.set_estimates(region);
  s.out.set_estimates(region);
}

/// Schedules `s` with `scheduler` for `target` (this machine's hardware
/// threads as its parallelism, Halide's generic cache and balance). Returns
/// why it failed, or "" (the pipeline then has no schedule, and the registry
/// says so: the bench reports that row as failed, never as a timing).
std::string autoSchedule(Stencil &s, const AutoScheduler &scheduler, const Target &target) {
  setEstimates(s);
  MachineParams params = MachineParams::generic();
  params.parallelism = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  try {
    Pipeline(s.out).auto_schedule(scheduler.registeredName, target, params);
    return "";
  } catch (const Halide::Error &e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    return what.empty() ? std::string("the autoscheduler failed") : what;
  }
}

/// A C string literal of `text`.
std::string cStringLiteral(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
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

/// The arguments: TILE... and --plugin LIBRARY... (each plugin loaded here).
/// Returns the exit status on a bad argument or an unloadable plugin.
std::optional<int> parseArguments(int argc, char **argv, std::vector<Tile> &tiles,
                                  std::vector<AutoScheduler> &schedulers) {
  for (int i = 2; i < argc; ++i) {
    if (std::string(argv[i]) == "--plugin" && i + 1 < argc) {
      std::optional<AutoScheduler> scheduler = autoSchedulerOf(argv[++i]);
      if (!scheduler) {
        std::cerr << "halide_gen: unknown autoscheduler plugin '" << argv[i]
                  << "' (expected libautoschedule_{mullapudi2016,adams2019,li2018}.so)\n";
        return 2;
      }
      try {
        load_plugin(scheduler->library);
      } catch (const Halide::Error &e) {
        std::cerr << "halide_gen: cannot load " << scheduler->library << ": " << e.what() << "\n";
        return 1;
      }
      schedulers.push_back(*scheduler);
      continue;
    }
    Tile tile;
    if (!parseTile(argv[i], tile)) {
      std::cerr << "halide_gen: bad tile '" << argv[i] << "' (expected XxY with X * Y <= 1024)\n";
      return 2;
    }
    tiles.push_back(tile);
  }
  return std::nullopt;
}

/// The generated pipelines' headers and registry entries, per registry.
struct Registries {
  std::ostringstream cpuIncludes, cpuEntries, openclIncludes, openclEntries;
};

/// One stencil's pipelines: the hand schedule and each autoscheduler's on the
/// CPU, and one OpenCL pipeline per tile shape.
void compileStencil(Stencil (*make)(), const std::string &dir, const std::vector<Tile> &tiles,
                    const std::vector<AutoScheduler> &schedulers, const Target &target, const Target &opencl,
                    Registries &registries) {
  Stencil cpu = make();
  schedule(cpu, target);
  cpu.out.compile_to_static_library(dir + "/halide_" + cpu.name, {cpu.in}, "halide_" + cpu.name, target);
  for (const AutoScheduler &scheduler : schedulers) {
    Stencil automatic = make();
    std::string failure = autoSchedule(automatic, scheduler, target);
    if (!failure.empty()) std::cerr << "halide_gen: " << scheduler.registeredName << " on " << automatic.name << ": " << failure << "\n";
    const std::string name = "halide_" + automatic.name + "_" + scheduler.shortName;
    automatic.out.compile_to_static_library(dir + "/" + name, {automatic.in}, name, target);
    registries.cpuIncludes << "#include \"" << name << ".h\"\n";
    registries.cpuEntries << "    {\"" << automatic.name << "\", \"" << scheduler.shortName << "\", " << name << ", "
                          << cStringLiteral(failure) << "},\n";
  }
  for (const Tile &tile : tiles) {
    Stencil gpu = make(); // a fresh pipeline: a Func has one schedule
    scheduleOpenCL(gpu, tile.x, tile.y);
    const std::string name = "halide_" + gpu.name + "_opencl_" + tile.name();
    gpu.out.compile_to_static_library(dir + "/" + name, {gpu.in}, name, opencl);
    registries.openclIncludes << "#include \"" << name << ".h\"\n";
    registries.openclEntries << "    {\"" << gpu.name << "\", " << tile.x << ", " << tile.y << ", " << name << "},\n";
  }
}

/// halide_opencl_tiles.h and halide_cpu_schedules.h: the tables of the
/// pipelines that bench/peers.cpp tunes over. False when one is not written.
bool writeRegistries(const std::string &dir, const Registries &registries) {
  std::ofstream registry(dir + "/halide_opencl_tiles.h");
  std::ofstream cpuRegistry(dir + "/halide_cpu_schedules.h");
  registry << "// Generated by tools/halide_gen: Halide's OpenCL pipelines, one per stencil and tile shape.\n"
              "#pragma once\n"
           << registries.openclIncludes.str()
           << "\nstruct HalideOpenCLPipeline {\n"
              "  const char *stencil;\n"
              "  int tileX, tileY;\n"
              "  int (*run)(halide_buffer_t *in, halide_buffer_t *out);\n"
              "};\n\n"
              "inline constexpr HalideOpenCLPipeline kHalideOpenCLPipelines[] = {\n"
           << registries.openclEntries.str() << "};\n";
  cpuRegistry << "// Generated by tools/halide_gen: Halide's CPU pipelines, one per stencil and schedule.\n"
                 "#pragma once\n"
              << registries.cpuIncludes.str()
              << "\nstruct HalideCpuSchedule {\n"
                 "  const char *stencil;\n"
                 "  const char *scheduler; ///< the autoscheduler\n"
                 "  int (*run)(halide_buffer_t *in, halide_buffer_t *out);\n"
                 "  const char *failure; ///< why the autoscheduler gave no schedule, or \"\"\n"
                 "};\n\n"
                 "inline constexpr HalideCpuSchedule kHalideCpuSchedules[] = {\n"
              << registries.cpuEntries.str() << "    {nullptr, nullptr, nullptr, nullptr}, // (never empty)\n};\n";
  registry.close();
  cpuRegistry.close();
  return registry.good() && cpuRegistry.good();
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: halide_gen OUTPUT_DIR TILE... (TILE: XxY, e.g. 32x8)\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Tile> tiles;
  std::vector<AutoScheduler> schedulers;
  if (std::optional<int> status = parseArguments(argc, argv, tiles, schedulers)) return *status;
  const Target host = get_host_target();
  const Target target = host.with_feature(Target::NoRuntime);
  const Target opencl = target.with_feature(Target::OpenCL);
  Registries registries;
  for (auto make : {jacobi2d5pt, gaussian, heat}) compileStencil(make, dir, tiles, schedulers, target, opencl, registries);
  if (!writeRegistries(dir, registries)) {
    std::cerr << "halide_gen: cannot write the registries in " << dir << "\n";
    return 1;
  }
  compile_standalone_runtime(dir + "/halide_runtime.o", host.with_feature(Target::OpenCL));
  return 0;
}
