#include "core/interp/value_io.h"

#include <cstring>
#include <fstream>
#include <stdexcept>

namespace liftcc {

namespace {
size_t byteSize(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool: return 1;
  case ScalarKind::Int: return 4;
  case ScalarKind::Float: return 4;
  case ScalarKind::Double: return 8;
  }
  return 0;
}

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
  }
}
} // namespace

Value readBinaryValue(const std::string &path, const Type &type, const std::map<std::string, int64_t> &sizes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path + "' for reading");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<ScalarKind> kinds;
  kindsOf(type, sizes, kinds);
  size_t expected = 0;
  for (ScalarKind k : kinds) expected += byteSize(k);
  if (bytes.size() != expected)
    throw std::runtime_error("'" + path + "' has " + std::to_string(bytes.size()) + " bytes but " + type.str() + " needs " +
                             std::to_string(expected));
  std::vector<Scalar> flat;
  flat.reserve(kinds.size());
  size_t pos = 0;
  for (ScalarKind k : kinds) {
    const char *p = bytes.data() + pos;
    switch (k) {
    case ScalarKind::Bool: flat.push_back(Scalar::ofBool(*p != 0)); break;
    case ScalarKind::Int: { int32_t v; std::memcpy(&v, p, 4); flat.push_back(Scalar::ofInt(v)); break; }
    case ScalarKind::Float: { float v; std::memcpy(&v, p, 4); flat.push_back(Scalar::ofFloat(v)); break; }
    case ScalarKind::Double: { double v; std::memcpy(&v, p, 8); flat.push_back(Scalar::ofDouble(v)); break; }
    }
    pos += byteSize(k);
  }
  return Value::fromFlat(type, sizes, flat);
}

void writeBinaryValue(const std::string &path, const Value &value) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot open '" + path + "' for writing");
  for (const Scalar &s : value.flatten()) {
    switch (s.kind()) {
    case ScalarKind::Bool: { char b = s.asBool() ? 1 : 0; out.write(&b, 1); break; }
    case ScalarKind::Int: { int32_t v = s.asInt(); out.write(reinterpret_cast<const char *>(&v), 4); break; }
    case ScalarKind::Float: { float v = s.asFloat(); out.write(reinterpret_cast<const char *>(&v), 4); break; }
    case ScalarKind::Double: { double v = s.asDouble(); out.write(reinterpret_cast<const char *>(&v), 8); break; }
    }
  }
  if (!out) throw std::runtime_error("failed writing '" + path + "'");
}

} // namespace liftcc
