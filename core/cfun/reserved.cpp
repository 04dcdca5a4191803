#include "core/cfun/reserved.h"

#include "core/cfun/builtins.h"

#include <algorithm>
#include <iterator>

namespace liftcc::cfun {
namespace {

template <std::size_t N> bool contains(const std::string_view (&list)[N], std::string_view s) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

// Loops and jumps: the evaluator relies on bodies being loop-free.
constexpr std::string_view kControl[] = {"for",     "while", "do",    "switch",  "case",
                                         "default", "goto",  "break", "continue"};

// Types other than bool/int/float/double, in C, C++, OpenCL C and CUDA.
constexpr std::string_view kOtherTypes[] = {
    "void", "char", "short", "long", "signed", "unsigned", "half", "uchar", "ushort", "uint", "ulong", "size_t",
    "ptrdiff_t", "intptr_t", "uintptr_t", "_Bool", "_Complex", "_Imaginary", "wchar_t", "char8_t", "char16_t",
    "char32_t", "image1d_t", "image2d_t", "image3d_t", "sampler_t", "event_t", "auto", "struct", "union", "enum",
    "typedef",
    // OpenCL C 2.x opaque types and words OpenCL C reserves for future use
    "queue_t", "ndrange_t", "clk_event_t", "reserve_id_t", "image1d_array_t", "image2d_array_t", "image1d_buffer_t",
    "image2d_depth_t", "image2d_array_depth_t", "quad", "complex", "imaginary"};

// Other keywords and qualifiers of C, C++ (CUDA is C++) and OpenCL C.
constexpr std::string_view kOtherKeywords[] = {
    // C
    "extern", "inline", "register", "restrict", "sizeof", "static", "volatile", "_Alignas", "_Alignof", "_Atomic",
    "_Generic", "_Noreturn", "_Static_assert", "_Thread_local",
    // C++
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch", "class", "compl", "concept", "const_cast",
    "consteval", "constexpr", "constinit", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator",
    "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_assert", "static_cast",
    "template", "this", "thread_local", "throw", "try", "typeid", "typename", "using", "virtual", "xor", "xor_eq",
    // OpenCL C address spaces, access qualifiers and specifiers
    "kernel", "global", "local", "constant", "read_only", "write_only", "read_write", "uniform", "pipe"};

// Words the subset itself uses; they can never be variable names.
constexpr std::string_view kSubsetKeywords[] = {"if",  "else",  "return", "const", "bool",
                                                "int", "float", "double", "true",  "false"};

// Object-like macros predefined by OpenCL C or by the math headers CUDA
// includes; a variable with such a name would be macro-expanded.
// `errno` is an object-like macro in the C library headers CUDA includes.
constexpr std::string_view kMacros[] = {
    "MAXFLOAT",     "HUGE_VAL",   "HUGE_VALF",  "INFINITY",       "NAN",
    "NULL",         "EOF",        "errno",      "RAND_MAX",       "EXIT_SUCCESS",
    "EXIT_FAILURE", "MB_CUR_MAX", "MATH_ERRNO", "MATH_ERREXCEPT", "math_errhandling"};
constexpr std::string_view kMacroPrefixes[] = {
    "M_",      "FLT_",     "DBL_",    "HALF_",    "INT_",    "UINT_",    "CHAR_",  "SCHAR_", "UCHAR_",
    "SHRT_",   "USHRT_",   "LONG_",   "ULONG_",   "FP_",     "CL_",      "CLK_",   "CUDA_",  "CUDART_",
    "SIZE_",   "PTRDIFF_", "WCHAR_",  "INT8_",    "INT16_",  "INT32_",   "INT64_", "UINT8_", "UINT16_",
    "UINT32_", "UINT64_",  "INTMAX_", "UINTMAX_", "INTPTR_", "UINTPTR_", "LLONG_", "ULLONG_"};

// CUDA built-in variables; legal to shadow, but confusing in kernel code.
constexpr std::string_view kCudaBuiltinVars[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};

// OpenCL C builtin functions (math, integer, common, geometric, relational,
// vector, synchronisation, work-item) and CUDA device functions with the
// same spelling; prefixes cover the families below.
constexpr std::string_view kBuiltinFunctions[] = {"acos",
                                                  "acosh",
                                                  "acospi",
                                                  "asin",
                                                  "asinh",
                                                  "asinpi",
                                                  "atan",
                                                  "atan2",
                                                  "atanh",
                                                  "atanpi",
                                                  "atan2pi",
                                                  "cbrt",
                                                  "ceil",
                                                  "copysign",
                                                  "cos",
                                                  "cosh",
                                                  "cospi",
                                                  "erfc",
                                                  "erf",
                                                  "exp",
                                                  "exp2",
                                                  "exp10",
                                                  "expm1",
                                                  "fabs",
                                                  "fdim",
                                                  "floor",
                                                  "fma",
                                                  "fmax",
                                                  "fmin",
                                                  "fmod",
                                                  "fract",
                                                  "frexp",
                                                  "hypot",
                                                  "ilogb",
                                                  "ldexp",
                                                  "lgamma",
                                                  "lgamma_r",
                                                  "log",
                                                  "log2",
                                                  "log10",
                                                  "log1p",
                                                  "logb",
                                                  "mad",
                                                  "maxmag",
                                                  "minmag",
                                                  "modf",
                                                  "nan",
                                                  "nextafter",
                                                  "pow",
                                                  "pown",
                                                  "powr",
                                                  "remainder",
                                                  "remquo",
                                                  "rint",
                                                  "rootn",
                                                  "round",
                                                  "rsqrt",
                                                  "sin",
                                                  "sincos",
                                                  "sinh",
                                                  "sinpi",
                                                  "sqrt",
                                                  "tan",
                                                  "tanh",
                                                  "tanpi",
                                                  "tgamma",
                                                  "trunc",
                                                  "abs",
                                                  "abs_diff",
                                                  "add_sat",
                                                  "hadd",
                                                  "rhadd",
                                                  "clamp",
                                                  "clz",
                                                  "ctz",
                                                  "mad_hi",
                                                  "mad_sat",
                                                  "max",
                                                  "min",
                                                  "mul_hi",
                                                  "rotate",
                                                  "sub_sat",
                                                  "upsample",
                                                  "popcount",
                                                  "mad24",
                                                  "mul24",
                                                  "degrees",
                                                  "mix",
                                                  "radians",
                                                  "step",
                                                  "smoothstep",
                                                  "sign",
                                                  "cross",
                                                  "dot",
                                                  "distance",
                                                  "length",
                                                  "normalize",
                                                  "fast_distance",
                                                  "fast_length",
                                                  "fast_normalize",
                                                  "isequal",
                                                  "isnotequal",
                                                  "isgreater",
                                                  "isgreaterequal",
                                                  "isless",
                                                  "islessequal",
                                                  "islessgreater",
                                                  "isfinite",
                                                  "isinf",
                                                  "isnan",
                                                  "isnormal",
                                                  "isordered",
                                                  "isunordered",
                                                  "signbit",
                                                  "any",
                                                  "all",
                                                  "bitselect",
                                                  "select",
                                                  "shuffle",
                                                  "shuffle2",
                                                  "barrier",
                                                  "mem_fence",
                                                  "read_mem_fence",
                                                  "write_mem_fence",
                                                  "prefetch",
                                                  "printf",
                                                  "wait_group_events",
                                                  "async_work_group_copy",
                                                  "async_work_group_strided_copy",
                                                  "main",
                                                  "fpclassify",
                                                  "llabs",
                                                  "labs",
                                                  "lrint",
                                                  "lround",
                                                  "llrint",
                                                  "llround",
                                                  "nearbyint",
                                                  "scalbn",
                                                  "scalbln",
                                                  "nexttoward",
                                                  "rcbrt",
                                                  "saturate",
                                                  "normcdf",
                                                  "erfinv"};
constexpr std::string_view kBuiltinFunctionPrefixes[] = {
    "convert_", "as_", "vload", "vstore", "atom_", "atomic_", "read_image", "write_image", "work_group_", "sub_group_"};
constexpr std::string_view kWorkItemFunctions[] = {
    "get_work_dim",           "get_global_size",     "get_global_id",
    "get_local_size",         "get_local_id",        "get_num_groups",
    "get_group_id",           "get_global_offset",   "get_enqueued_local_size",
    "get_global_linear_id",   "get_local_linear_id", "get_sub_group_size",
    "get_max_sub_group_size", "get_num_sub_groups",  "get_sub_group_id",
    "get_sub_group_local_id"};

bool hasPrefix(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// OpenCL and CUDA vector types: char2 .. double16, also uchar3 etc.
bool isVectorTypeName(std::string_view name) {
  static constexpr std::string_view bases[] = {"char",  "uchar", "short",  "ushort", "int",      "uint",     "long",
                                               "ulong", "float", "double", "half",   "longlong", "ulonglong"};
  for (std::string_view base : bases) {
    if (!hasPrefix(name, base)) continue;
    std::string_view n = name.substr(base.size());
    if (n == "1" || n == "2" || n == "3" || n == "4" || n == "8" || n == "16") return true;
  }
  return false;
}

std::optional<std::string> reservedIdentifier(std::string_view name) {
  std::string q = "'" + std::string(name) + "'";
  if (contains(kSubsetKeywords, name) || contains(kControl, name) || contains(kOtherKeywords, name))
    return q + " is a keyword";
  if (contains(kOtherTypes, name) || isVectorTypeName(name)) return q + " is a type name";
  if (hasPrefix(name, "__") || (name.size() >= 2 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'))
    return q + " is reserved for the implementation (leading '__' or '_' plus capital)";
  // C++ (and so CUDA) reserves a double underscore anywhere in a name.
  if (name.find("__") != std::string_view::npos) return q + " is reserved in C++ (it contains '__')";
  if (contains(kMacros, name)) return q + " is a predefined macro in OpenCL C or CUDA";
  for (std::string_view p : kMacroPrefixes)
    if (hasPrefix(name, p)) return q + " looks like a predefined macro (prefix " + std::string(p) + ")";
  if (contains(kCudaBuiltinVars, name)) return q + " is a CUDA built-in variable";
  return std::nullopt;
}

} // namespace

bool isIdentifier(std::string_view name) {
  if (name.empty()) return false;
  auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!start(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return start(c) || (c >= '0' && c <= '9'); });
}

std::string identityFunctionName(ScalarKind kind) { return "id_" + std::string(scalarKindName(kind)); }

std::optional<std::string> generatedName(std::string_view name) {
  std::string q = "'" + std::string(name) + "'";
  if (hasPrefix(name, kGeneratedPrefix))
    return q + " uses the prefix " + std::string(kGeneratedPrefix) +
           ", reserved for the names liftcc generates (liftcc_min, liftcc_size_N, ...)";
  for (ScalarKind kind : {ScalarKind::Bool, ScalarKind::Int, ScalarKind::Float, ScalarKind::Double})
    if (name == identityFunctionName(kind))
      return q + " is reserved for the identity function liftcc generates to copy " +
             std::string(scalarKindName(kind)) + " values into local or private memory";
  return std::nullopt;
}

std::optional<std::string> reservedVariableName(std::string_view name) {
  if (auto why = reservedIdentifier(name)) return why;
  if (auto why = generatedName(name)) return why;
  // A variable with the name of a callable builtin would hide it, so a later
  // call would be an error in C; refusing the name gives a clearer message.
  if (findBuiltin(name) || name == "abs" || floatSuffixedBuiltin(name))
    return "'" + std::string(name) + "' is the name of a math function";
  return std::nullopt;
}

std::optional<std::string> reservedFunctionName(std::string_view name) {
  if (auto why = reservedIdentifier(name)) return why;
  std::string q = "'" + std::string(name) + "'";
  if (contains(kBuiltinFunctions, name) || contains(kWorkItemFunctions, name) || floatSuffixedBuiltin(name))
    return q + " is an OpenCL C or CUDA builtin function";
  // half_cos, native_exp, ...: OpenCL's reduced-precision variants.
  for (std::string_view p : {std::string_view("half_"), std::string_view("native_")}) {
    std::string_view rest = name.substr(std::min(name.size(), p.size()));
    if (hasPrefix(name, p) && (contains(kBuiltinFunctions, rest) || rest == "divide" || rest == "recip"))
      return q + " is an OpenCL C builtin function";
  }
  for (std::string_view p : kBuiltinFunctionPrefixes)
    if (hasPrefix(name, p)) return q + " clashes with OpenCL C builtin functions (prefix " + std::string(p) + ")";
  // f-suffixed forms of any C math function (cbrtf, hypotf, ...) are CUDA
  // device functions.
  if (name.size() > 1 && name.back() == 'f' && contains(kBuiltinFunctions, name.substr(0, name.size() - 1)))
    return q + " is a CUDA math function";
  return std::nullopt;
}

std::optional<std::string> unsupportedKeyword(std::string_view name) {
  std::string q = "'" + std::string(name) + "'";
  if (contains(kControl, name)) return q + " is not supported: user functions are loop-free (use if/else and ?:)";
  if (contains(kOtherTypes, name) || isVectorTypeName(name))
    return "type " + q + " is not supported; use bool, int, float or double";
  if (contains(kOtherKeywords, name)) return q + " is not supported in user functions";
  return std::nullopt;
}

} // namespace liftcc::cfun
