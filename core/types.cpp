#include "core/types.h"

#include "core/error.h"

#include <stdexcept>

namespace liftcc {

struct Type::Node {
  TypeKind kind;
  ScalarKind scalar = ScalarKind::Float;
  std::vector<Type> elements; // tuple elements, or the single array element
  arith::Expr length;
  int width = 0; // vector lanes
  size_t hash = 0;
};

namespace {
size_t combine(size_t seed, size_t value) { return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }
} // namespace

Type Type::scalar(ScalarKind kind) {
  auto n = std::make_shared<Node>();
  n->kind = TypeKind::Scalar;
  n->scalar = kind;
  n->hash = combine(1, static_cast<size_t>(kind));
  return Type(std::move(n));
}

Type Type::tuple(std::vector<Type> elements) {
  auto n = std::make_shared<Node>();
  n->kind = TypeKind::Tuple;
  size_t h = 2;
  for (const Type &e : elements) h = combine(h, e.hash());
  n->elements = std::move(elements);
  n->hash = h;
  return Type(std::move(n));
}

Type Type::array(Type element, arith::Expr length) {
  auto n = std::make_shared<Node>();
  n->kind = TypeKind::Array;
  n->hash = combine(combine(3, element.hash()), length.hash());
  n->elements.push_back(std::move(element));
  n->length = std::move(length);
  return Type(std::move(n));
}

bool isVectorWidth(int64_t width) { return width == 2 || width == 4 || width == 8 || width == 16; }

Type Type::vector(ScalarKind element, int width) {
  if ((element != ScalarKind::Float && element != ScalarKind::Double) || !isVectorWidth(width))
    throw InternalError("Type::vector of " + std::string(scalarKindName(element)) + " and width " +
                        std::to_string(width));
  auto n = std::make_shared<Node>();
  n->kind = TypeKind::Vector;
  n->scalar = element;
  n->width = width;
  n->hash = combine(combine(4, static_cast<size_t>(element)), static_cast<size_t>(width));
  return Type(std::move(n));
}

TypeKind Type::kind() const { return node_->kind; }

ScalarKind Type::scalarKind() const {
  if (!isScalar() && !isVector()) throw InternalError("Type::scalarKind on " + str());
  return node_->scalar;
}
int Type::vectorWidth() const {
  if (!isVector()) throw InternalError("Type::vectorWidth on " + str());
  return node_->width;
}
const std::vector<Type> &Type::tupleElements() const {
  if (!isTuple()) throw InternalError("Type::tupleElements on " + str());
  return node_->elements;
}
const Type &Type::arrayElement() const {
  if (!isArray()) throw std::logic_error("Type::arrayElement on " + str());
  return node_->elements.front();
}
const arith::Expr &Type::arrayLength() const {
  if (!isArray()) throw std::logic_error("Type::arrayLength on " + str());
  return node_->length;
}

int Type::rank() const { return isArray() ? 1 + arrayElement().rank() : 0; }
Type Type::innermost() const { return isArray() ? arrayElement().innermost() : *this; }

size_t Type::hash() const { return node_->hash; }

bool operator==(const Type &a, const Type &b) {
  if (a.node_ == b.node_) return true;
  if (a.hash() != b.hash() || a.kind() != b.kind()) return false;
  switch (a.kind()) {
  case TypeKind::Scalar: return a.node_->scalar == b.node_->scalar;
  case TypeKind::Tuple: return a.node_->elements == b.node_->elements;
  case TypeKind::Array: return a.node_->length == b.node_->length && a.node_->elements == b.node_->elements;
  case TypeKind::Vector: return a.node_->scalar == b.node_->scalar && a.node_->width == b.node_->width;
  }
  return false;
}

std::string Type::str() const {
  switch (kind()) {
  case TypeKind::Scalar: return std::string(scalarKindName(node_->scalar));
  case TypeKind::Vector: return std::string(scalarKindName(node_->scalar)) + "<" + std::to_string(node_->width) + ">";
  case TypeKind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < node_->elements.size(); ++i) s += (i ? ", " : "") + node_->elements[i].str();
    return s + ")";
  }
  case TypeKind::Array: {
    std::string len = node_->length.str();
    bool atomic = len.find_first_of(" +-*/%?") == std::string::npos;
    return "[" + arrayElement().str() + "]" + (atomic ? len : "(" + len + ")");
  }
  }
  return "?";
}

Type array(Type element, const std::vector<arith::Expr> &lengths) {
  for (auto it = lengths.rbegin(); it != lengths.rend(); ++it) element = Type::array(std::move(element), *it);
  return element;
}

Type substitute(const Type &type, const std::map<std::string, arith::Expr> &bindings) {
  switch (type.kind()) {
  case TypeKind::Scalar:
  case TypeKind::Vector: return type;
  case TypeKind::Tuple: {
    std::vector<Type> elements;
    for (const Type &e : type.tupleElements()) elements.push_back(substitute(e, bindings));
    return Type::tuple(std::move(elements));
  }
  case TypeKind::Array:
    return Type::array(substitute(type.arrayElement(), bindings), arith::substitute(type.arrayLength(), bindings));
  }
  return type;
}

arith::Expr elementCount(const Type &type) {
  arith::Expr count(1);
  for (Type t = type; t.isArray(); t = t.arrayElement()) count = count * t.arrayLength();
  return count;
}

int64_t scalarCount(const Type &type, const std::map<std::string, int64_t> &sizes) {
  // Sizes come from users (the command line, JSON), so the product is checked:
  // a silently wrapped count would turn into a tiny allocation and a crash.
  auto checkedAdd = [&](int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
      throw std::overflow_error("the value of type " + type.str() + " is too large");
    return r;
  };
  switch (type.kind()) {
  case TypeKind::Scalar: return 1;
  case TypeKind::Vector: return type.vectorWidth();
  case TypeKind::Tuple: {
    int64_t n = 0;
    for (const Type &e : type.tupleElements()) n = checkedAdd(n, scalarCount(e, sizes));
    return n;
  }
  case TypeKind::Array: {
    int64_t length = arith::evaluate(type.arrayLength(), sizes);
    if (length < 0)
      throw std::invalid_argument("the array type " + type.str() + " has negative length " + std::to_string(length));
    int64_t r;
    if (__builtin_mul_overflow(length, scalarCount(type.arrayElement(), sizes), &r))
      throw std::overflow_error("the value of type " + type.str() + " is too large");
    return r;
  }
  }
  return 0;
}

} // namespace liftcc
