#pragma once
// Small pieces of C text for the exported host code.

#include <string>

namespace liftcc::exporter {

/// True for a C identifier ([A-Za-z_][A-Za-z0-9_]*) that is not a C or C++ keyword.
bool isCIdentifier(const std::string &name);

/// A C identifier made from any text (a program name like "jacobi2d-5pt"):
/// other characters become '_', a leading digit gets a '_' in front.
std::string cIdentifierFrom(const std::string &text);

/// The identifier in upper case, for macro and enum names.
std::string upperCase(const std::string &identifier);

/// `text` as a C string literal, split after each newline into adjacent
/// literals (one source line per line of C), with every character that is
/// not printable ASCII escaped in octal.
std::string cStringLiteral(const std::string &text, const std::string &indent);

/// Prefixes every line of `text` with " * " for a block comment, removing
/// any "*/" so the comment cannot end early.
std::string commentLines(const std::string &text);

} // namespace liftcc::exporter
