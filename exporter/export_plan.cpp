#include "exporter/export_plan.h"

#include "codegen/launch_limits.h"
#include "core/arith/expr.h"
#include "core/error.h"
#include "core/io/json_file.h"
#include "core/io/safe_file.h"
#include "explore/best_kernel_trust.h"
#include "explore/best_kernels.h"
#include "tuner/launch_plan.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace liftcc::exporter {

namespace fs = std::filesystem;
using nlohmann::json;

size_t ExportPlan::outputArg() const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].role == codegen::KernelArg::Role::Output) return i;
  throw std::logic_error("export plan without an output argument");
}

std::array<int64_t, 3> ExportPlan::cudaBlock() const {
  if (localSize) return *localSize;
  // The launch plan's default, so an exported kernel launches like the one
  // liftc measured.
  std::array<size_t, 3> block = tuner::defaultCudaBlock(dims);
  return {static_cast<int64_t>(block[0]), static_cast<int64_t>(block[1]), static_cast<int64_t>(block[2])};
}

std::array<int64_t, 3> ExportPlan::roundedGlobal(const std::array<int64_t, 3> &local) const {
  std::array<int64_t, 3> global{1, 1, 1};
  for (int d = 0; d < 3; ++d) {
    int64_t l = std::max<int64_t>(1, local[d]);
    global[d] = (std::max<int64_t>(1, globalSize[d]) + l - 1) / l * l;
  }
  return global;
}

