// Issue #17 (robustness), the library side: index widths, saturating float ->
// int conversions in kernels, the unrolling cap, result stores that never
// lose data, and files written whole or not at all.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/io/safe_file.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/recipes.h"
#include "search/result_store.h"
#include "tests/explore_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>

namespace liftcc {
namespace {

using test::TempDir;

codegen::Kernel plainKernel(const std::string &example, const std::map<std::string, int64_t> &sizes,
                            codegen::Target target = codegen::Target::OpenCL) {
  Program program = readProgram(test::readFile(test::sourceDir() / "examples" / "json" / (example + ".json")));
  Program typed = sizes.empty() ? typeCheck(program) : typeCheck(program, sizes);
  return codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), target);
}

TEST_CASE("robustness/index: int where the ranges prove it, 64-bit indices beyond 2^31 elements") {
  // 2^20 elements: every index provably fits int.
  codegen::Kernel small = plainKernel("jacobi2d_5pt", {{"N", 1024}, {"M", 1024}});
  CHECK(small.indexBits == 32);
  CHECK(small.source.find("const int gid0_0 = (int)get_global_id(0);") != std::string::npos);
  CHECK(codegen::kernelMetadata(small)["indexBits"] == 32);
  // 2^32 elements: gid1 * 65536 overflows int.
  codegen::Kernel big = plainKernel("jacobi2d_5pt", {{"N", 65536}, {"M", 65536}});
  CHECK(big.indexBits == 64);
  CHECK(big.source.find("const long gid0_0 = (long)get_global_id(0);") != std::string::npos);
  CHECK(big.source.find(" int ") == std::string::npos);
  CHECK(codegen::kernelMetadata(big)["indexBits"] == 64);
  CHECK(codegen::kernelMetadata(big)["args"][1]["count"] == "4294967296");
  // CUDA: the product of unsigned built-ins is widened before it can wrap.
  codegen::Kernel cuda = plainKernel("jacobi3d_7pt", {{"N", 2048}, {"M", 2048}, {"O", 1024}}, codegen::Target::CUDA);
  CHECK(cuda.indexBits == 64);
  CHECK(cuda.source.find("((long long)blockIdx.x * blockDim.x + threadIdx.x)") != std::string::npos);
  if (cuda::nvrtcAvailable()) CHECK(cuda::compileToPtx(cuda.source, cuda::NvrtcOptions{}, "wide.cu").log.empty());
  // Symbolic sizes are unbounded (N * M may exceed int): the kernel is wide,
  // and it still runs correctly (every symbolic kernel test runs it on PoCL).
  CHECK(plainKernel("jacobi2d_5pt", {}).indexBits == 64);
  CHECK(plainKernel("jacobi1d_3pt", {{"N", 1 << 20}}).indexBits == 32);
  // Its size arguments stay int (launches pass int32) and are widened on
  // entry, so a product of sizes (N * M in a 3D index) is 64-bit too.
  codegen::Kernel symbolic = plainKernel("jacobi3d_7pt", {});
  CHECK(symbolic.source.find("int liftcc_size_N") != std::string::npos);
  CHECK(symbolic.source.find("  const long N = liftcc_size_N;") != std::string::npos);
  codegen::Kernel symbolicCuda = plainKernel("jacobi3d_7pt", {}, codegen::Target::CUDA);
  CHECK(symbolicCuda.source.find("  const long long M = liftcc_size_M;") != std::string::npos);
  if (cuda::nvrtcAvailable())
    CHECK(cuda::compileToPtx(symbolicCuda.source, cuda::NvrtcOptions{}, "symbolic.cu").log.empty());
  // The prefix of those generated names is reserved.
  const char *reservedInput = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1}],
    "userFuns": {"copy": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x;"}},
    "inputs": [{"name": "liftcc_size_N", "type": "[float]N"}],
    "body": {"op": "mapGlb", "dim": 0, "f": {"userFun": "copy"}, "in": {"param": "liftcc_size_N"}}})";
  CHECK_THROWS_WITH(codegen::generateKernel(typeCheck(readProgram(reservedInput)), codegen::Target::OpenCL),
                    doctest::Contains("prefix liftcc_"));
}

const char *kToInt = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1}],
  "userFuns": {"toInt": {"params": [{"name": "x", "type": "float"}], "returns": "int",
                         "body": "int i = x; return i / 4 + (int)(x * 0.5f) / 4 + (int)(double)x / 4;"}},
  "inputs": [{"name": "A", "type": "[float]N"}],
  "body": {"op": "mapGlb", "dim": 0, "f": {"userFun": "toInt"}, "in": {"param": "A"}}})";

