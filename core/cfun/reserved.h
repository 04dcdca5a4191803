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

#include "core/scalar.h"

#include <optional>
#include <string>
#include <string_view>

namespace liftcc::cfun {

// ---- Names liftcc generates -------------------------------------------------
// The code generator and the rewrites put names of their own into kernels
// next to the program's. Those that are fixed are reserved here, in one
// place, and refused in programs (sizes, inputs, user functions, their
// parameters and locals), so a name the user wrote can never make a later
// stage fail over a name the user never wrote:
//  - every helper the generator defines starts with kGeneratedPrefix
//    (liftcc_min, liftcc_max, liftcc_size_N, liftcc_border_f, CUDA's
//    liftcc_float4 vector structs, the default kernel name liftcc_kernel);
//  - the local and private memory rewrites copy values with the identity
//    user function identityFunctionName(kind) (id_float, id_double, ...).
// The other names the generator makes (temporaries gid0_0, acc_1, tile_0,
// outputs out and out_0, stage kernels NAME_stage1, vector versions f_v4_0)
// are drawn fresh, skipping every name the program uses, so they need no
// reservation.

/// The prefix of every helper name the code generator defines.
inline constexpr std::string_view kGeneratedPrefix = "liftcc_";

/// The identity user function of `kind` that the rewrites insert ("id_float"):
/// one parameter kIdentityParameter of `kind`, the body kIdentityBody.
std::string identityFunctionName(ScalarKind kind);
inline constexpr std::string_view kIdentityParameter = "x";
inline constexpr std::string_view kIdentityBody = "return x;";

/// Why `name` is one of the names liftcc generates, or nullopt if it is not.
std::optional<std::string> generatedName(std::string_view name);

/// Why `name` cannot name a parameter or local variable (of a user function
/// or a kernel: sizes and inputs), or nullopt if it can. Includes generatedName.
std::optional<std::string> reservedVariableName(std::string_view name);

/// Why `name` cannot name a user function, or nullopt if it can. Does not
/// include generatedName: the generator's own functions (and kernel names) pass.
std::optional<std::string> reservedFunctionName(std::string_view name);

/// For a keyword that starts a statement outside the subset (loops, jumps,
/// unsupported types and qualifiers): the message to report. nullopt for
/// anything else.
std::optional<std::string> unsupportedKeyword(std::string_view name);

/// True for a valid C identifier: [A-Za-z_][A-Za-z0-9_]*.
bool isIdentifier(std::string_view name);

} // namespace liftcc::cfun
