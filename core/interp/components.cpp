#include "core/interp/components.h"

#include "core/interp/value_io.h"

#include <stdexcept>

namespace liftcc {

namespace {

void collect(const Type &type, std::vector<arith::Expr> &lengths, std::vector<Type> &out) {
  if (type.isArray()) {
    lengths.push_back(type.arrayLength());
    collect(type.arrayElement(), lengths, out);
    lengths.pop_back();
  } else if (type.isTuple()) {
    for (const Type &t : type.tupleElements()) collect(t, lengths, out);
  } else {
    Type component = type;
    for (auto it = lengths.rbegin(); it != lengths.rend(); ++it) component = Type::array(component, *it);
    out.push_back(component);
  }
}

/// The scalars of `value` appended to their component's list (row-major
/// within each component, because every component repeats the arrays).
void split(const Value &value, const Type &type, size_t first, std::vector<std::vector<Scalar>> &out) {
  if (type.isArray()) {
    for (const Value &e : value.elements()) split(e, type.arrayElement(), first, out);
  } else if (type.isTuple()) {
    for (size_t k = 0; k < type.tupleElements().size(); ++k) {
      split(value.elements().at(k), type.tupleElements()[k], first, out);
      first += componentCount(type.tupleElements()[k]);
    }
  } else {
    out.at(first).push_back(value.scalar());
  }
}

Value build(const Type &type, size_t first, const std::vector<std::vector<Scalar>> &flat, std::vector<size_t> &next,
            const std::map<std::string, int64_t> &sizes) {
  if (type.isArray()) {
    int64_t n = arith::evaluate(type.arrayLength(), sizes);
    std::vector<Value> elements;
    elements.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) elements.push_back(build(type.arrayElement(), first, flat, next, sizes));
    return Value::array(std::move(elements));
  }
  if (type.isTuple()) {
    std::vector<Value> elements;
    for (const Type &t : type.tupleElements()) {
      elements.push_back(build(t, first, flat, next, sizes));
      first += componentCount(t);
    }
    return Value::tuple(std::move(elements));
  }
  return flat.at(first).at(next.at(first)++);
}

} // namespace

size_t componentCount(const Type &type) {
  if (type.isArray()) return componentCount(type.arrayElement());
  if (!type.isTuple()) return 1;
  size_t n = 0;
  for (const Type &t : type.tupleElements()) n += componentCount(t);
  return n;
}

bool hasTuple(const Type &type) {
  if (type.isArray()) return hasTuple(type.arrayElement());
  return type.isTuple();
}

std::vector<Type> components(const Type &type) {
  std::vector<arith::Expr> lengths;
  std::vector<Type> out;
  collect(type, lengths, out);
  return out;
}

std::vector<std::vector<std::byte>> componentBytes(const Value &value, const Type &type,
                                                   const std::map<std::string, int64_t> &sizes) {
  std::vector<Type> parts = components(type);
  std::vector<std::vector<Scalar>> flat(parts.size());
  split(value, type, 0, flat);
  std::vector<std::vector<std::byte>> out;
  for (size_t k = 0; k < parts.size(); ++k) out.push_back(toBytes(Value::fromFlat(parts[k], sizes, flat[k])));
  return out;
}

Value fromComponentBytes(std::span<const std::byte> bytes, const Type &type,
                         const std::map<std::string, int64_t> &sizes) {
  std::vector<Type> parts = components(type);
  std::vector<std::vector<Scalar>> flat;
  size_t offset = 0;
  for (const Type &part : parts) {
    size_t n = byteCount(part, sizes);
    if (offset + n > bytes.size())
      throw std::invalid_argument("expected " + std::to_string(byteCount(type, sizes)) + " bytes for " + type.str() +
                                  ", got " + std::to_string(bytes.size()));
    flat.push_back(fromBytes(bytes.subspan(offset, n), part, sizes).flatten());
    offset += n;
  }
  if (offset != bytes.size())
    throw std::invalid_argument("expected " + std::to_string(offset) + " bytes for " + type.str() + ", got " +
                                std::to_string(bytes.size()));
  std::vector<size_t> next(parts.size(), 0);
  return build(type, 0, flat, next, sizes);
}

} // namespace liftcc
