// liftc export of programs of several kernels (global temporaries between
// them) and of results of several arrays: the exported OpenCL pairs are
// compiled as strict C99, run on PoCL by a driver that also provokes the
// launch errors, and compared with `liftc eval` of the same input; the CUDA
// pairs are compiled as C99 and linked against the toolkit's stub driver.
// examples/app/srad_app.c runs the best kernel of an exploration of SRAD's
// two stages. Sizes are small (24 x 20) so the suite stays fast.

#include "core/json/program_json.h"
#include "exporter/c_text.h"
#include "primitives/api.h"
#include "tests/explore_test_support.h"
#include "tests/export_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/shell_support.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

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

/// `count` floats in [lo, hi) as a raw file (what liftc eval --input reads).
void writeRandomFloats(const fs::path &path, size_t count, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(count);
  for (float &v : values) v = dist(rng);
  writeFile(path, std::string(reinterpret_cast<const char *>(values.data()), count * sizeof(float)));
}

/// liftc eval's result for `program` on `input` (every component, one after another).
std::vector<float> evaluate(const fs::path &program, const std::string &sizes, const std::string &input,
                            const fs::path &inputFile, const fs::path &output) {
  test::LiftcRun run = liftc({"eval", program.string(), "--size", sizes, "--input", input + "=" + inputFile.string(),
                              "--output", output.string()});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  return readFloats(output);
}

void checkClose(const std::vector<float> &expected, const std::vector<float> &actual) {
  REQUIRE(actual.size() == expected.size());
  size_t wrong = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (!(std::fabs(actual[i] - expected[i]) <= 1e-4f * (1.0f + std::fabs(expected[i])))) ++wrong;
  CHECK(wrong == 0);
}

/// A 2D 5-point stencil of user function `f` (centre, north, west, east,
/// south) over `in` with `mode` borders, in the JSON program format.
std::string stencil2D(const std::string &f, const std::string &in, const std::string &mode) {
  auto at = [](int row, int column) {
    return "{\"op\": \"at\", \"index\": " + std::to_string(column) +
           ", \"in\": {\"op\": \"at\", \"index\": " + std::to_string(row) + ", \"in\": {\"param\": \"nbh\"}}}";
  };
  return "{\"op\": \"mapN\", \"dims\": 2, \"f\": {\"lambda\": [\"nbh\"], \"body\": {\"apply\": {\"userFun\": \"" + f +
         "\"}, \"args\": [" + at(1, 1) + ", " + at(0, 1) + ", " + at(1, 0) + ", " + at(1, 2) + ", " + at(2, 1) +
         "]}}, \"in\": {\"op\": \"slideN\", \"dims\": 2, \"size\": 3, \"step\": 1, \"in\": {\"op\": \"padN\", "
         "\"dims\": 2, \"left\": 1, \"right\": 1, \"mode\": \"" +
         mode + "\", \"in\": " + in + "}}}";
}

/// A program of one N x M input A with a blur and a Laplacian.
std::string program2D(const std::string &body) {
  auto fun = [](const std::string &name, const std::string &code) {
    return "\"" + name +
           "\": {\"params\": [{\"name\": \"c\", \"type\": \"float\"}, {\"name\": \"n\", \"type\": \"float\"}, "
           "{\"name\": \"w\", \"type\": \"float\"}, {\"name\": \"e\", \"type\": \"float\"}, {\"name\": \"s\", "
           "\"type\": \"float\"}], \"returns\": \"float\", \"body\": \"" +
           code + "\"}";
  };
  return "{\"liftcc\": 1, \"sizes\": [\"N\", \"M\"], \"userFuns\": {" +
         fun("blur5", "return 0.5f * c + 0.125f * (n + w + e + s);") + ", " +
         fun("lap5", "return n + w + e + s - 4.0f * c;") +
         "}, \"inputs\": [{\"name\": \"A\", \"type\": \"[[float]M]N\"}], \"body\": " + body + "}";
}

/// Three kernels: blur, blur, Laplacian (two temporaries).
std::string chainProgram() {
  const std::string a = "{\"param\": \"A\"}";
  return program2D(stencil2D("lap5", stencil2D("blur5", stencil2D("blur5", a, "wrap"), "clamp"), "clamp"));
}

