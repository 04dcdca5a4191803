// liftc export --target cuda: there is no CUDA driver here, so the exported
// pair is compiled (as C99 and as C++17, with and without NVRTC) against the
// toolkit's headers and linked against its stub driver; the program that
// links it compiles the embedded kernel with NVRTC to PTX and shows that
// building without a usable driver fails with a status, not a crash.

#include "core/json/program_json.h"
#include "tests/explore_test_support.h"
#include "tests/iterated_program.h"
#include "tests/shell_support.h"

#include <doctest/doctest.h>

#include <fstream>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::runShell;
using test::shellQuote;

/// Compiles the exported kernel's PTX for sm_90 with the exported
/// compile_ptx, prints the embedded source to argv[1] and the PTX to argv[2],
/// then tries to build in the (absent) current context. Unused where the
/// CUDA toolkit is not found (the test below is then compiled out).
[[maybe_unused]] const char *kCudaDriver = R"C(#include "jacobi2d_5pt_cuda.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char log[4096];
  char *ptx = NULL;
  FILE *file;
  jacobi2d_5pt_cuda_program *program = NULL;
  jacobi2d_5pt_cuda_status status;
  int part;
  if (argc != 3) return 2;
  file = fopen(argv[1], "wb");
  if (!file) return 2;
  for (part = 0; part < JACOBI2D_5PT_CUDA_KERNEL_SOURCE_PARTS; ++part) fputs(jacobi2d_5pt_cuda_kernel_source[part], file);
  fclose(file);
  status = jacobi2d_5pt_cuda_compile_ptx(9, 0, &ptx, log, sizeof log);
  printf("compile_ptx: %s\n", jacobi2d_5pt_cuda_status_string(status));
  if (status == JACOBI2D_5PT_CUDA_OK) {
    file = fopen(argv[2], "wb");
    if (!file) return 2;
    fputs(ptx, file);
    fclose(file);
    free(ptx);
  } else {
    printf("%s\n", log);
  }
  status = jacobi2d_5pt_cuda_build(NULL, &program, log, sizeof log);
  printf("build: %s: %s\n", jacobi2d_5pt_cuda_status_string(status), log);
  printf("launch without a program: %s\n",
         jacobi2d_5pt_cuda_status_string(jacobi2d_5pt_cuda_launch(NULL, 0, 1, 2, JACOBI2D_5PT_CUDA_N, JACOBI2D_5PT_CUDA_M)));
  return program == NULL ? 0 : 1;
}
)C";

} // namespace

