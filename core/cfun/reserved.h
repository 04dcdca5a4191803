#pragma once
// Names that user functions may not use.
//
// The body is compiled as OpenCL C and as CUDA C++, so an identifier must be
// ordinary in C, C++, OpenCL C and CUDA alike: not a keyword of any of them,
// not a type (float4, uint, size_t), not a predefined macro (M_PI, NAN), and
// not reserved to the implementation (__x, _X). Function names must in
// addition not collide with OpenCL C or CUDA builtin functions, because a
// user definition of e.g. `clamp` fails to compile against the overloaded
// builtin.

#include <optional>
#include <string>
#include <string_view>

namespace liftcc::cfun {

/// Why `name` cannot name a parameter or local variable, or nullopt if it can.
std::optional<std::string> reservedVariableName(std::string_view name);

/// Why `name` cannot name a user function, or nullopt if it can.
std::optional<std::string> reservedFunctionName(std::string_view name);

/// For a keyword that starts a statement outside the subset (loops, jumps,
/// unsupported types and qualifiers): the message to report. nullopt for
/// anything else.
std::optional<std::string> unsupportedKeyword(std::string_view name);

/// True for a valid C identifier: [A-Za-z_][A-Za-z0-9_]*.
bool isIdentifier(std::string_view name);

} // namespace liftcc::cfun
