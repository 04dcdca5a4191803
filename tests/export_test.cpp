// liftc export: the exported C host code is compiled with the system's C
// compiler (C99, -Wall -Wextra -Werror -pedantic) and run on PoCL, and what
// it computes is compared with the interpreter: examples/app with the
// exported Jacobi2D (generated and explored), an iterated program through a
// driver that also provokes every launch error.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/interp/value_io.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "exporter/c_text.h"
#include "exporter/export_plan.h"
#include "rewrite/recipes.h"
#include "tests/best_kernel_entry.h"
#include "tests/explore_test_support.h"
#include "tests/export_test_support.h"
#include "tests/iterated_program.h"
#include "tests/opencl_test_support.h"
#include "tests/shell_support.h"

#include <doctest/doctest.h>

#include "core/io/json.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::bestKernelDirectory;
using test::canRunExported;
using test::compileC;
using test::quoteArgs;
using test::readFile;
using test::readFloats;
using test::runShell;
using test::shellQuote;
using test::TempDir;
using test::writeFile;

test::LiftcRun liftc(const std::vector<std::string> &args) { return test::runLiftc(quoteArgs(args)); }

fs::path jacobiJson() { return test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json"; }

} // namespace

TEST_CASE("export: C identifiers and string literals") {
  using namespace exporter;
  CHECK(isCIdentifier("jacobi2d_5pt"));
  CHECK(isCIdentifier("_x1"));
  CHECK_FALSE(isCIdentifier(""));
  CHECK_FALSE(isCIdentifier("2d"));
  CHECK_FALSE(isCIdentifier("a-b"));
  CHECK_FALSE(isCIdentifier("../x"));
  CHECK_FALSE(isCIdentifier("int"));
  CHECK(cIdentifierFrom("jacobi-2d.v1") == "jacobi_2d_v1");
  CHECK(cIdentifierFrom("2d") == "_2d");
  CHECK(cIdentifierFrom("int") == "int_");
  CHECK(upperCase("jacobi2d_5pt") == "JACOBI2D_5PT");
  CHECK(cStringLiteral("a\"b\\c\n\td?\?=\x01"
                       "9",
                       "") == "\"a\\\"b\\\\c\\n\"\n\"\\td\\?\\?=\\0019\"");
  CHECK(cStringLiteral("", "  ") == "  \"\"");
  // In a comment: no "*/", "/*", two '?' in a row, control character or non-ASCII byte,
  // and a newline inside a line shown as \n.
  CHECK(escapeC("x */ y /* z ?\?\?/ \"q\" \\ \x01\xc3\xa9\n", CText::Comment) ==
        "x *\\/ y /\\* z ?\\?\\?/ \"q\" \\\\ \\001\\303\\251\\n");
  CHECK(blockComment({"a */ b", "", "c\nd"}) == "/*\n * a *\\/ b\n *\n * c\\nd\n */\n");
}

TEST_CASE("export: a kernel's plan is the same whether generated here or read back from its launch.json") {
  std::map<std::string, int64_t> sizes{{"N", 40}, {"M", 56}};
  Program typed = typeCheck(readProgram(readFile(jacobiJson())), sizes);
  for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Local}) {
    for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
      CAPTURE(rewrite::recipeName(recipe));
      CAPTURE(codegen::targetName(target));
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, recipe), target);
      exporter::ExportPlan generated =
          exporter::planFromKernel(kernel, "jacobi2d_5pt", {{"N", 40}, {"M", 56}}, std::nullopt, {});
      nlohmann::json launch{
          {"liftcc", 1},
          {"program", "jacobi2d_5pt"},
          {"sizes", "N=40,M=56"},
          {"configuration", {{"recipe", rewrite::recipeName(recipe)}, {"tile", 8}, {"local", {0, 0, 0}}}},
          {"kernel", codegen::kernelMetadata(kernel)}};
      exporter::ExportPlan read = exporter::planFromLaunchJson(launch, kernel.source, "launch.json");
      CHECK(read.target == generated.target);
      CHECK(read.kernelName == generated.kernelName);
      CHECK(read.sizes == generated.sizes);
      CHECK(read.dims == generated.dims);
      CHECK(read.globalSize == generated.globalSize);
      CHECK(read.localSize == generated.localSize);
      CHECK(read.localSize.has_value() == (recipe == rewrite::Recipe::Local)); // mapWrg kernels fix their work-group
      CHECK(read.localMemoryBytes == generated.localMemoryBytes);
      REQUIRE(read.args.size() == generated.args.size());
      for (size_t i = 0; i < read.args.size(); ++i) {
        CHECK(read.args[i].name == generated.args[i].name);
        CHECK(read.args[i].count == generated.args[i].count);
        CHECK(read.args[i].kind == generated.args[i].kind);
      }
      CHECK(generated.args.at(generated.outputArg()).count == 40 * 56);
    }
  }
}

