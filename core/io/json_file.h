#pragma once
// Reading a JSON file liftc wrote (a launch.json of a best-kernel directory):
// through io::readFileCapped, so a FIFO, device or huge file is refused
// before it is read, and parsed with a nesting cap, so every failure is one
// line naming the file.

#include "core/io/json.h"

#include <cstdint>
#include <string>

namespace liftcc::io {

/// JSON nested deeper than this is refused (liftc's own files nest < 10).
inline constexpr int kMaxJsonFileDepth = 64;

/// `what` of a nlohmann::json exception without the library's
/// "[json.exception.parse_error.101] " prefix: the rest says what and where,
/// in words a user can act on. Any other text is returned as it is.
std::string withoutJsonLibraryPrefix(const std::string &what);

/// Parses `text` with the nesting cap (nlohmann's parser is iterative, but
/// dumping or walking a value recurses). Throws liftcc::Error with the reason
/// alone (where in the text, or the cap), for callers that name the place.
nlohmann::json parseJsonBounded(const std::string &text);

/// Parses `text` read from `where` (a file name for messages). Throws
/// liftcc::Error "<where>: not JSON: <what and where in the text>".
nlohmann::json parseJsonText(const std::string &text, const std::string &where);

/// readFileCapped(path, maxBytes, what) then parseJsonText.
nlohmann::json readJsonFile(const std::string &path, uint64_t maxBytes, const std::string &what);

} // namespace liftcc::io