namespace {

/// Reports a bad field as "<where>: <pointer>: <message>" (the document
/// itself, pointer "", as "<where>: <message>").
[[noreturn]] void fail(const std::string &where, const std::string &pointer, const std::string &message) {
  throw std::runtime_error(where + ": " + (pointer.empty() ? "" : pointer + ": ") + message);
}

const json &field(const json &object, const std::string &name, const std::string &where, const std::string &pointer) {
  if (!object.is_object()) fail(where, pointer, "expected an object, found " + std::string(object.type_name()));
  auto it = object.find(name);
  if (it == object.end()) fail(where, pointer, "missing field '" + name + "'");
  return *it;
}

std::string stringField(const json &object, const std::string &name, const std::string &where,
                        const std::string &pointer) {
  const json &value = field(object, name, where, pointer);
  if (!value.is_string()) fail(where, pointer + "/" + name, "expected a string, found " + io::shown(value.dump()));
  return value.get<std::string>();
}

/// A size-dependent quantity: launch.json writes them as expression strings
/// ("4096"), which must be constants because the exported code cannot
/// evaluate expressions of the sizes.
int64_t constantOf(const json &value, const std::string &where, const std::string &pointer, int64_t minimum) {
  int64_t v = 0;
  if (value.is_number_integer()) {
    v = value.get<int64_t>();
  } else if (value.is_string()) {
    const std::string &text = value.get_ref<const std::string &>();
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
      fail(where, pointer,
           "expected a constant, found '" + io::shown(text) + "' (export needs a kernel generated at concrete sizes)");
  } else {
    fail(where, pointer, "expected an integer, found " + io::shown(value.dump()));
  }
  if (v < minimum)
    fail(where, pointer, "expected at least " + std::to_string(minimum) + ", found " + std::to_string(v));
  return v;
}

/// "N=64,M=32" (or "scalar": no sizes), as best-kernel directories name them.
std::vector<std::pair<std::string, int64_t>> parseSizesKey(const std::string &key, const std::string &where) {
  std::vector<std::pair<std::string, int64_t>> sizes;
  if (key == "scalar") return sizes;
  size_t start = 0;
  while (start <= key.size()) {
    size_t comma = key.find(',', start);
    std::string item = key.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = item.find('=');
    int64_t value = 0;
    if (eq == std::string::npos || eq == 0)
      fail(where, "/sizes", "expected NAME=VALUE[,...], found '" + io::shown(key) + "'");
    auto [end, ec] = std::from_chars(item.data() + eq + 1, item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || value < 1)
      fail(where, "/sizes", "expected a positive size in '" + io::shown(item) + "'");
    if (value > codegen::kMaxSizeValue)
      fail(where, "/sizes",
           "size " + io::shown(item.substr(0, eq)) + " = " + std::to_string(value) + " is above liftc's limit 2^40");
    sizes.emplace_back(item.substr(0, eq), value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

/// Runs a check of codegen/launch_limits.h, reporting its LimitError at `pointer`.
template <typename Check> void withinLimits(const std::string &where, const std::string &pointer, const Check &check) {
  try {
    check();
  } catch (const codegen::LimitError &e) {
    fail(where, pointer, e.what());
  }
}

/// NDRange extents are rounded up to a multiple of the work-group in int64_t.
constexpr int64_t kMaxGlobalExtent = int64_t(1) << 62;

std::optional<int64_t> sizeValue(const std::vector<std::pair<std::string, int64_t>> &sizes, const std::string &name) {
  for (const auto &[n, v] : sizes)
    if (n == name) return v;
  return std::nullopt;
}

/// Checks what every plan must satisfy, whatever it was built from.
void validate(const ExportPlan &plan, const std::string &where) {
  size_t outputs = 0;
  for (const PlanArg &a : plan.args) {
    if (a.role == codegen::KernelArg::Role::Output) ++outputs;
    if (a.count > std::numeric_limits<int64_t>::max() / 8)
      fail(where, "/kernel/args",
           "buffer " + io::shown(a.name) + " has too many elements (" + std::to_string(a.count) + ")");
    if (a.role == codegen::KernelArg::Role::Size) {
      auto value = sizeValue(plan.sizes, a.name);
      if (!value) fail(where, "/kernel/args", "the kernel takes size " + io::shown(a.name) + ", which has no value");
      if (*value > std::numeric_limits<int32_t>::max())
        fail(where, "/sizes", "size " + io::shown(a.name) + " does not fit the kernel's int arguments");
    }
  }
  if (outputs != 1) fail(where, "/kernel/args", "expected one output argument, found " + std::to_string(outputs));
  if (plan.localSize) withinLimits(where, "/kernel/localSize", [&] { codegen::checkWorkGroup(*plan.localSize); });
  if (plan.iteration)
    withinLimits(where, "/kernel/iterate/count", [&] { codegen::checkIterations(plan.iteration->count); });
  if (plan.iteration) {
    const PlanArg &in = plan.args.at(plan.iteration->inputArg), &out = plan.args[plan.outputArg()];
    if (in.kind != out.kind || in.count != out.count)
      fail(where, "/kernel/iterate",
           "the iterated input " + io::shown(in.name) + " and the output differ in type or length");
  }
}

} // namespace

ExportPlan planFromLaunchJson(const json &launch, const std::string &source, const std::string &where) {
  ExportPlan plan;
  plan.source = source;
  plan.programName = stringField(launch, "program", where, "");
  plan.sizes = parseSizesKey(stringField(launch, "sizes", where, ""), where);
  if (launch.contains("liftcc") && launch["liftcc"] != 1)
    fail(where, "/liftcc",
         "unsupported launch.json format " + io::shown(launch["liftcc"].dump()) + " (this liftc reads 1)");

  const json &kernel = field(launch, "kernel", where, "");
  if (kernel.contains("stages"))
    fail(where, "/kernel/stages", "programs of several kernels (global temporaries) cannot be exported yet");
  std::string target = stringField(kernel, "target", where, "/kernel");
  if (target == "opencl")
    plan.target = codegen::Target::OpenCL;
  else if (target == "cuda")
    plan.target = codegen::Target::CUDA;
  else
    fail(where, "/kernel/target", "expected opencl or cuda, found '" + io::shown(target) + "'");
  plan.kernelName = stringField(kernel, "name", where, "/kernel");

  const json &args = field(kernel, "args", where, "/kernel");
  if (!args.is_array()) fail(where, "/kernel/args", "expected an array");
  for (size_t i = 0; i < args.size(); ++i) {
    std::string at = "/kernel/args/" + std::to_string(i);
    PlanArg arg;
    arg.name = stringField(args[i], "name", where, at);
    std::string role = stringField(args[i], "role", where, at);
    std::string type = stringField(args[i], "type", where, at);
    auto kind = parseScalarKind(type);
    if (!kind) fail(where, at + "/type", "expected bool, int, float or double, found '" + io::shown(type) + "'");
    arg.kind = *kind;
    if (role == "input" || role == "output") {
      arg.role = role == "input" ? codegen::KernelArg::Role::Input : codegen::KernelArg::Role::Output;
      arg.count = constantOf(field(args[i], "count", where, at), where, at + "/count", 1);
    } else if (role == "size") {
      arg.role = codegen::KernelArg::Role::Size;
    } else {
      fail(where, at + "/role", "expected input, output or size, found '" + io::shown(role) + "'");
    }
    plan.args.push_back(arg);
  }

  const json &dims = field(kernel, "dims", where, "/kernel");
  int64_t dimCount = constantOf(dims, where, "/kernel/dims", 1);
  if (dimCount > 3) fail(where, "/kernel/dims", "expected 1, 2 or 3, found " + std::to_string(dimCount));
  plan.dims = static_cast<int>(dimCount);
  const json &global = field(kernel, "globalSize", where, "/kernel");
  if (!global.is_array() || global.size() != size_t(plan.dims))
    fail(where, "/kernel/globalSize", "expected an array of " + std::to_string(plan.dims) + " extents");
  for (int d = 0; d < plan.dims; ++d) {
    std::string at = "/kernel/globalSize/" + std::to_string(d);
    plan.globalSize[d] = constantOf(global[d], where, at, 1);
    // Rounded up to a work-group (at most kMaxWorkGroupItems) in int64_t.
    if (plan.globalSize[d] > kMaxGlobalExtent)
      fail(where, at, "expected at most 2^62 work-items, found " + std::to_string(plan.globalSize[d]));
  }
  if (kernel.contains("buildOptions")) {
    plan.buildOptions = stringField(kernel, "buildOptions", where, "/kernel");
    // Pasted into a C string literal of the exported code: option words only.
    for (char c : plan.buildOptions)
      if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view(" -_=.").find(c) == std::string_view::npos)
        fail(where, "/kernel/buildOptions",
             "expected compiler options (letters, digits, ' -_=.'), found '" + io::shown(plan.buildOptions) + "'");
  }
  if (kernel.contains("localMemoryBytes"))
    plan.localMemoryBytes = constantOf(kernel["localMemoryBytes"], where, "/kernel/localMemoryBytes", 0);

  // The tuned work-group size; all zeros means the runtime's choice, as in
  // the explorer (unless the kernel fixes its own: mapWrg kernels).
  if (launch.contains("configuration") && launch["configuration"].contains("local")) {
    const json &local = launch["configuration"]["local"];
    if (!local.is_array() || local.size() != 3) fail(where, "/configuration/local", "expected an array of 3 sizes");
    std::array<int64_t, 3> l{};
    for (int d = 0; d < 3; ++d) l[d] = constantOf(local[d], where, "/configuration/local/" + std::to_string(d), 0);
    if (l != std::array<int64_t, 3>{0, 0, 0}) {
      for (int d = 0; d < 3; ++d)
        if (l[d] < 1)
          fail(where, "/configuration/local/" + std::to_string(d), "expected at least 1 in a work-group size");
      withinLimits(where, "/configuration/local", [&] { codegen::checkWorkGroup(l); });
      plan.localSize = l;
    }
  }
  if (!plan.localSize && kernel.contains("localSize")) {
    const json &local = kernel["localSize"];
    if (!local.is_array() || local.size() != size_t(plan.dims))
      fail(where, "/kernel/localSize", "expected an array of " + std::to_string(plan.dims) + " sizes");
    std::array<int64_t, 3> l{1, 1, 1};
    for (int d = 0; d < plan.dims; ++d) l[d] = constantOf(local[d], where, "/kernel/localSize/" + std::to_string(d), 1);
    withinLimits(where, "/kernel/localSize", [&] { codegen::checkWorkGroup(l); });
    plan.localSize = l;
  }

  if (kernel.contains("iterate")) {
    const json &iterate = kernel["iterate"];
    ExportPlan::Iteration it;
    it.count = constantOf(field(iterate, "count", where, "/kernel/iterate"), where, "/kernel/iterate/count", 0);
    withinLimits(where, "/kernel/iterate/count", [&] { codegen::checkIterations(it.count); });
    std::string input = stringField(iterate, "input", where, "/kernel/iterate");
    bool found = false;
    for (size_t i = 0; i < plan.args.size(); ++i)
      if (plan.args[i].name == input && plan.args[i].role == codegen::KernelArg::Role::Input) {
        it.inputArg = i;
        found = true;
      }
    if (!found) fail(where, "/kernel/iterate/input", "no input argument named '" + io::shown(input) + "'");
    plan.iteration = it;
  }

  if (launch.contains("device") && launch["device"].is_string()) {
    std::string line = "Tuned on " + launch["device"].get<std::string>();
    if (launch.contains("key") && launch["key"].is_string())
      line += ", configuration \"" + launch["key"].get<std::string>() + "\"";
    plan.provenance.push_back(line);
  }
  if (launch.contains("medianNs") && launch["medianNs"].is_number()) {
    std::ostringstream line;
    line << "Median kernel time " << launch["medianNs"].get<double>() / 1e3 << " us";
    if (launch.contains("elementsPerSecond") && launch["elementsPerSecond"].is_number())
      line << " (" << launch["elementsPerSecond"].get<double>() / 1e9 << " G output elements/s)";
    if (launch.contains("measured") && launch["measured"].is_string())
      line << ", measured " << launch["measured"].get<std::string>();
    plan.provenance.push_back(line.str());
  }
  validate(plan, where);
  return plan;
}


ExportPlan planFromBestKernel(const std::string &directory) {
  fs::path launchPath = fs::path(directory) / "launch.json";
  std::string where = launchPath.string();
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(launchPath, ec)))
    throw std::runtime_error(where + ": cannot read (is '" + directory + "' a best-kernel directory?)");
  // Regular files only, capped (a FIFO or /dev/zero is refused at once).
  json launch = io::readJsonFile(where, io::kMaxResultsFileBytes, "launch.json");
  if (!launch.is_object()) fail(where, "", "expected an object, found " + std::string(launch.type_name()));
  std::string kernelFile;
  try {
    kernelFile = explore::kernelFileOf(launch);
  } catch (const std::exception &e) {
    fail(where, "/kernelFile", e.what());
  }
  fs::path kernelPath = fs::path(directory) / kernelFile;
  std::string source = io::readFileCapped(kernelPath.string(), io::kMaxResultsFileBytes, "kernel file");
  // What goes into an application must be the kernel that was measured,
  // with the arguments it was measured with: the check liftc best applies,
  // with every hash required.
  explore::verifyBestKernel(launch, source, directory, explore::EntryHashes::Required);
  ExportPlan plan = planFromLaunchJson(launch, source, where);
  if ((kernelFile == "kernel.cu") != (plan.target == codegen::Target::CUDA))
    fail(where, "/kernelFile", "'" + kernelFile + "' does not match the kernel target");
  plan.provenance.push_back("Exported from " + directory);
  return plan;
}