/// A result of two arrays (out_0, out_1): the blur and the Laplacian of A.
std::string pairProgram() {
  const std::string a = "{\"param\": \"A\"}";
  return program2D("{\"op\": \"tuple\", \"in\": [" + stencil2D("blur5", a, "wrap") + ", " +
                   stencil2D("lap5", a, "clamp") + "]}");
}

/// iterate over a step of two kernels: the sums of each 3-window (a
/// reduction, kept a kernel of its own), then their 3-point average.
Program iteratedSteps(int64_t count) {
  using namespace api;
  Expr add = userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
  Expr avg3 = userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return (a + b + c) / 3.0f;");
  auto step = [&](Expr x) {
    Expr sums = join(map(fn([&](Expr w) { return reduce(add, lit(0.0f), w); }, "w"), slide(3, 1, pad(1, 1, clamp, x))));
    return map(fn(
                   [&](Expr w) {
                     return apply(avg3, {at(0, w), at(1, w), at(2, w)});
                   },
                   "v"),
               slide(3, 1, pad(1, 1, clamp, sums)));
  };
  Expr a = input("A", array(f32(), size("N")));
  return program({a}, iterate(count, fn(step, "x"), a));
}

/// A driver for an exported OpenCL pair `@api@` with one input A and the
/// given outputs: provokes the launch errors, launches twice (the second
/// launch must compute the same: temporaries and scratch are reused), checks
/// that the input was not written and writes the outputs one after another.
std::string openclDriver(const std::string &api, const std::vector<std::string> &outputs) {
  std::string API;
  for (char c : api) API += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string declare, create, args, read, release, total = "0";
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string o = "o" + std::to_string(i), macro = API + "_" + outputs[i];
    declare += "  cl_mem " + o + ";\n";
    create += "  " + o + " = clCreateBuffer(context, CL_MEM_READ_WRITE, " + macro +
              "_BYTES, NULL, &error);\n"
              "  if (error != CL_SUCCESS) return 3;\n";
    args += ", " + o;
    read += "  if (clEnqueueReadBuffer(queue, " + o + ", CL_TRUE, 0, " + macro +
            "_BYTES, (char *)result + at, 0, "
            "NULL, NULL) != CL_SUCCESS) return 4;\n  at += " +
            macro + "_BYTES;\n";
    release += "  clReleaseMemObject(" + o + ");\n";
    total += " + " + macro + "_BYTES";
  }
  std::string aliased = args;
  aliased.replace(aliased.rfind(", o"), std::string::npos, ", a"); // the last output aliases the input
  std::string text = R"C(#include "@api@.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(call, want)                                                                                  \
  do {                                                                                                      \
    @api@_status got_ = (call);                                                                              \
    if (got_ != (want)) {                                                                                   \
      printf("FAIL line %d: %s, expected %s\n", __LINE__, @api@_status_string(got_), @api@_status_string(want)); \
      return 1;                                                                                             \
    }                                                                                                       \
  } while (0)
@OPEN_FIRST_DEVICE@
int main(int argc, char **argv) {
  static float input[@API@_A_COUNT], after[@API@_A_COUNT];
  static char result[@TOTAL@], again[@TOTAL@];
  size_t at = 0;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_mem a;
@DECLARE@  cl_event done;
  cl_int error;
  @api@_program *program = NULL;
  FILE *file;
  char log[4096];
  if (argc != 3) return 2;
  file = fopen(argv[1], "rb");
  if (!file || fread(input, 1, sizeof input, file) != sizeof input) return 2;
  fclose(file);
  if (!open_first_device(&device, &context, &queue)) return 3;
  a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, @API@_A_BYTES, input, &error);
  if (error != CL_SUCCESS) return 3;
@CREATE@
  EXPECT(@api@_build(context, device, &program, log, sizeof log), @API@_OK);
  EXPECT(@api@_launch(program, queue, NULL@REST@, @SIZES@, NULL), @API@_ERROR_INVALID_ARGUMENT);
  EXPECT(@api@_launch(program, queue, a@ALIASED@, @SIZES@, NULL), @API@_ERROR_INVALID_ARGUMENT);
  EXPECT(@api@_launch(program, queue, a@ARGS@, @WRONGSIZES@, NULL), @API@_ERROR_SIZE_MISMATCH);

  EXPECT(@api@_launch(program, queue, a@ARGS@, @SIZES@, &done), @API@_OK);
  clWaitForEvents(1, &done);
  clReleaseEvent(done);
