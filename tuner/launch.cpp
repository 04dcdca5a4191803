#include "tuner/launch.h"

#include "core/error.h"
#include "core/interp/components.h"
#include "core/interp/value_io.h"

#include <limits>
#include <stdexcept>

namespace liftcc::tuner {

InputBytes toInputBytes(const std::vector<Value> &inputs) {
  InputBytes bytes;
  bytes.reserve(inputs.size());
  for (const Value &v : inputs) bytes.push_back(toBytes(v));
  return bytes;
}

size_t bufferBytes(const codegen::KernelArg &arg, const std::map<std::string, int64_t> &sizes) {
  return static_cast<size_t>(arith::evaluate(arg.count, sizes)) * scalarByteSize(arg.kind);
}

int32_t sizeArgument(const codegen::KernelArg &arg, const std::map<std::string, int64_t> &sizes) {
  auto it = sizes.find(arg.name);
  if (it == sizes.end()) throw std::invalid_argument("no value for size " + arg.name);
  if (it->second > std::numeric_limits<int32_t>::max())
    throw std::invalid_argument("size " + arg.name + " does not fit the kernel's int arguments");
  return static_cast<int32_t>(it->second);
}

KernelRun toKernelRun(RawRun raw, const Type &resultType, const std::map<std::string, int64_t> &sizes) {
  // A result with tuples comes as its components' buffers, one after another.
  if (hasTuple(resultType))
    return KernelRun{fromComponentBytes(raw.output, resultType, sizes), std::move(raw.timesNs), raw.medianNs};
  size_t expected = byteCount(resultType, sizes);
  if (raw.output.size() < expected)
    throw InternalError("the kernel's output buffer has " + std::to_string(raw.output.size()) +
                        " bytes, the result needs " + std::to_string(expected));
  raw.output.resize(expected);
  return KernelRun{fromBytes(raw.output, resultType, sizes), std::move(raw.timesNs), raw.medianNs};
}

} // namespace liftcc::tuner
