#pragma once
// A result of several arrays (a tuple of arrays, an array of tuples, any
// nesting) is stored as a structure of arrays: one buffer per component, a
// component being the array of one scalar position of the tuples, in the
// order of the scalars in the type. `[(float, int)]N` has the components
// `[float]N` and `[int]N`; `([float]N, [[float]M]N)` has itself as its two.
// Kernels write one output buffer per component, `liftc eval --output` one
// file per component; a result without tuples is its one component.

#include "core/interp/value.h"
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace liftcc {

/// The components of `type`, in order (arrays of scalars, or scalars).
std::vector<Type> components(const Type &type);

/// How many components `type` has.
size_t componentCount(const Type &type);
/// Whether `type` has a tuple anywhere (else it is its own one component).
bool hasTuple(const Type &type);

/// Each component of `value` (of type `type`) as row-major bytes (value_io.h).
std::vector<std::vector<std::byte>> componentBytes(const Value &value, const Type &type,
                                                   const std::map<std::string, int64_t> &sizes);

/// The value of `type` from the bytes of its components, one after another
/// in order. Throws std::invalid_argument when the byte count does not match.
Value fromComponentBytes(std::span<const std::byte> bytes, const Type &type,
                         const std::map<std::string, int64_t> &sizes);

} // namespace liftcc