@READ@  at = 0;
  memcpy(again, result, sizeof result);
  EXPECT(@api@_launch(program, queue, a@ARGS@, @SIZES@, NULL), @API@_OK);
@READ@  if (memcmp(again, result, sizeof result) != 0) {
    printf("FAIL: a second launch computed something else\n");
    return 1;
  }
  if (clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL) != CL_SUCCESS) return 4;
  if (memcmp(input, after, sizeof input) != 0) {
    printf("FAIL: the launch wrote its input\n");
    return 1;
  }
  file = fopen(argv[2], "wb");
  if (!file || fwrite(result, 1, sizeof result, file) != sizeof result) return 2;
  fclose(file);
  @api@_release(program);
@RELEASE@  clReleaseMemObject(a);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("driver ok\n");
  return 0;
}
)C";
  std::string rest = args.substr(args.find(','));
  auto replaceAll = [&](const std::string &key, const std::string &value) {
    for (size_t p; (p = text.find(key)) != std::string::npos;) text.replace(p, key.size(), value);
  };
  replaceAll("@OPEN_FIRST_DEVICE@", test::kOpenFirstDeviceC);
  replaceAll("@DECLARE@", declare);
  replaceAll("@CREATE@", create);
  replaceAll("@READ@", read);
  replaceAll("@RELEASE@", release);
  replaceAll("@TOTAL@", total);
  replaceAll("@ALIASED@", aliased);
  replaceAll("@REST@", rest);
  replaceAll("@ARGS@", args);
  replaceAll("@api@", api);
  replaceAll("@API@", API);
  return text;
}

/// Runs `exportCommand` (liftc's export command line, without --name and
/// --out) for OpenCL, runs the driver on a random input and compares with
/// liftc eval of `program` at `sizes`.
void checkExportedDriver(const fs::path &dir, const fs::path &program, const std::string &name,
                         const std::string &sizes, const std::string &sizeArgs, const std::string &wrongSizes,
                         size_t inputCount, const std::vector<std::string> &outputs,
                         std::vector<std::string> exportCommand) {
  fs::path out = dir / name;
  std::vector<std::string> args = std::move(exportCommand);
  args.insert(args.end(), {"--name", name, "--out", out.string()});
  test::LiftcRun exported = liftc(args);
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  std::string api = name + "_opencl";
  std::string driver = openclDriver(api, outputs);
  for (auto [key, value] : {std::pair<std::string, std::string>{"@SIZES@", sizeArgs}, {"@WRONGSIZES@", wrongSizes}})
    for (size_t p; (p = driver.find(key)) != std::string::npos;) driver.replace(p, key.size(), value);
  writeFile(out / "driver.c", driver);
  compileC({out / "driver.c", out / (api + ".c")}, out, out / "driver");
  fs::path input = dir / (name + "_in.bin"), result = dir / (name + "_out.bin");
  writeRandomFloats(input, inputCount, -1.0f, 1.0f, 11);
  test::ShellRun run = runShell(shellQuote((out / "driver").string()) + " " + shellQuote(input.string()) + " " +
                                shellQuote(result.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("driver ok") != std::string::npos);
  checkClose(evaluate(program, sizes, "A", input, dir / (name + "_reference.bin")), readFloats(result));
}

/// Exports `program` at `sizes` for OpenCL with `options` and checks it as
/// checkExportedDriver does.
void runExported(const fs::path &dir, const fs::path &program, const std::string &name, const std::string &sizes,
                 const std::string &sizeArgs, const std::string &wrongSizes, size_t inputCount,
                 const std::vector<std::string> &outputs, const std::vector<std::string> &options) {
  std::vector<std::string> command{"export", program.string(), "--size", sizes, "--target", "opencl"};
  command.insert(command.end(), options.begin(), options.end());
  checkExportedDriver(dir, program, name, sizes, sizeArgs, wrongSizes, inputCount, outputs, command);
}

/// Explores `program` at `sizes` for a few evaluations and returns the
/// directory of its best kernel.
fs::path exploredBest(const fs::path &dir, const fs::path &program, const std::string &sizes) {
  fs::path results = dir / (program.stem().string() + "_results");
  test::LiftcRun explored = liftc({"explore", program.string(), "--size", sizes, "--out", results.string(), "--evals",
                                   "2", "--runs", "1", "--quiet", "--families", "plain", "--fast-math", "none"});
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  return bestKernelDirectory(results);
}

} // namespace

