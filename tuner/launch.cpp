#include "tuner/launch.h"

#include "core/interp/value_io.h"

#include <stdexcept>

namespace liftcc::tuner {

InputBytes toInputBytes(const std::vector<Value> &inputs) {
  InputBytes bytes;
  bytes.reserve(inputs.size());
  for (const Value &v : inputs) bytes.push_back(toBytes(v));
  return bytes;
}

KernelRun toKernelRun(RawRun raw, const Type &resultType, const std::map<std::string, int64_t> &sizes) {
  size_t expected = byteCount(resultType, sizes);
  if (raw.output.size() < expected)
    throw std::logic_error("the kernel's output buffer has " + std::to_string(raw.output.size()) + " bytes, the result needs " +
                           std::to_string(expected));
  raw.output.resize(expected);
  return KernelRun{fromBytes(raw.output, resultType, sizes), std::move(raw.timesNs)};
}

} // namespace liftcc::tuner