TEST_CASE(
    "export/cuda: the exported pair compiles and links against the CUDA toolkit; its kernel compiles with NVRTC") {
#if !defined(LIFTCC_TEST_CUDA_INCLUDE) || !defined(LIFTCC_TEST_CUDA_STUB) || !defined(LIFTCC_TEST_NVRTC_LIBRARY)
  MESSAGE("no CUDA toolkit (headers, stub driver and NVRTC) found by CMake: the CUDA export is not compiled");
#else
  if (test::cCompiler().empty()) {
    MESSAGE("no C compiler found by CMake: the CUDA export is not compiled");
    return;
  }
  test::TempDir dir;
  fs::path out = dir.path() / "out";
  std::string jacobi = (test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string();
  test::LiftcRun exported = test::runLiftc(test::quoteArgs({"export", jacobi, "--size", "N=40,M=56", "--target", "cuda",
                                                            "--opt", "local", "--tile", "8", "--out", out.string()}));
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  fs::path source = out / "jacobi2d_5pt_cuda.c";
  REQUIRE(fs::exists(source));
  REQUIRE(fs::exists(out / "jacobi2d_5pt_cuda.h"));

  // The toolkit's headers are system headers (cuda.h is not -pedantic clean).
  const std::string include = " -I" + shellQuote(out.string()) + " -isystem " + shellQuote(LIFTCC_TEST_CUDA_INCLUDE);
  const std::string cc = shellQuote(test::cCompiler()) + " " + test::strictCFlags() + include;
  const std::string cxx =
      shellQuote(LIFTCC_TEST_CXX_COMPILER) + " -x c++ -std=c++17 -Wall -Wextra -Werror -pedantic" + include;
  // Compiles as C and as C++, with NVRTC and without.
  for (const std::string &compile :
       {cc + " -c " + shellQuote(source.string()) + " -o " + shellQuote((out / "c.o").string()),
        cxx + " -c " + shellQuote(source.string()) + " -o " + shellQuote((out / "cxx.o").string()),
        cc + " -DJACOBI2D_5PT_CUDA_NO_NVRTC -c " + shellQuote(source.string()) + " -o " +
            shellQuote((out / "no_nvrtc.o").string())}) {
    test::ShellRun run = runShell(compile);
    CHECK_MESSAGE(run.status == 0, compile << "\n" << run.output);
  }

  // Links against the stub driver and NVRTC; run with the stub as libcuda.so.1.
  std::ofstream(out / "driver.c") << kCudaDriver;
  fs::path nvrtcDir = fs::path(LIFTCC_TEST_NVRTC_LIBRARY).parent_path(), stubDir = dir.path() / "stub";
  fs::create_directories(stubDir);
  fs::create_symlink(LIFTCC_TEST_CUDA_STUB, stubDir / "libcuda.so.1");
  std::string link = cc + " " + shellQuote((out / "driver.c").string()) + " " + shellQuote(source.string()) + " -o " +
                     shellQuote((out / "driver").string()) + " " + shellQuote(LIFTCC_TEST_CUDA_STUB) + " " +
                     shellQuote(LIFTCC_TEST_NVRTC_LIBRARY) + " -Wl,-rpath," + shellQuote(nvrtcDir.string());
  test::ShellRun linked = runShell(link);
  REQUIRE_MESSAGE(linked.status == 0, link << "\n" << linked.output);
  fs::path embedded = out / "embedded.cu", ptx = out / "kernel.ptx";
  test::ShellRun run = runShell("LD_LIBRARY_PATH=" + shellQuote(stubDir.string() + ":" + nvrtcDir.string()) + " " +
                                shellQuote((out / "driver").string()) + " " + shellQuote(embedded.string()) + " " +
                                shellQuote(ptx.string()));
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK_MESSAGE(run.output.find("compile_ptx: success") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("build: a CUDA driver call failed: cuCtxGetCurrent failed") != std::string::npos,
                run.output);
  CHECK_MESSAGE(run.output.find("launch without a program: invalid argument") != std::string::npos, run.output);
  std::string ptxText = test::readFile(ptx);
  CHECK_MESSAGE(ptxText.find(".entry jacobi2d_5pt(") != std::string::npos, ptxText.substr(0, 2000));
  CHECK(ptxText.find(".target sm_90") != std::string::npos);

  // The embedded source is the kernel liftc compile generates for the same program and options.
  fs::path compiled = out / "compiled.cu";
  test::LiftcRun compile =
      test::runLiftc(test::quoteArgs({"compile", jacobi, "--size", "N=40,M=56", "--target", "cuda", "--opt", "local",
                                      "--tile", "8", "--kernel-name", "jacobi2d_5pt", "-o", compiled.string()}));
  REQUIRE_MESSAGE(compile.status == 0, compile.output);
  CHECK(test::readFile(embedded) == test::readFile(compiled));

  // The host loop of an iterated program (with and without a scratch buffer, and no launch at all).
  for (int iterations : {0, 1, 5}) {
    CAPTURE(iterations);
    fs::path iterDir = dir.path() / ("iter" + std::to_string(iterations));
    fs::create_directories(iterDir);
    std::ofstream(iterDir / "iter.json") << writeProgram(test::iteratedAverage(iterations));
    exported = test::runLiftc(test::quoteArgs(
        {"export", (iterDir / "iter.json").string(), "--size", "N=50", "--target", "cuda", "--out", iterDir.string()}));
    REQUIRE_MESSAGE(exported.status == 0, exported.output);
    std::string iterSource = shellQuote((iterDir / "iter_cuda.c").string());
    for (const std::string &compile : {cc + " -I" + shellQuote(iterDir.string()) + " -c " + iterSource + " -o " +
                                           shellQuote((iterDir / "c.o").string()),
                                       cxx + " -I" + shellQuote(iterDir.string()) + " -c " + iterSource + " -o " +
                                           shellQuote((iterDir / "cxx.o").string())}) {
      test::ShellRun compiledIter = runShell(compile);
      CHECK_MESSAGE(compiledIter.status == 0, compile << "\n" << compiledIter.output);
    }
  }
  // The rotating host loop of a wave, whose second component is carried over.
  for (int iterations : {1, 4}) {
    CAPTURE(iterations);
    fs::path waveDir = dir.path() / ("wave" + std::to_string(iterations));
    fs::create_directories(waveDir);
    std::ofstream(waveDir / "leapfrog.json") << test::waveTupleJson(iterations);
    exported = test::runLiftc(test::quoteArgs({"export", (waveDir / "leapfrog.json").string(), "--size", "N=13,M=11",
                                               "--target", "cuda", "--opt", "plain", "--out", waveDir.string()}));
    REQUIRE_MESSAGE(exported.status == 0, exported.output);
    std::string waveSource = shellQuote((waveDir / "leapfrog_cuda.c").string());
    CHECK(test::readFile(waveDir / "leapfrog_cuda.c")
              .find("leapfrog_cuda_free_scratch(program->scratch + 0, 3, busy, nbusy)") != std::string::npos);
    for (const std::string &compile : {cc + " -I" + shellQuote(waveDir.string()) + " -c " + waveSource + " -o " +
                                           shellQuote((waveDir / "c.o").string()),
                                       cxx + " -I" + shellQuote(waveDir.string()) + " -c " + waveSource + " -o " +
                                           shellQuote((waveDir / "cxx.o").string())}) {
      test::ShellRun compiledWave = runShell(compile);
      CHECK_MESSAGE(compiledWave.status == 0, compile << "\n" << compiledWave.output);
    }
  }
#endif
}

} // namespace liftcc