TEST_CASE("export multistage: examples/app/srad_app runs SRAD's two kernels, explored and generated, on PoCL") {
  if (!canRunExported()) return;
  TempDir dir;
  const std::string sizes = "N=20,M=24";
  const fs::path srad = test::sourceDir() / "examples" / "json" / "srad_two_stage.json";
  const fs::path input = dir.path() / "image.bin";
  writeRandomFloats(input, 20 * 24, 1.0f, 2.718f, 5); // SRAD divides by the intensity
  std::vector<float> once = evaluate(srad, sizes, "J", input, dir.path() / "once.bin");
  std::vector<float> twice = evaluate(srad, sizes, "J", dir.path() / "once.bin", dir.path() / "twice.bin");

  fs::path results = dir.path() / "results", best = dir.path() / "best", generated = dir.path() / "generated";
  test::LiftcRun explored = liftc({"explore", srad.string(), "--size", sizes, "--out", results.string(), "--evals", "3",
                                   "--runs", "1", "--quiet", "--families", "plain", "--fast-math", "none"});
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  fs::path bestDir = bestKernelDirectory(results);
  test::LiftcRun exported = liftc({"export", bestDir.string(), "--out", best.string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  exported = liftc(
      {"export", srad.string(), "--size", sizes, "--opt", "plain", "--target", "opencl", "--out", generated.string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  CHECK(readFile(generated / "srad_two_stage_opencl.h").find("#define SRAD_TWO_STAGE_OPENCL_KERNELS 2\n") !=
        std::string::npos);

  for (const fs::path &exportDir : {best, generated}) {
    CAPTURE(exportDir);
    fs::path app = exportDir / "srad_app";
    compileC({test::sourceDir() / "examples" / "app" / "srad_app.c", exportDir / "srad_two_stage_opencl.c"}, exportDir,
             app);
    for (int steps : {1, 2}) {
      fs::path output = exportDir / ("steps" + std::to_string(steps) + ".bin");
      test::ShellRun run = runShell(shellQuote(app.string()) + " " + shellQuote(input.string()) + " " +
                                    shellQuote(output.string()) + " " + std::to_string(steps));
      REQUIRE_MESSAGE(run.status == 0, run.output);
      CHECK_MESSAGE(run.output.find("srad_two_stage 20 x 24: ") != std::string::npos, run.output);
      checkClose(steps == 1 ? once : twice, readFloats(output));
    }
  }
}

TEST_CASE("export multistage: a three-kernel 2D chain and a result of two arrays, generated and explored, and iterate "
          "over two kernels on PoCL") {
  if (!canRunExported()) return;
  TempDir dir;
  writeFile(dir.path() / "chain.json", chainProgram());
  writeFile(dir.path() / "pair.json", pairProgram());
  const std::string sizes = "N=20,M=24";
  // Separate kernels (two temporaries), and fused into one.
  runExported(dir.path(), dir.path() / "chain.json", "chain", sizes, "20, 24", "20, 25", 20 * 24, {"OUT"},
              {"--opt", "plain"});
  CHECK(readFile(dir.path() / "chain" / "chain_opencl.h").find("#define CHAIN_OPENCL_KERNELS 3\n") !=
        std::string::npos);
  runExported(dir.path(), dir.path() / "chain.json", "chain_tiled", sizes, "20, 24", "21, 24", 20 * 24, {"OUT"},
              {"--opt", "tiled", "--tile", "4", "--local", "4,4"});
  runExported(dir.path(), dir.path() / "chain.json", "fused", sizes, "20, 24", "20, 25", 20 * 24, {"OUT"},
              {"--opt", "plain", "--fuse"});
  // One buffer per component, each with its macros.
  runExported(dir.path(), dir.path() / "pair.json", "pair", sizes, "20, 24", "20, 23", 20 * 24, {"OUT_0", "OUT_1"},
              {"--opt", "plain"});
  std::string header = readFile(dir.path() / "pair" / "pair_opencl.h");
  CHECK(header.find("cl_mem out_0, cl_mem out_1") != std::string::npos);
  CHECK(header.find("#define PAIR_OPENCL_OUT_1_BYTES ((size_t)1920)") != std::string::npos);
  // The best kernels of short explorations of both, exported from their
  // results directories.
  checkExportedDriver(dir.path(), dir.path() / "chain.json", "chain_explored", sizes, "20, 24", "20, 25", 20 * 24,
                      {"OUT"}, {"export", exploredBest(dir.path(), dir.path() / "chain.json", sizes).string()});
  checkExportedDriver(dir.path(), dir.path() / "pair.json", "pair_explored", sizes, "20, 24", "20, 23", 20 * 24,
                      {"OUT_0", "OUT_1"},
                      {"export", exploredBest(dir.path(), dir.path() / "pair.json", sizes).string()});

  // iterate over a step of two kernels: the host loop (odd, even and zero
  // counts) and a time tile of two steps per launch.
  // (5 steps in tiles of 2: two launches of the tile, then one of the step left.)
  for (auto [count, timeTile] : {std::pair<int64_t, int>{3, 1}, {4, 1}, {0, 1}, {4, 2}, {5, 2}}) {
    CAPTURE(count);
    CAPTURE(timeTile);
    std::string name = "steps" + std::to_string(count) + "_t" + std::to_string(timeTile);
    writeFile(dir.path() / (name + ".json"), writeProgram(iteratedSteps(count)));
    std::vector<std::string> options{"--opt", "plain"};
    if (timeTile > 1) options.insert(options.end(), {"--time-tile", std::to_string(timeTile)});
    runExported(dir.path(), dir.path() / (name + ".json"), name, "N=50", "50", "51", 50, {"OUT"}, options);
    if (count > 0)
      CHECK(readFile(dir.path() / name / (name + "_opencl.c")).find("program->temporaries[0]") != std::string::npos);
  }
}

/// A stage before a loop of `count` steps and two after it (1D, one input
/// A): the host loop's phases (rewrite/iterate_chain.h).
std::string stagedLoopProgram(int64_t count) {
  auto stencil = [](const std::string &name, const std::string &grid, const std::string &mode,
                    const std::string &body) {
    return R"({"op": "stencil", "name": ")" + name + R"(", "grids": {")" + grid + R"(": ")" + mode +
           R"("}, "body": ")" + body + R"("})";
  };
  const std::string pre = stencil("pre", "A", "wrap", "return A[0]*A[0] - 0.5f*A[1];");
  const std::string loop =
      R"({"op": "iterate", "n": )" + std::to_string(count) + R"(, "f": {"lambda": ["g"], "body": )" +
      stencil("avg", "g", "mirror", "return (g[-2] + g[-1] + g[0] + g[1] + g[2])/5.0f;") + R"(}, "in": )" + pre + "}";
  const std::string post = R"({"apply": {"lambda": ["d"], "body": )" +
                           stencil("d2", "d", "clamp", "return d[-1] - 2.0f*d[0] + d[1];") + R"(}, "args": [)" +
                           stencil("d1", "s", "clamp", "return 0.5f*(s[1] - s[-1]);") + "]}";
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}], "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"apply": {"lambda": ["s"], "body": )" +
         post + R"(}, "args": [)" + loop + "]}}";
}

