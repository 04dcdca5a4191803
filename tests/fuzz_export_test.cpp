// Fuzzing liftc export's reading of a best-kernel directory: random edits of
// a launch.json as explore writes it, a Jacobi 2D kernel's and an iterated
// wave's (/kernel/iterate: inputs, carriedFrom) (values replaced by huge, negative,
// fractional, wrongly typed or C-breaking ones, fields removed), with the
// hashes recomputed for half of them (they are not secret). Export must
// either refuse with one line naming launch.json or the kernel file, or
// produce C that compiles under -Wall -Wextra -Werror (the first few are
// compiled). In process: a case costs microseconds, not a liftc start.
//
// LIFTCC_FUZZ_SCALE multiplies the number of cases (default 1: 400 cases,
// about a second); LIFTCC_FUZZ_SEED replaces the fixed seed, which every
// failure message prints.

#include "exporter/export.h"
#include "tests/best_kernel_entry.h"
#include "tests/explore_test_support.h"
#include "tests/shell_support.h"

#include <doctest/doctest.h>

#include "core/io/json.h"

#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

uint64_t envNumber(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  if (!text || !*text) return fallback;
  return std::strtoull(text, nullptr, 10);
}

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

/// Values that break parsers, integer arithmetic or C text.
std::vector<json> hostileValues() {
  return {json(0),
          json(-1),
          json(1),
          json(3),
          json(65536),
          json(65537),
          json(int64_t(1) << 31),
          json(int64_t(1) << 32),
          json(int64_t(1) << 40),
          json(int64_t(1) << 62),
          json(std::numeric_limits<int64_t>::max()),
          json(std::numeric_limits<uint64_t>::max()),
          json(1.5),
          json(true),
          json(nullptr),
          json::array(),
          json::array({65536, 65536, 1}),
          json::object(),
          json(""),
          json("0"),
          json("-5"),
          json("4294967296"),
          json("99999999999999999999"),
          json("N"),
          json("double"),
          json("output"),
          json("kernel.cu"),
          json("../kernel.cl"),
          json("*/ int x; /* \"q\" \\ ?\?/\n\r\x01\xc3\xa9"),
          json("N=40,M=56,*/=1"),
          json("-cl-fast-relaxed-math")};
}

/// Every path to a leaf (and to each object or array) of `value`.
void collectPointers(const json &value, const std::string &at, std::vector<std::string> &out) {
  if (!at.empty()) out.push_back(at);
  if (value.is_object())
    for (const auto &[key, item] : value.items()) collectPointers(item, at + "/" + key, out);
  else if (value.is_array())
    for (size_t i = 0; i < value.size(); ++i) collectPointers(value[i], at + "/" + std::to_string(i), out);
}

} // namespace

TEST_CASE("fuzz/export: an edited launch.json is refused in one line or exports C that compiles") {
  const uint64_t seed = envNumber("LIFTCC_FUZZ_SEED", 20261127);
  const uint64_t cases = 400 * std::max<uint64_t>(1, envNumber("LIFTCC_FUZZ_SCALE", 1));
  std::mt19937_64 random(seed);

  // Half the cases edit a Jacobi 2D entry, half an iterated wave's (its
  // /kernel/iterate with inputs and carriedFrom).
  for (const test::UnsealedEntry &entry : {test::jacobi2dPlainEntry(), test::waveTuplePlainEntry()}) {
    const json &base = entry.launch;
    std::vector<std::string> pointers;
    collectPointers(base, "", pointers);
    const std::vector<json> values = hostileValues();

    test::TempDir tmp;
    fs::path dir = tmp.path() / "entry";
    fs::create_directories(dir);
    writeFile(dir / "kernel.cl", entry.source);
    size_t exported = 0, compiled = 0, compiledInjected = 0;
    for (uint64_t c = 0; c < cases / 2; ++c) {
      json launch = base;
      std::string edits;
      for (int e = 0, n = 1 + int(random() % 3); e < n; ++e) {
        json::json_pointer pointer(pointers[random() % pointers.size()]);
        if (!launch.contains(pointer)) continue; // below a value replaced by an earlier edit
        if (random() % 5 == 0) {
          json &parent = launch[pointer.parent_pointer()];
          if (!parent.is_object()) continue;
          parent.erase(pointer.back());
          edits += " erase " + pointer.to_string();
        } else {
          launch[pointer] = values[random() % values.size()];
          edits += " " + pointer.to_string() + "=" + launch[pointer].dump();
        }
      }
      bool reseal = random() % 2 == 0;
      // Sealing reads /kernel and /configuration/local as explore wrote them;
      // where an edit made that impossible the entry stays unsealed.
      json written = launch;
      if (reseal) {
        try {
          written = test::sealedLaunch(launch, entry.source);
        } catch (const std::exception &) {
          reseal = false;
        }
      }
      if (!reseal) {
        json original = test::sealedLaunch(base, entry.source);
        written["kernelSourceHash"] = original["kernelSourceHash"];
        written["kernelHash"] = original["kernelHash"];
      }
      writeFile(dir / "launch.json", written.dump(2));
      const std::string context =
          "seed " + std::to_string(seed) + ", case " + std::to_string(c) + (reseal ? " (resealed):" : ":") + edits;
      INFO(context);
      std::vector<exporter::ExportedPair> pairs;
      try {
        pairs.push_back(exporter::exportPair(exporter::planFromBestKernel(dir.string()), "fz"));
      } catch (const std::exception &e) {
        std::string message = e.what();
        CHECK_MESSAGE(message.find('\n') == std::string::npos, message);
        CHECK_MESSAGE(message.size() < 400, message);
        CHECK_MESSAGE(
            (message.find("launch.json") != std::string::npos || message.find("kernel.c") != std::string::npos),
            message);
        continue;
      }
      ++exported;
      // The first three, and the first three that carry C-breaking text.
      bool injected = edits.find("int x;") != std::string::npos;
      if (test::cCompiler().empty() || (compiled >= 3 && (!injected || compiledInjected >= 3))) continue;
      compiledInjected += injected && compiled >= 3;
      fs::path out = tmp.path() / ("out" + std::to_string(c));
      exporter::writePairs(pairs, out.string());
      test::ShellRun run =
          test::runShell(test::shellQuote(test::cCompiler()) + " " + test::strictCFlags() + " -c -o /dev/null -I" +
                         test::shellQuote(out.string()) + " " + test::shellQuote((out / "fz_opencl.c").string()));
      CHECK_MESSAGE(run.status == 0, run.output);
      ++compiled;
    }
    MESSAGE("fuzz/export: seed " << seed << ", " << cases / 2 << " cases of " << base.value("program", "") << ", "
                                 << exported << " exported, " << compiled << " compiled");
  }
}

} // namespace liftcc