ExportPlan planFromKernel(const codegen::Kernel &kernel, const std::string &programName,
                          const std::vector<std::pair<std::string, int64_t>> &sizes,
                          const std::optional<std::array<int64_t, 3>> &localSize, std::vector<std::string> provenance) {
  if (!kernel.stages.empty())
    throw Error("liftc export: program " + programName + " is " + std::to_string(kernel.stages.size()) +
                " kernels (global temporaries between them), which cannot be exported yet");
  std::map<std::string, int64_t> bindings(sizes.begin(), sizes.end());
  ExportPlan plan;
  plan.programName = programName;
  plan.target = kernel.target;
  plan.kernelName = kernel.name;
  plan.source = kernel.source;
  plan.sizes = sizes;
  plan.dims = kernel.dims;
  for (const codegen::KernelArg &a : kernel.args)
    plan.args.push_back(
        {a.name, a.role, a.kind, a.role == codegen::KernelArg::Role::Size ? 1 : arith::evaluate(a.count, bindings)});
  for (int d = 0; d < 3; ++d) plan.globalSize[d] = arith::evaluate(kernel.globalSize[d], bindings);
  plan.localMemoryBytes = kernel.localMemoryBytes;
  plan.buildOptions = kernel.buildOptions;
  if (localSize)
    plan.localSize = localSize;
  else if (kernel.localSize)
    plan.localSize = *kernel.localSize;
  if (kernel.iteration)
    plan.iteration =
        ExportPlan::Iteration{arith::evaluate(kernel.iteration->count, bindings), kernel.iteration->inputArg};
  plan.provenance = std::move(provenance);
  validate(plan, "kernel " + kernel.name);
  return plan;
}

} // namespace liftcc::exporter