TEST_CASE("export multistage: stages before and after an iterate (phases of its host loop), generated and explored, "
          "run from C") {
  if (!canRunExported()) return;
  TempDir dir;
  // Zero, odd and even counts, one step per launch and two (the loop's
  // steps left then take a launch of their own), and an exploration's best.
  for (auto [count, timeTile] : {std::pair<int64_t, int>{0, 1}, {3, 1}, {4, 2}, {5, 2}}) {
    CAPTURE(count);
    CAPTURE(timeTile);
    std::string name = "staged" + std::to_string(count) + "_t" + std::to_string(timeTile);
    writeFile(dir.path() / (name + ".json"), stagedLoopProgram(count));
    std::vector<std::string> options{"--opt", "plain"};
    if (timeTile > 1) options.insert(options.end(), {"--time-tile", std::to_string(timeTile)});
    runExported(dir.path(), dir.path() / (name + ".json"), name, "N=50", "50", "51", 50, {"OUT"}, options);
  }
  writeFile(dir.path() / "staged.json", stagedLoopProgram(4));
  checkExportedDriver(dir.path(), dir.path() / "staged.json", "staged_explored", "N=50", "50", "51", 50, {"OUT"},
                      {"export", exploredBest(dir.path(), dir.path() / "staged.json", "N=50").string()});
}

