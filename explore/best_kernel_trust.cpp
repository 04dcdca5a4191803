#include "explore/best_kernel_trust.h"

#include "codegen/kernel_signature.h"
#include "codegen/launch_limits.h"
#include "core/error.h"
#include "core/io/safe_file.h"
#include "explore/best_kernels.h"
#include "explore/record_identity.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>

namespace liftcc::explore {

namespace {

using nlohmann::json;

/// Reports a field of one entry's launch.json, as "<file>: <pointer>: <message>".
class EntryCheck {
public:
  explicit EntryCheck(const std::string &directory)
      : where_((std::filesystem::path(directory) / "launch.json").string()) {}

  [[noreturn]] void fail(const std::string &pointer, const std::string &message) const {
    throw Error(where_ + ": " + (pointer.empty() ? "" : pointer + ": ") + message);
  }

  /// The member `name` of the object at `pointer` (nullptr when absent).
  const json *member(const json &object, const std::string &pointer, const std::string &name) const {
    if (!object.is_object()) fail(pointer, "expected an object, found " + std::string(object.type_name()));
    auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
  }

  const std::string &string(const json &value, const std::string &pointer) const {
    if (!value.is_string()) fail(pointer, "expected a string, found " + io::shown(value.dump()));
    return value.get_ref<const std::string &>();
  }

  /// A count or extent: an integer, or the constant string launch.json writes
  /// for a size expression at concrete sizes; nullopt for a symbolic one
  /// (whose user, e.g. export, refuses it itself).
  std::optional<int64_t> constant(const json &value, const std::string &pointer) const {
    if (value.is_number_integer()) {
      if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
        fail(pointer, "expected an integer of at most 2^63 - 1, found " + value.dump());
      return value.get<int64_t>();
    }
    if (!value.is_string()) fail(pointer, "expected an integer, found " + io::shown(value.dump()));
    const std::string &text = value.get_ref<const std::string &>();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range) fail(pointer, "'" + io::shown(text) + "' is beyond 64 bits");
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
  }

  /// A work-group: `count` extents (1 for the dimensions after them).
  std::array<int64_t, 3> extents(const json &value, const std::string &pointer, size_t count) const {
    if (!value.is_array() || value.size() != count)
      fail(pointer, "expected an array of " + std::to_string(count) + " integers");
    std::array<int64_t, 3> out{1, 1, 1};
    for (size_t d = 0; d < count; ++d) {
      std::optional<int64_t> v = constant(value[d], pointer + "/" + std::to_string(d));
      if (!v) fail(pointer + "/" + std::to_string(d), "expected an integer, found " + io::shown(value[d].dump()));
      out[d] = *v;
    }
    return out;
  }

  /// Runs `check` (of codegen/launch_limits.h), reporting its LimitError at `pointer`.
  template <typename Check> void withinLimits(const std::string &pointer, const Check &check) const {
    try {
      check();
    } catch (const codegen::LimitError &e) {
      fail(pointer, e.what());
    }
  }

private:
  std::string where_;
};

/// The kernel's name, target, index width and arguments as launch.json
/// records them: what kernelSignature needs.
codegen::Kernel recordedInterface(const EntryCheck &check, const json &kernel) {
  codegen::Kernel k;
  const json *target = check.member(kernel, "/kernel", "target");
  if (!target) check.fail("/kernel", "missing field 'target'");
  const std::string &targetName = check.string(*target, "/kernel/target");
  if (targetName == "opencl")
    k.target = codegen::Target::OpenCL;
  else if (targetName == "cuda")
    k.target = codegen::Target::CUDA;
  else
    check.fail("/kernel/target", "expected opencl or cuda, found '" + io::shown(targetName) + "'");
  const json *name = check.member(kernel, "/kernel", "name");
  if (!name) check.fail("/kernel", "missing field 'name'");
  k.name = check.string(*name, "/kernel/name");
  if (const json *bits = check.member(kernel, "/kernel", "indexBits")) {
    if (!bits->is_number_integer() || (*bits != 32 && *bits != 64))
      check.fail("/kernel/indexBits", "expected 32 or 64, found " + io::shown(bits->dump()));
    k.indexBits = bits->get<int>();
  }
  const json *args = check.member(kernel, "/kernel", "args");
  if (!args) check.fail("/kernel", "missing field 'args'");
  if (!args->is_array()) check.fail("/kernel/args", "expected an array");
  for (size_t i = 0; i < args->size(); ++i) {
    std::string at = "/kernel/args/" + std::to_string(i);
    const json &arg = (*args)[i];
    codegen::KernelArg a{"", codegen::KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)};
    for (const char *field : {"name", "role", "type"})
      if (!check.member(arg, at, field)) check.fail(at, std::string("missing field '") + field + "'");
    a.name = check.string(arg["name"], at + "/name");
    const std::string &role = check.string(arg["role"], at + "/role");
    if (role == "input")
      a.role = codegen::KernelArg::Role::Input;
    else if (role == "output")
      a.role = codegen::KernelArg::Role::Output;
    else if (role != "size")
      check.fail(at + "/role", "expected input, output or size, found '" + io::shown(role) + "'");
    const std::string &type = check.string(arg["type"], at + "/type");
    std::optional<ScalarKind> kind = parseScalarKind(type);
    if (!kind) check.fail(at + "/type", "expected bool, int, float or double, found '" + io::shown(type) + "'");
    a.kind = *kind;
    k.args.push_back(a);
  }
  return k;
}

} // namespace