TEST_CASE("robustness/convert: kernels convert float to int like the interpreter (NaN -> 0, saturation)") {
  Program program = readProgram(kToInt);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> values{nan,   inf,           -inf,           3e9f,   -3e9f, 2.7f,
                            -2.7f, 2147483520.0f, -2147483648.0f, 1e-30f, 0.0f,  3e38f};
  std::map<std::string, int64_t> sizes{{"N", int64_t(values.size())}};
  Program typed = typeCheck(program, sizes);
  std::vector<Value> inputs;
  {
    std::vector<Value> elements;
    for (float v : values) elements.push_back(Value(Scalar::ofFloat(v)));
    inputs.push_back(Value::array(std::move(elements)));
  }
  Value expected = interpret(typed, sizes, inputs);
  CHECK(expected[0].scalar().asInt() == 0);                                             // NaN
  CHECK(expected[1].scalar().asInt() == 3 * (std::numeric_limits<int32_t>::max() / 4)); // each conversion saturated
  for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
    codegen::Kernel kernel = codegen::generateKernel(typed, target);
    bool opencl = target == codegen::Target::OpenCL;
    CHECK(kernel.source.find(opencl ? "convert_int_sat_rtz(" : "__float2int_rz(") != std::string::npos);
    std::string userFunction = kernel.source.substr(0, kernel.source.find(opencl ? "kernel void" : "extern"));
    CHECK(userFunction.find("(int)") == std::string::npos);
    if (!opencl && cuda::nvrtcAvailable())
      CHECK(cuda::compileToPtx(kernel.source, cuda::NvrtcOptions{}, "to_int.cu").log.empty());
  }
  auto info = ocl::test::testDevice();
  if (!info) return;
  tuner::OpenCLDevice device(*info);
  codegen::Kernel kernel = codegen::generateKernel(typed, codegen::Target::OpenCL);
  Value actual = device.compile(kernel)->run(sizes, inputs, typed.body().typeOrThrow(), tuner::LaunchConfig{}).output;
  for (size_t i = 0; i < values.size(); ++i)
    CHECK_MESSAGE(actual[i].scalar().asInt() == expected[i].scalar().asInt(), "input " << values[i]);
  // Functions without such conversions are pasted verbatim, as before.
  CHECK(plainKernel("jacobi2d_5pt", {{"N", 64}, {"M", 64}}).source.find("return (5.0f * A_m1_0") != std::string::npos);
}

TEST_CASE("robustness/unroll: constant-length reductions beyond the cap become loops") {
  const char *sum = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1}],
    "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}], "returns": "float",
                         "body": "return a + b;"}},
    "inputs": [{"name": "A", "type": "[float]N"}],
    "body": {"op": "reduce", "f": {"userFun": "add"}, "init": {"literal": 0.0, "type": "float"}, "in": {"param": "A"}}})";
  Program program = readProgram(sum);
  auto kernelAt = [&](int64_t n) {
    Program typed = typeCheck(program, {{"N", n}});
    return codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
  };
  codegen::Kernel small = kernelAt(16);
  CHECK(small.source.find("for (") == std::string::npos); // unrolled
  codegen::Kernel big = kernelAt(1 << 20);
  CHECK(big.source.size() < 2000); // a loop, not a million statements
  CHECK(big.source.find("for (int j_0 = 0; j_0 < 1048576; j_0++)") != std::string::npos);
  auto info = ocl::test::testDevice();
  if (!info) return;
  tuner::OpenCLDevice device(*info);
  std::map<std::string, int64_t> sizes{{"N", 5000}};
  Program typed = typeCheck(program, sizes);
  codegen::Kernel kernel = kernelAt(5000);
  CHECK(kernel.source.find("for (") != std::string::npos);
  std::vector<Value> inputs = randomInputs(typed, sizes, 3);
  Value actual = device.compile(kernel)->run(sizes, inputs, typed.body().typeOrThrow(), tuner::LaunchConfig{}).output;
  CHECK_FALSE(compareValues(interpret(typed, sizes, inputs), actual, {1e-3, 1e-4}));
}

search::Record okRecord(const std::string &key, double ns) {
  search::Record r;
  r.key = key;
  r.configuration = {{"recipe", "plain"}};
  r.medianNs = ns;
  r.samplesNs = {uint64_t(ns)};
  return r;
}

size_t fileSize(const std::filesystem::path &p) { return std::filesystem::file_size(p); }