/// A loop of `count` steps over A (1D), then a stage of another type, launched
/// once after it (core/ir/loop_split.h): the sum of the smoothed array's
/// squares, a [float]1.
std::string loopThenSumProgram(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}], "inputs": [{"name": "A", "type": "[float]N"}],
 "userFuns": {"sq": {"params": [{"name": "acc", "type": "float"}, {"name": "x", "type": "float"}],
   "returns": "float", "body": "return acc + x*x;"}},
 "body": {"op": "reduce", "f": {"userFun": "sq"}, "init": {"literal": 0.0, "type": "float"},
  "in": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "avg",
   "grids": {"g": "mirror"}, "body": "return (g[-2] + g[-1] + g[0] + g[1] + g[2])/5.0f;"}}, "in": {"param": "A"}}}})";
}

/// A 1D wave over A starting at rest, its state (A, A) copied into buffers
/// of its own before the loop, and its displacement alone copied out after
/// it (core/ir/loop_split.h); with `bySource`, instead a smoother whose step
/// also reads A by name (a source term), over a copy of A.
std::string stateBeforeLoopProgram(int64_t count, bool bySource) {
  const std::string head =
      R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}], "inputs": [{"name": "A", "type": "[float]N"}],
 "body": )";
  if (bySource)
    return head + R"({"op": "iterate", "n": )" + std::to_string(count) +
           R"(, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "src", "grids": {"g": "mirror", "A": "pointwise"},
   "body": "return 0.25f*(g[-1] + 2.0f*g[0] + g[1]) + 0.1f*A[0];"}}, "in": {"param": "A"}}})";
  return head + R"({"op": "get", "index": 0, "in": {"op": "iterate", "n": )" + std::to_string(count) +
         R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["u", "v"], "body": {"op": "tuple", "in": [
   {"op": "stencil", "name": "wave", "grids": {"u": "clamp", "v": "pointwise"},
    "body": "return 2.0f*u[0] - v[0] + 0.2f*(u[-1] - 2.0f*u[0] + u[1]);"}, {"param": "u"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "A"}, {"param": "A"}]}}}})";
}

TEST_CASE("export multistage: a state computed before the loop (a wave at rest, a step reading its input by name), "
          "generated and explored, run from C") {
  if (!canRunExported()) return;
  TempDir dir;
  for (bool bySource : {false, true})
    for (auto [count, timeTile] : {std::pair<int64_t, int>{0, 1}, {1, 1}, {4, 1}, {5, 2}}) {
      CAPTURE(bySource);
      CAPTURE(count);
      CAPTURE(timeTile);
      std::string name =
          std::string(bySource ? "source" : "rest") + std::to_string(count) + "_t" + std::to_string(timeTile);
      writeFile(dir.path() / (name + ".json"), stateBeforeLoopProgram(count, bySource));
      std::vector<std::string> options{"--opt", "plain"};
      if (timeTile > 1) options.insert(options.end(), {"--time-tile", std::to_string(timeTile)});
      runExported(dir.path(), dir.path() / (name + ".json"), name, "N=50", "50", "51", 50, {"OUT"}, options);
    }
  writeFile(dir.path() / "rest.json", stateBeforeLoopProgram(4, false));
  checkExportedDriver(dir.path(), dir.path() / "rest.json", "rest_explored", "N=50", "50", "51", 50, {"OUT"},
                      {"export", exploredBest(dir.path(), dir.path() / "rest.json", "N=50").string()});
}

