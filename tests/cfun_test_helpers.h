#pragma once
// Shared helpers for the tests/cfun_*_test.cpp suites.

#include "core/cfun/function.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace cfun_test {

using liftcc::Scalar;
using liftcc::ScalarKind;
using liftcc::cfun::CFunError;
using liftcc::cfun::Function;
using liftcc::cfun::Param;

inline Param f32(const char *name) { return {name, ScalarKind::Float}; }
inline Param f64(const char *name) { return {name, ScalarKind::Double}; }
inline Param i32(const char *name) { return {name, ScalarKind::Int}; }
inline Param b8(const char *name) { return {name, ScalarKind::Bool}; }

inline Function compile(std::vector<Param> params, ScalarKind result, const std::string &body) {
  return Function::compile("f", std::move(params), result, body);
}

/// what() of the CFunError that compiling `body` raises, or "<accepted>".
inline std::string errorOf(std::vector<Param> params, ScalarKind result, const std::string &body) {
  try {
    compile(std::move(params), result, body);
  } catch (const CFunError &e) {
    return e.what();
  }
  return "<accepted>";
}

/// Bitwise equality, so -0.0f vs 0.0f and 1-ulp differences are caught.
inline bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }
inline bool sameBits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

} // namespace cfun_test