void verifyBestKernel(const json &launch, const std::string &source, const std::string &directory, EntryHashes hashes) {
  EntryCheck check(directory);
  if (!launch.is_object()) check.fail("", "expected an object, found " + std::string(launch.type_name()));
  bool required = hashes == EntryHashes::Required;
  std::string kernelFile; // named alone: the directory is in every message
  try {
    kernelFile = kernelFileOf(launch);
  } catch (const std::exception &e) {
    check.fail("/kernelFile", e.what());
  }

  // The kernel file: a file replaced after its launch.json was written no
  // longer goes with that entry's time (nor its arguments).
  const json *sourceHash = check.member(launch, "", "kernelSourceHash");
  if (!sourceHash && required)
    check.fail("", "missing field 'kernelSourceHash' (the hash of " + kernelFile + "; explore writes it)");
  if (sourceHash && check.string(*sourceHash, "/kernelSourceHash") != stableHash(source))
    check.fail("/kernelSourceHash", kernelFile + " is not the kernel its launch.json was measured with (its hash is " +
                                        stableHash(source) + ", not " + io::shown(sourceHash->get<std::string>()) +
                                        ")");

  const json *kernel = check.member(launch, "", "kernel");
  if (!kernel) {
    if (required) check.fail("", "missing field 'kernel'");
    return; // an entry that says nothing about its launch: nothing else to check
  }
  if (!kernel->is_object()) check.fail("/kernel", "expected an object, found " + std::string(kernel->type_name()));

  // The arguments are the kernel function's parameters: their number, names,
  // order, types and roles are re-derived from the kernel file itself.
  if (!kernel->contains("stages")) {
    codegen::Kernel recorded = recordedInterface(check, *kernel);
    std::string signature = codegen::kernelSignature(recorded);
    if (source.find(" " + signature + " {\n") == std::string::npos)
      check.fail("/kernel/args", "not the parameters of kernel '" + io::shown(recorded.name) + "' in " + kernelFile +
                                     " (launch.json gives " + io::shown(signature, 100) + ")");
  }

  // The launch metadata and the launch's work-group, which the kernel file
  // does not say (element counts among them), as they were measured.
  const json *configuration = check.member(launch, "", "configuration");
  std::optional<std::array<int64_t, 3>> launchLocal;
  if (configuration) {
    if (const json *local = check.member(*configuration, "/configuration", "local"))
      launchLocal = check.extents(*local, "/configuration/local", 3);
  }
  const json *recordedHash = check.member(launch, "", "kernelHash");
  if (!recordedHash && required) check.fail("", "missing field 'kernelHash' (explore writes it)");
  if (recordedHash) {
    const std::string &recorded = check.string(*recordedHash, "/kernelHash");
    if (!launchLocal) check.fail("/configuration/local", "missing (the kernel hash includes the launch's work-group)");
    std::string recomputed = kernelHash(source, *kernel, *launchLocal);
    if (recorded != recomputed)
      check.fail("/kernelHash", "the kernel, /kernel or /configuration/local is not what was measured (the hash is " +
                                    recomputed + ", not " + io::shown(recorded) + ")");
  }

  // Within liftc's limits, whatever the hashes say.
  if (launchLocal && *launchLocal != std::array<int64_t, 3>{0, 0, 0})
    check.withinLimits("/configuration/local", [&] { codegen::checkWorkGroup(*launchLocal); });
  if (const json *local = check.member(*kernel, "/kernel", "localSize")) {
    size_t dims = local->is_array() ? std::min<size_t>(local->size(), 3) : 0;
    std::array<int64_t, 3> extents = check.extents(*local, "/kernel/localSize", std::max<size_t>(dims, 1));
    check.withinLimits("/kernel/localSize", [&] { codegen::checkWorkGroup(extents); });
  }
  if (const json *iterate = check.member(*kernel, "/kernel", "iterate"))
    if (const json *count = check.member(*iterate, "/kernel/iterate", "count"))
      if (std::optional<int64_t> n = check.constant(*count, "/kernel/iterate/count"))
        check.withinLimits("/kernel/iterate/count", [&] { codegen::checkIterations(*n); });
}

} // namespace liftcc::explore