TEST_CASE("export multistage: a stage of another type after an iterate (launched once after the loop), generated "
          "and explored, run from C") {
  if (!canRunExported()) return;
  TempDir dir;
  for (auto [count, timeTile] : {std::pair<int64_t, int>{0, 1}, {3, 1}, {4, 1}, {5, 2}}) {
    CAPTURE(count);
    CAPTURE(timeTile);
    std::string name = "sum" + std::to_string(count) + "_t" + std::to_string(timeTile);
    writeFile(dir.path() / (name + ".json"), loopThenSumProgram(count));
    std::vector<std::string> options{"--opt", "plain"};
    if (timeTile > 1) options.insert(options.end(), {"--time-tile", std::to_string(timeTile)});
    runExported(dir.path(), dir.path() / (name + ".json"), name, "N=50", "50", "51", 50, {"OUT"}, options);
  }
  writeFile(dir.path() / "sum.json", loopThenSumProgram(4));
  checkExportedDriver(dir.path(), dir.path() / "sum.json", "sum_explored", "N=50", "50", "51", 50, {"OUT"},
                      {"export", exploredBest(dir.path(), dir.path() / "sum.json", "N=50").string()});
}

TEST_CASE("export multistage: the CUDA pairs of several kernels and of two outputs compile as C99 and link") {
  if (test::cCompiler().empty()) return;
#if !defined(LIFTCC_TEST_CUDA_INCLUDE) || !defined(LIFTCC_TEST_CUDA_STUB)
  MESSAGE("no CUDA toolkit (headers and stub driver) found by CMake: the CUDA export is not compiled");
#else
  TempDir dir;
  writeFile(dir.path() / "chain.json", chainProgram());
  writeFile(dir.path() / "pair.json", pairProgram());
  writeFile(dir.path() / "steps.json", writeProgram(iteratedSteps(3)));
  writeFile(dir.path() / "phases.json", writeProgram(iteratedSteps(5)));
  writeFile(dir.path() / "staged.json", stagedLoopProgram(5));
  writeFile(dir.path() / "sum.json", loopThenSumProgram(5));
  writeFile(dir.path() / "rest.json", stateBeforeLoopProgram(5, false));
  struct Case {
    std::string name, program, sizes, call;
    std::vector<std::string> options;
  };
  for (const Case &c : {Case{"chain", "chain.json", "N=20,M=24", "0, 1, 2, 20, 24", {}},
                        Case{"pair", "pair.json", "N=20,M=24", "0, 1, 2, 3, 20, 24", {}},
                        Case{"steps", "steps.json", "N=50", "0, 1, 2, 50", {}},
                        Case{"phases", "phases.json", "N=50", "0, 1, 2, 50", {"--time-tile", "2"}},
                        Case{"staged", "staged.json", "N=50", "0, 1, 2, 50", {"--time-tile", "2"}},
                        Case{"sum", "sum.json", "N=50", "0, 1, 2, 50", {"--time-tile", "2"}},
                        Case{"rest", "rest.json", "N=50", "0, 1, 2, 50", {"--time-tile", "2"}}}) {
    CAPTURE(c.name);
    fs::path out = dir.path() / c.name;
    std::vector<std::string> command{"export",   (dir.path() / c.program).string(),
                                     "--size",   c.sizes,
                                     "--target", "cuda",
                                     "--opt",    "plain",
                                     "--out",    out.string()};
    command.insert(command.end(), c.options.begin(), c.options.end());
    test::LiftcRun exported = liftc(command);
    REQUIRE_MESSAGE(exported.status == 0, exported.output);
    std::string api = c.name + "_cuda";
    // Launches without a program: what a linked application calls.
    writeFile(out / "main.c", "#include \"" + api + ".h\"\n#include <stdio.h>\nint main(void) {\n  printf(\"%s\\n\", " +
                                  api + "_status_string(" + api + "_launch(NULL, " + c.call + ")));\n  " + api +
                                  "_release(NULL);\n  return 0;\n}\n");
    compileC({out / "main.c", out / (api + ".c")}, out, out / "main",
             "-isystem " + shellQuote(LIFTCC_TEST_CUDA_INCLUDE) + " -D" + exporter::upperCase(api) + "_NO_NVRTC " +
                 shellQuote(LIFTCC_TEST_CUDA_STUB));
  }
#endif
}

} // namespace liftcc
