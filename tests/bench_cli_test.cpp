// liftc bench, run as a process: every example has a hand-written reference
// kernel that agrees with the interpreter (the benchmark's own check), and the
// CSV names each of them ok.

#include "tuner/opencl_device.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <vector>

namespace liftcc {
namespace {

std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int runLiftc(const std::string &args, std::string &output) {
  std::string command = shellQuote(LIFTCC_LIFTC_PATH) + " " + args + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The fields of one CSV line (quoted fields may hold commas).
std::vector<std::string> csvFields(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

} // namespace

TEST_CASE("liftc bench: every example's hand-written kernel is verified and timed") {
  if (ocl::listDevices().empty()) {
    MESSAGE("no OpenCL device: liftc bench not run");
    return;
  }
  std::filesystem::path csv = std::filesystem::temp_directory_path() / "liftcc_bench_cli_test.csv";
  std::string output;
  int status =
      runLiftc("bench --examples all --size-scale 0.02 --runs 1 --warmups 0 --quiet --csv " + shellQuote(csv.string()),
               output);
  REQUIRE_MESSAGE(status == 0, output);
  std::ifstream in(csv);
  std::set<std::string> handWrittenOk;
  for (std::string line; std::getline(in, line);) {
    // device,example,sizes,variant,status,...
    std::vector<std::string> f = csvFields(line);
    if (f.size() > 4 && f[3] == "hand-written" && f[4] == "ok") handWrittenOk.insert(f[1]);
  }
  for (const char *name : {"jacobi1d_3pt", "jacobi2d_5pt", "jacobi2d_9pt", "stencil2d", "gaussian", "gradient",
                           "jacobi3d_7pt", "jacobi3d_13pt", "poisson", "heat", "hotspot2d", "hotspot3d", "srad1",
                           "srad2", "acoustic"})
    CHECK_MESSAGE(handWrittenOk.count(name) == 1, name << " has no verified hand-written row:\n" << output);
  std::filesystem::remove(csv);
}

} // namespace liftcc
