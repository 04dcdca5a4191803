#pragma once
// Tokeniser for user-function bodies.
//
// It splits text exactly as a C preprocessor would (maximal munch for
// punctuators, whole pp-numbers), so the parser never sees a different token
// sequence from the one OpenCL or CUDA compilers will see. Tokens outside the
// subset (e.g. `<<`, `++`) are still produced so the parser can name them in
// its error message; characters that could change how the backends read the
// text (backslash line splices, trigraphs, `#`, quotes, non-ASCII) are
// rejected here.

#include "core/cfun/errors.h"
#include "core/scalar.h"

#include <string>
#include <string_view>
#include <vector>

namespace liftcc::cfun {

enum class TokenKind {
  Identifier, ///< also keywords; the parser tells them apart by text
  Number,     ///< a validated literal; `value` holds it
  Punct,      ///< operator or punctuator, text in `text`
  End,
};

struct Token {
  TokenKind kind;
  std::string text;
  SourcePos pos;
  Scalar value; ///< Number only: Int, Float (f suffix) or Double
};

/// Tokenises `body`; the result always ends with an End token positioned just
/// past the last character. Throws CFunError.
std::vector<Token> tokenize(std::string_view body);

} // namespace liftcc::cfun
