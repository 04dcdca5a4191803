#include "core/interp/value_io.h"

#include "core/io/safe_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace liftcc {

namespace {
void kindsOf(const Type &t, const std::map<std::string, int64_t> &sizes, std::vector<ScalarKind> &out) {
  switch (t.kind()) {
  case TypeKind::Scalar: out.push_back(t.scalarKind()); return;
  case TypeKind::Tuple:
    for (const Type &e : t.tupleElements()) kindsOf(e, sizes, out);
    return;
  case TypeKind::Array: {
    int64_t n = arith::evaluate(t.arrayLength(), sizes);
    std::vector<ScalarKind> element;
    kindsOf(t.arrayElement(), sizes, element);
    for (int64_t i = 0; i < n; ++i) out.insert(out.end(), element.begin(), element.end());
    return;
  }
  case TypeKind::Vector: out.insert(out.end(), static_cast<size_t>(t.vectorWidth()), t.scalarKind()); return;
  }
}

template <typename T> void append(std::vector<std::byte> &out, T value) {
  const auto *p = reinterpret_cast<const std::byte *>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

template <typename T> T load(const std::byte *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
} // namespace

size_t scalarByteSize(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool: return 1;
  case ScalarKind::Int: return 4;
  case ScalarKind::Float: return 4;
  case ScalarKind::Double: return 8;
  }
  return 0;
}

size_t byteCount(const Type &type, const std::map<std::string, int64_t> &sizes) {
  switch (type.kind()) {
  case TypeKind::Scalar: return scalarByteSize(type.scalarKind());
  case TypeKind::Tuple: {
    size_t total = 0;
    for (const Type &e : type.tupleElements()) total += byteCount(e, sizes);
    return total;
  }
  case TypeKind::Array:
    return static_cast<size_t>(std::max<int64_t>(arith::evaluate(type.arrayLength(), sizes), 0)) *
           byteCount(type.arrayElement(), sizes);
  case TypeKind::Vector: return static_cast<size_t>(type.vectorWidth()) * scalarByteSize(type.scalarKind());
  }
  return 0;
}

namespace {
// Mirrors Value::random draw for draw, so both give the same scalars.
void appendRandom(const Type &type, const std::map<std::string, int64_t> &sizes, std::mt19937_64 &rng,
                  std::vector<std::byte> &out) {
  switch (type.kind()) {
  case TypeKind::Scalar: {
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int32_t> integer(-100, 100);
    switch (type.scalarKind()) {
    case ScalarKind::Bool: append<uint8_t>(out, integer(rng) >= 0 ? 1 : 0); return;
    case ScalarKind::Int: append<int32_t>(out, integer(rng)); return;
    case ScalarKind::Float: append<float>(out, static_cast<float>(real(rng))); return;
    case ScalarKind::Double: append<double>(out, real(rng)); return;
    }
    return;
  }
  case TypeKind::Tuple:
    for (const Type &e : type.tupleElements()) appendRandom(e, sizes, rng, out);
    return;
  case TypeKind::Array: {
    int64_t n = arith::evaluate(type.arrayLength(), sizes);
    for (int64_t i = 0; i < n; ++i) appendRandom(type.arrayElement(), sizes, rng, out);
    return;
  }
  case TypeKind::Vector:
    for (int l = 0; l < type.vectorWidth(); ++l) appendRandom(Type::scalar(type.scalarKind()), sizes, rng, out);
    return;
  }
}
} // namespace

std::vector<std::byte> randomBytes(const Type &type, const std::map<std::string, int64_t> &sizes,
                                   std::mt19937_64 &rng) {
  std::vector<std::byte> out;
  out.reserve(byteCount(type, sizes));
  appendRandom(type, sizes, rng, out);
  return out;
}

std::vector<std::byte> toBytes(const Value &value) {
  std::vector<std::byte> out;
  for (const Scalar &s : value.flatten()) {
    switch (s.kind()) {
    case ScalarKind::Bool: append<uint8_t>(out, s.asBool() ? 1 : 0); break;
    case ScalarKind::Int: append<int32_t>(out, s.asInt()); break;
    case ScalarKind::Float: append<float>(out, s.asFloat()); break;
    case ScalarKind::Double: append<double>(out, s.asDouble()); break;
    }
  }
  return out;
}

Value fromBytes(std::span<const std::byte> bytes, const Type &type, const std::map<std::string, int64_t> &sizes) {
  // Checked before expanding the kinds, so a huge type cannot exhaust memory.
  (void)scalarCount(type, sizes);
  std::vector<ScalarKind> kinds;
  kindsOf(type, sizes, kinds);
  size_t expected = 0;
  for (ScalarKind k : kinds) expected += scalarByteSize(k);
  if (bytes.size() != expected)
    throw std::invalid_argument("has " + std::to_string(bytes.size()) + " bytes but " + type.str() + " needs " +
                                std::to_string(expected));
  std::vector<Scalar> flat;
  flat.reserve(kinds.size());
  const std::byte *p = bytes.data();
  for (ScalarKind k : kinds) {
    switch (k) {
    case ScalarKind::Bool: flat.push_back(Scalar::ofBool(load<uint8_t>(p) != 0)); break;
    case ScalarKind::Int: flat.push_back(Scalar::ofInt(load<int32_t>(p))); break;
    case ScalarKind::Float: flat.push_back(Scalar::ofFloat(load<float>(p))); break;
    case ScalarKind::Double: flat.push_back(Scalar::ofDouble(load<double>(p))); break;
    }
    p += scalarByteSize(k);
  }
  return Value::fromFlat(type, sizes, flat);
}

Value readBinaryValue(const std::string &path, const Type &type, const std::map<std::string, int64_t> &sizes) {
  // Capped at the bytes the type needs: /dev/zero or a huge file is refused, not read.
  std::string text = io::readFileCapped(path, byteCount(type, sizes), "input file");
  try {
    return fromBytes(std::as_bytes(std::span(text.data(), text.size())), type, sizes);
  } catch (const std::invalid_argument &e) {
    throw std::runtime_error("'" + path + "' " + e.what());
  }
}

void writeBinaryValue(const std::string &path, const Value &value) {
  std::vector<std::byte> bytes = toBytes(value);
  io::writeFile(path, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

} // namespace liftcc