TEST_CASE("export: a C compiler reads back every byte a string literal embeds") {
  if (test::cCompiler().empty()) return;
  std::string text = "kernel void k(global float *out) {\n  out[0] = 1.0f; /* ?\?= \"q\" \\ */\n}\n";
  for (int c = 1; c < 256; ++c) text += static_cast<char>(c);
  text += "\nend without newline";
  TempDir dir;
  writeFile(dir.path() / "embed.c",
            "#include <stdio.h>\nstatic const char text[] =\n" + exporter::cStringLiteral(text, "    ") +
                ";\nint main(void) {\n  fwrite(text, 1, sizeof text - 1, stdout);\n  return 0;\n}\n");
  compileC({dir.path() / "embed.c"}, dir.path(), dir.path() / "embed", "");
  test::ShellRun run =
      runShell(shellQuote((dir.path() / "embed").string()) + " > " + shellQuote((dir.path() / "out").string()));
  REQUIRE(run.status == 0);
  CHECK(readFile(dir.path() / "out") == text);
}

TEST_CASE("export: examples/app runs the exported Jacobi2D on PoCL and matches the interpreter") {
  if (!canRunExported()) return;
  TempDir dir;
  const std::string sizes = "N=40,M=56";
  const fs::path input = dir.path() / "input.bin", reference = dir.path() / "reference.bin";
  Program typed = typeCheck(readProgram(readFile(jacobiJson())), {{"N", 40}, {"M", 56}});
  std::vector<Value> inputs = randomInputs(typed, {{"N", 40}, {"M", 56}}, 7);
  writeBinaryValue(input.string(), inputs[0]);
  REQUIRE(liftc({"eval", jacobiJson().string(), "--size", sizes, "--input", "A=" + input.string(), "--output",
                 reference.string()})
              .status == 0);

  // Exported twice: generated with the local-memory recipe, and the best
  // kernel of a short exploration (with its tuned work-group size).
  fs::path generated = dir.path() / "generated", best = dir.path() / "best", results = dir.path() / "results";
  test::LiftcRun exported = liftc({"export", jacobiJson().string(), "--size", sizes, "--target", "opencl", "--opt",
                                   "local", "--tile", "8", "--out", generated.string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  CHECK(exported.output.find("wrote " + (generated / "jacobi2d_5pt_opencl.h").string()) != std::string::npos);
  CHECK(readFile(generated / "jacobi2d_5pt_opencl.c")
            .find("jacobi2d_5pt_opencl_local[JACOBI2D_5PT_OPENCL_KERNELS][3] = {{") != std::string::npos);
  test::LiftcRun explored = liftc({"explore", jacobiJson().string(), "--size", sizes, "--out", results.string(),
                                   "--evals", "3", "--runs", "1", "--quiet"});
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  fs::path bestDir = bestKernelDirectory(results);
  exported = liftc({"export", bestDir.string(), "--out", best.string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);

  std::vector<float> expected = readFloats(reference);
  REQUIRE(expected.size() == 40 * 56);
  for (const fs::path &exportDir : {generated, best}) {
    CAPTURE(exportDir);
    fs::path app = exportDir / "jacobi2d_app", output = exportDir / "output.bin";
    compileC({test::sourceDir() / "examples" / "app" / "jacobi2d_app.c", exportDir / "jacobi2d_5pt_opencl.c"},
             exportDir, app);
    test::ShellRun run =
        runShell(shellQuote(app.string()) + " " + shellQuote(input.string()) + " " + shellQuote(output.string()));
    REQUIRE_MESSAGE(run.status == 0, run.output);
    CHECK_MESSAGE(run.output.find("jacobi2d_5pt 40 x 56 on ") != std::string::npos, run.output);
    std::vector<float> actual = readFloats(output);
    REQUIRE(actual.size() == expected.size());
    size_t wrong = 0;
    for (size_t i = 0; i < expected.size(); ++i)
      if (std::fabs(actual[i] - expected[i]) > 1e-5f * (1.0f + std::fabs(expected[i]))) ++wrong;
    CHECK(wrong == 0);
    // A grid of the wrong size is refused by the application, not misread.
    writeFile(exportDir / "short.bin", "0123");
    run = runShell(shellQuote(app.string()) + " " + shellQuote((exportDir / "short.bin").string()) + " " +
                   shellQuote(output.string()));
    CHECK(run.status == 1);
  }

  // The best kernel's source is embedded byte for byte.
  writeFile(best / "print_source.c",
            "#include \"jacobi2d_5pt_opencl.h\"\n#include <stdio.h>\n"
            "int main(void) {\n  int part;\n  for (part = 0; part < JACOBI2D_5PT_OPENCL_KERNEL_SOURCE_PARTS; ++part)\n"
            "    fputs(jacobi2d_5pt_opencl_kernel_source[part], stdout);\n  return 0;\n}\n");
  compileC({best / "print_source.c", best / "jacobi2d_5pt_opencl.c"}, best, best / "print_source");
  REQUIRE(runShell(shellQuote((best / "print_source").string()) + " > " + shellQuote((best / "source.cl").string()))
              .status == 0);
  CHECK(readFile(best / "source.cl") == readFile(bestDir / "kernel.cl"));
}

namespace {

/// Exercises every error of an exported launch, then runs it twice and
/// checks that the input buffer was never written. Argument: input and
/// output files.
const char *kIterateDriver = R"C(#include "iter_opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(call, want)                                                                      \
  do {                                                                                          \
    iter_opencl_status got_ = (call);                                                           \
    if (got_ != (want)) {                                                                       \
      printf("FAIL line %d: %s, expected %s\n", __LINE__, iter_opencl_status_string(got_),      \
             iter_opencl_status_string(want));                                                  \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)
@OPEN_FIRST_DEVICE@
int main(int argc, char **argv) {
  static float input[ITER_OPENCL_A_COUNT], first[ITER_OPENCL_OUT_COUNT], second[ITER_OPENCL_OUT_COUNT];
  static float after[ITER_OPENCL_A_COUNT];
  cl_device_id device;
  cl_context context, other_context;
  cl_command_queue queue, other_queue;
  cl_mem a, out, small;
  cl_event done;
  cl_int error;
  iter_opencl_program *program = NULL;
  FILE *file;
  char log[4096];
  if (argc != 3) return 2;
  file = fopen(argv[1], "rb");
  if (!file || fread(input, 1, sizeof input, file) != sizeof input) return 2;
  fclose(file);
  if (!open_first_device(&device, &context, &queue)) return 3;
  other_context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  other_queue = clCreateCommandQueue(other_context, device, 0, &error);
  a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ITER_OPENCL_A_BYTES, input, &error);
  out = clCreateBuffer(context, CL_MEM_READ_WRITE, ITER_OPENCL_OUT_BYTES, NULL, &error);
  small = clCreateBuffer(context, CL_MEM_READ_WRITE, ITER_OPENCL_OUT_BYTES - sizeof(float), NULL, &error);
  if (error != CL_SUCCESS) return 3;

  EXPECT(iter_opencl_build(NULL, device, &program, log, sizeof log), ITER_OPENCL_ERROR_INVALID_ARGUMENT);
  EXPECT(iter_opencl_build(context, device, &program, log, sizeof log), ITER_OPENCL_OK);
  EXPECT(iter_opencl_launch(NULL, queue, a, out, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_INVALID_ARGUMENT);
  EXPECT(iter_opencl_launch(program, NULL, a, out, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_INVALID_ARGUMENT);
  EXPECT(iter_opencl_launch(program, queue, NULL, out, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_INVALID_ARGUMENT);
  EXPECT(iter_opencl_launch(program, queue, a, a, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_INVALID_ARGUMENT);
  EXPECT(iter_opencl_launch(program, queue, a, out, ITER_OPENCL_N + 1, NULL), ITER_OPENCL_ERROR_SIZE_MISMATCH);
  EXPECT(iter_opencl_launch(program, queue, a, small, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_BUFFER_TOO_SMALL);
  EXPECT(iter_opencl_launch(program, other_queue, a, out, ITER_OPENCL_N, NULL), ITER_OPENCL_ERROR_WRONG_CONTEXT);

  EXPECT(iter_opencl_launch(program, queue, a, out, ITER_OPENCL_N, &done), ITER_OPENCL_OK);
  if (clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof first, first, 1, &done, NULL) != CL_SUCCESS) return 4;
  clReleaseEvent(done);
  EXPECT(iter_opencl_launch(program, queue, a, out, ITER_OPENCL_N, NULL), ITER_OPENCL_OK);
  if (clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof second, second, 0, NULL, NULL) != CL_SUCCESS) return 4;
  if (clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL) != CL_SUCCESS) return 4;
  if (memcmp(first, second, sizeof first) != 0) {
    printf("FAIL: a second launch computed something else\n");
    return 1;
  }
  if (memcmp(input, after, sizeof input) != 0) {
    printf("FAIL: the launch wrote its input\n");
    return 1;
  }
  file = fopen(argv[2], "wb");
  if (!file || fwrite(first, 1, sizeof first, file) != sizeof first) return 2;
  fclose(file);
  iter_opencl_release(program);
  iter_opencl_release(NULL);
  clReleaseMemObject(small);
  clReleaseMemObject(out);
  clReleaseMemObject(a);
  clReleaseCommandQueue(other_queue);
  clReleaseCommandQueue(queue);
  clReleaseContext(other_context);
  clReleaseContext(context);
  printf("driver ok\n");
  return 0;
}
)C";

/// Runs an exported 3D program `iter` (its input A, sizes O, N, M) once:
/// reads A from argv[1], writes the result to argv[2].
const char *kIterate3DDriver = R"C(#include "iter_opencl.h"

#include <stdio.h>
@OPEN_FIRST_DEVICE@
int main(int argc, char **argv) {
  static float input[ITER_OPENCL_A_COUNT], result[ITER_OPENCL_OUT_COUNT];
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_mem a, out;
  cl_int error;
  iter_opencl_program *program = NULL;
  FILE *file;
  char log[4096];
  iter_opencl_status status;
  if (argc != 3) return 2;
  file = fopen(argv[1], "rb");
  if (!file || fread(input, 1, sizeof input, file) != sizeof input) return 2;
  fclose(file);
  if (!open_first_device(&device, &context, &queue)) return 3;
  a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ITER_OPENCL_A_BYTES, input, &error);
  out = clCreateBuffer(context, CL_MEM_READ_WRITE, ITER_OPENCL_OUT_BYTES, NULL, &error);
  if (error != CL_SUCCESS) return 3;
  status = iter_opencl_build(context, device, &program, log, sizeof log);
  if (status == ITER_OPENCL_OK)
    status = iter_opencl_launch(program, queue, a, out, ITER_OPENCL_O, ITER_OPENCL_N, ITER_OPENCL_M, NULL);
  if (status != ITER_OPENCL_OK) {
    printf("FAIL: %s\n%s\n", iter_opencl_status_string(status), log);
    return 1;
  }
  if (clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL) != CL_SUCCESS) return 4;
  file = fopen(argv[2], "wb");
  if (!file || fwrite(result, 1, sizeof result, file) != sizeof result) return 5;
  fclose(file);
  iter_opencl_release(program);
  printf("driver ok\n");
  return 0;
}
)C";

} // namespace

TEST_CASE("export: a 3D time tile through streaming (timeTiledStream) runs from its own C driver on PoCL") {
  if (!canRunExported()) return;
  // Heat with a clamp boundary, 5 steps: two launches of 2 steps, then one
  // of the step left; plane tiles 4x3 and chunks of 8 divide none of 9x10x11.
  TempDir dir;
  const std::map<std::string, int64_t> sizes{{"O", 9}, {"N", 10}, {"M", 11}};
  const std::string program = R"({"liftcc": 1, "sizes": ["O", "N", "M"],
    "inputs": [{"name": "A", "type": "[[[float]M]N]O"}],
    "body": {"op": "iterate", "n": 5, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "heat",
      "grids": {"g": "clamp"},
      "body": "return 0.125f * (g[1][0][0]+g[-1][0][0]+g[0][1][0]+g[0][-1][0]+g[0][0][1]+g[0][0][-1]) + 0.25f * g[0][0][0];"}},
      "in": {"param": "A"}}})";
  writeFile(dir.path() / "iter.json", program);
  test::LiftcRun exported = liftc({"export", (dir.path() / "iter.json").string(), "--size", "O=9,N=10,M=11", "--target",
                                   "opencl", "--opt", "timeTiledStream", "--time-tile", "2", "--tile", "4,3", "--local",
                                   "4,3", "--out", (dir.path() / "out").string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  CHECK(readFile(dir.path() / "out" / "iter_opencl.c").find("local float ring_") != std::string::npos);
  std::string driver = kIterate3DDriver;
  driver.replace(driver.find("@OPEN_FIRST_DEVICE@"), std::string("@OPEN_FIRST_DEVICE@").size(),
                 test::kOpenFirstDeviceC);
  writeFile(dir.path() / "driver.c", driver);
  compileC({dir.path() / "driver.c", dir.path() / "out" / "iter_opencl.c"}, dir.path() / "out", dir.path() / "driver");
  Program typed = typeCheck(readProgram(program), sizes);
  std::vector<Value> inputs = randomInputs(typed, sizes, 3);
  writeBinaryValue((dir.path() / "a.bin").string(), inputs[0]);
  test::ShellRun run =
      runShell(shellQuote((dir.path() / "driver").string()) + " " + shellQuote((dir.path() / "a.bin").string()) + " " +
               shellQuote((dir.path() / "result.bin").string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("driver ok") != std::string::npos);
  Value actual = readBinaryValue((dir.path() / "result.bin").string(), typed.body().typeOrThrow(), sizes);
  auto mismatch = compareValues(interpret(typed, sizes, inputs), actual, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("export: an iterated program runs as a host loop on PoCL, with every launch error reported") {
  if (!canRunExported()) return;
  const std::map<std::string, int64_t> sizes{{"N", 50}};
  for (int iterations : {0, 1, 2, 5}) {
    CAPTURE(iterations);
    TempDir dir;
    Program program = test::iteratedAverage(iterations);
    writeFile(dir.path() / "iter.json", writeProgram(program));
    // --local 16 with 50 points: the NDRange rounds up to 64 and the guards keep the extra work-items idle.
    test::LiftcRun exported = liftc({"export", (dir.path() / "iter.json").string(), "--size", "N=50", "--target",
                                     "opencl", "--local", "16", "--out", (dir.path() / "out").string()});
    REQUIRE_MESSAGE(exported.status == 0, exported.output);
    std::string header = readFile(dir.path() / "out" / "iter_opencl.h");
    CHECK(header.find("#define ITER_OPENCL_ITERATIONS " + std::to_string(iterations) + "\n") != std::string::npos);
    std::string driver = kIterateDriver;
    driver.replace(driver.find("@OPEN_FIRST_DEVICE@"), std::string("@OPEN_FIRST_DEVICE@").size(),
                   test::kOpenFirstDeviceC);
    writeFile(dir.path() / "driver.c", driver);
    compileC({dir.path() / "driver.c", dir.path() / "out" / "iter_opencl.c"}, dir.path() / "out",
             dir.path() / "driver");

    Program typed = typeCheck(program, sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 3);
    writeBinaryValue((dir.path() / "a.bin").string(), inputs[0]);
    test::ShellRun run =
        runShell(shellQuote((dir.path() / "driver").string()) + " " + shellQuote((dir.path() / "a.bin").string()) +
                 " " + shellQuote((dir.path() / "result.bin").string()));
    REQUIRE_MESSAGE(run.status == 0, run.output);
    CHECK(run.output.find("driver ok") != std::string::npos);
    Value actual = readBinaryValue((dir.path() / "result.bin").string(), typed.body().typeOrThrow(), sizes);
    auto mismatch = compareValues(interpret(typed, sizes, inputs), actual);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("export: a program whose user function has the program's name exports without --name") {
  // examples/json/heat.json computes the stencil `heat`: the export is named
  // heat, its kernel function heat_kernel (the embedded source only).
  TempDir dir;
  const fs::path heat = test::sourceDir() / "examples" / "json" / "heat.json";
  test::LiftcRun exported = liftc({"export", heat.string(), "--size", "O=8,N=8,M=16", "--target", "both", "--opt",
                                   "plain", "--out", dir.path().string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  for (const char *file : {"heat_opencl.c", "heat_cuda.c"}) {
    CAPTURE(file);
    const std::string source = readFile(dir.path() / file);
    CHECK(source.find("heat_kernel(") != std::string::npos);
    CHECK(source.find("\"heat_kernel\"") != std::string::npos); // the name the host code looks up
  }
}

TEST_CASE("export: bad input gets one clear line and writes nothing") {
  TempDir dir;
  fs::path out = dir.path() / "out";
  auto expectError = [&](const std::vector<std::string> &args, int status, const std::string &message) {
    test::LiftcRun run = liftc(args);
    CHECK_MESSAGE(run.status == status, run.output);
    CHECK_MESSAGE(run.output.find(message) != std::string::npos, run.output);
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(out));
  };
  std::string jacobi = jacobiJson().string();
  expectError({"export", jacobi, "--size", "N=16,M=16"}, 2, "--out DIR is required");
  expectError({"export", jacobi, "--out", out.string()}, 2, "missing --size for N, M");
  expectError({"export", jacobi, "--size", "N=16,M=16", "--name", "../evil", "--out", out.string()}, 2,
              "--name must be a C identifier");
  expectError({"export", jacobi, "--size", "N=16,M=16", "--name", "int", "--out", out.string()}, 2, "found 'int'");
  expectError({"export", jacobi, "--size", "N=16,M=16", "--target", "metal", "--out", out.string()}, 2,
              "--target must be opencl, cuda or both");
  expectError({"export", (dir.path() / "missing.json").string(), "--size", "N=16", "--out", out.string()}, 1,
              "cannot open");
  // A high-level program needs a recipe: the code generator names the node.
  expectError({"export", jacobi, "--size", "N=16,M=16", "--out", out.string()}, 1, "/body");

  // A best-kernel directory: its own sizes and target, and a checked launch.json
  // (with the hashes explore writes: sealedLaunch).
  fs::path best = dir.path() / "best";
  fs::create_directories(best);
  const std::string kernelSource = "kernel void k(const global float *restrict A, global float *restrict out, int N) "
                                   "{\n  out[0] = A[N - 1];\n}\n";
  auto writeLaunch = [&](const fs::path &entry, const nlohmann::json &launch, const std::string &source) {
    writeFile(entry / "launch.json", test::sealedLaunch(launch, source).dump());
  };
  nlohmann::json launch = {{"liftcc", 1},
                           {"program", "p"},
                           {"sizes", "N=8"},
                           {"kernelFile", "kernel.cl"},
                           {"configuration", {{"recipe", "plain"}, {"tile", 0}, {"local", {0, 0, 0}}}},
                           {"kernel",
                            {{"name", "k"},
                             {"target", "opencl"},
                             {"dims", 1},
                             {"globalSize", {"8"}},
                             {"localMemoryBytes", 0},
                             {"args",
                              {{{"name", "A"}, {"type", "float"}, {"role", "input"}, {"count", "N"}},
                               {{"name", "out"}, {"type", "float"}, {"role", "output"}, {"count", "8"}},
                               {{"name", "N"}, {"type", "int"}, {"role", "size"}}}}}}};
  writeFile(best / "kernel.cl", kernelSource);
  writeLaunch(best, launch, kernelSource);
  expectError({"export", best.string(), "--out", out.string()}, 1,
              "launch.json: /kernel/args/0/count: expected a constant, found 'N'");
  expectError({"export", best.string(), "--size", "N=8", "--out", out.string()}, 2, "--size applies to a program file");
  launch["kernel"]["args"][0]["count"] = "8";
  launch["kernelFile"] = "../kernel.cl";
  writeLaunch(best, launch, kernelSource);
  expectError({"export", best.string(), "--out", out.string()}, 1, "launch.json: /kernelFile: ");
  launch["kernelFile"] = "kernel.cu";
  writeLaunch(best, launch, kernelSource);
  expectError({"export", best.string(), "--out", out.string()}, 1, "kernel.cu");
  launch["kernelFile"] = "kernel.cl";
  launch["liftcc"] = 2;
  writeLaunch(best, launch, kernelSource);
  expectError({"export", best.string(), "--out", out.string()}, 1, "/liftcc: unsupported launch.json format 2");
  launch["liftcc"] = 1;
  launch["kernel"]["iterate"] = {{"count", "3"}, {"input", "B"}};
  writeLaunch(best, launch, kernelSource);
  expectError({"export", best.string(), "--out", out.string()}, 1,
              "/kernel/iterate/input: no input argument or temporary named 'B'");

  writeFile(best / "launch.json", "[1, 2]");
  expectError({"export", best.string(), "--out", out.string()}, 1, "launch.json: expected an object, found array");
  writeFile(best / "launch.json", "{\"liftcc\": 1");
  expectError({"export", best.string(), "--out", out.string()}, 1, "launch.json: not JSON: ");

  // Fixed, the same directory exports one OpenCL pair and nothing else. (A
  // kernel taking its size as an argument, as one generated without sizes
  // would: the launch passes it on.)
  launch["kernel"].erase("iterate");
  writeLaunch(best, launch, kernelSource);
  test::LiftcRun run = liftc({"export", best.string(), "--out", out.string(), "--name", "copy8"});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  std::set<std::string> files;
  for (const auto &entry : fs::directory_iterator(out)) files.insert(entry.path().filename().string());
  CHECK(files == std::set<std::string>{"copy8_opencl.c", "copy8_opencl.h"});

  // A CUDA best kernel exports the CUDA pair.
  fs::path cudaBest = dir.path() / "cuda_best", cudaOut = dir.path() / "cuda_out";
  fs::create_directories(cudaBest);
  launch["kernelFile"] = "kernel.cu";
  launch["kernel"]["target"] = "cuda";
  const std::string cudaSource = "extern \"C\" __global__ void k(const float *__restrict__ A, float *__restrict__ out, "
                                 "int N) {\n  out[0] = A[N - 1];\n}\n";
  writeFile(cudaBest / "kernel.cu", cudaSource);
  writeLaunch(cudaBest, launch, cudaSource);
  run = liftc({"export", cudaBest.string(), "--out", cudaOut.string()});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  files.clear();
  for (const auto &entry : fs::directory_iterator(cudaOut)) files.insert(entry.path().filename().string());
  CHECK(files == std::set<std::string>{"p_cuda.c", "p_cuda.h"});
  CHECK(readFile(cudaOut / "p_cuda.c")
            .find("static const unsigned int p_cuda_block[P_CUDA_KERNELS][3] = {{256, 1, 1}};") != std::string::npos);

  // Both compile cleanly (the size argument included).
  if (test::cCompiler().empty()) return;
  std::string cc = shellQuote(test::cCompiler()) + " " + test::strictCFlags() + " -c -o /dev/null ";
  test::ShellRun compiled =
      runShell(cc + "-I" + shellQuote(out.string()) + " " + shellQuote((out / "copy8_opencl.c").string()));
  CHECK_MESSAGE(compiled.status == 0, compiled.output);
#ifdef LIFTCC_TEST_CUDA_INCLUDE
  compiled = runShell(cc + "-I" + shellQuote(cudaOut.string()) + " -isystem " + shellQuote(LIFTCC_TEST_CUDA_INCLUDE) +
                      " " + shellQuote((cudaOut / "p_cuda.c").string()));
  CHECK_MESSAGE(compiled.status == 0, compiled.output);
#endif
}

} // namespace liftcc