TEST_CASE("robustness/store: only a last line cut short may be dropped; values are validated") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "s.jsonl";
  std::string a = okRecord("a", 100).toJson().dump(), b = okRecord("b", 200).toJson().dump();
  // A complete (newline-terminated) but unparseable last line is an error naming file:line.
  std::ofstream(path) << a << "\n{\"key\": \"b\"\n";
  CHECK_THROWS_WITH_AS(search::ResultStore(path.string()), doctest::Contains((path.string() + ":2: malformed").c_str()),
                       std::runtime_error);
  // A doctored time is rejected, not taken as the best.
  nlohmann::json negative = okRecord("b", 200).toJson();
  negative["medianNs"] = -1000;
  std::ofstream(path) << a << "\n" << negative.dump() << "\n";
  CHECK_THROWS_WITH_AS(search::ResultStore(path.string()), doctest::Contains(":2: malformed record: \"medianNs\""),
                       std::runtime_error);
  // Reading never modifies: a cut-short last line stays in the file.
  std::ofstream(path) << a << "\n" << b.substr(0, 20);
  size_t before = fileSize(path);
  CHECK(search::ResultStore(path.string(), search::ResultStore::Access::Read).records().size() == 1);
  CHECK(fileSize(path) == before);
  // Merging from it leaves it alone too.
  {
    search::ResultStore into((dir.path() / "merged.jsonl").string());
    CHECK(search::mergeStores({path.string()}, into) == 1);
  }
  CHECK(fileSize(path) == before);
  // Appending cuts it off.
  CHECK(search::ResultStore(path.string()).records().size() == 1);
  CHECK(fileSize(path) == a.size() + 1);
}

TEST_CASE("robustness/store: compile failures keep the build log") {
  search::Record failed;
  failed.key = "local tile=8";
  failed.configuration = nlohmann::json::object();
  failed.outcome = search::Outcome::Compile;
  failed.error = "<source>:3:5: error: use of undeclared identifier 'x'";
  failed.buildLog = failed.error + "\n  x = 1;\n  ^\n1 error generated.";
  search::Record back = search::Record::fromJson(nlohmann::json::parse(failed.toJson().dump()));
  CHECK(back.buildLog == failed.buildLog);
  CHECK(back.error == failed.error);
}

TEST_CASE("robustness/store: one writer per store file, and no symbolic links") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "dev" / "prog" / "N=8.jsonl";
  search::ResultStore first(path.string(), search::ResultStore::Access::Append, dir.path().string());
  first.append(okRecord("a", 1));
  CHECK_THROWS_WITH_AS(search::ResultStore(path.string()), doctest::Contains("in use by another liftc run"),
                       std::runtime_error);
  CHECK(search::ResultStore(path.string(), search::ResultStore::Access::Read).records().size() == 1);
  // A planted link, as the store or as a directory on the way, is refused.
  std::filesystem::path victim = dir.path() / "victim.txt";
  std::ofstream(victim) << "precious\n";
  std::filesystem::create_symlink(victim, dir.path() / "dev" / "prog" / "N=16.jsonl");
  CHECK_THROWS_WITH_AS(search::ResultStore((dir.path() / "dev" / "prog" / "N=16.jsonl").string(),
                                           search::ResultStore::Access::Append, dir.path().string()),
                       doctest::Contains("symbolic link"), std::runtime_error);
  std::filesystem::create_directory_symlink(dir.path() / "dev", dir.path() / "linked");
  CHECK_THROWS_WITH_AS(search::ResultStore((dir.path() / "linked" / "prog" / "N=32.jsonl").string(),
                                           search::ResultStore::Access::Append, dir.path().string()),
                       doctest::Contains("symbolic link"), std::runtime_error);
  CHECK(test::readFile(victim) == "precious\n");
}

TEST_CASE("robustness/files: writes are whole or fail, reads are capped") {
  TempDir dir;
  std::string target = (dir.path() / "k.cl").string();
  io::writeFile(target, "old");
  CHECK_THROWS_WITH_AS(io::writeFile("/dev/full", "kernel"), doctest::Contains("failed writing '/dev/full'"),
                       io::FileError);
  CHECK_THROWS_AS(io::writeFile((dir.path() / "missing" / "k.cl").string(), "x"), io::FileError);
  CHECK(test::readFile(target) == "old");
  io::writeFile(target, "new");
  CHECK(test::readFile(target) == "new");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1); // no temporary left
  CHECK_THROWS_WITH_AS(io::readFileCapped("/dev/zero", 1 << 20, "program file"),
                       doctest::Contains("not a regular file"), io::FileError);
  CHECK_THROWS_WITH_AS(io::readFileCapped(dir.path().string(), 1 << 20, "program file"),
                       doctest::Contains("is a directory, not a program file"), io::FileError);
  CHECK_THROWS_WITH_AS(io::readFileCapped(target, 2, "program file"), doctest::Contains("at most 2"), io::FileError);
  CHECK(io::shown(std::string(1 << 20, 'x')).size() < 100);
}

} // namespace
} // namespace liftcc
