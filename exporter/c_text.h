#pragma once
// Small pieces of C text for the exported host code.

#include <string>
#include <string_view>
#include <vector>

namespace liftcc::exporter {

/// True for a C identifier ([A-Za-z_][A-Za-z0-9_]*) that is not a C or C++ keyword.
bool isCIdentifier(const std::string &name);

/// A C identifier made from any text (a program name like "jacobi2d-5pt"):
/// other characters become '_', a leading digit gets a '_' in front.
std::string cIdentifierFrom(const std::string &text);

/// The identifier in upper case, for macro and enum names.
std::string upperCase(const std::string &identifier);

/// Where escaped text goes in the exported C.
enum class CText {
  Literal, ///< inside "...": quotes escaped too
  Comment, ///< inside /* ... */
};

/// `text` made safe for `where`, the one escaping of every string liftc puts
/// into exported C (device names, keys, sizes, program names, paths, kernel
/// sources): backslash, newline, tab and '?' after '?' (no trigraph) in C's
/// escapes, every other control character and every byte that is not ASCII
/// in three-digit octal ("\303\251" for an e with an acute accent); in a
/// literal also '"' and every '?'; in a comment "/" + "*" and "*" + "/" get a
/// backslash between them, so a comment can neither end early nor nest (a
/// -Wcomment warning). The result is one line of printable ASCII.
std::string escapeC(std::string_view text, CText where);

/// `text` as a C string literal, split after each newline into adjacent
/// literals (one source line per line of C), escaped by escapeC.
std::string cStringLiteral(const std::string &text, const std::string &indent);

/// `text` cut into pieces of at most `most` bytes, after a newline where one
/// is near enough: C99 compilers need to support string literals of only
/// 4095 characters (-pedantic warns above), so a long kernel source is
/// embedded as an array of pieces. Empty text is one empty piece.
std::vector<std::string> literalPieces(const std::string &text, size_t most = 4000);

/// A block comment ("/*", a " * " line per entry of `lines`, " */"), each
/// line escaped by escapeC: a newline inside one is shown as \n, so every
/// entry stays one line whatever it holds.
std::string blockComment(const std::vector<std::string> &lines);

} // namespace liftcc::exporter
