#include "core/io/json_file.h"

#include "core/error.h"
#include "core/io/safe_file.h"

namespace liftcc::io {

std::string withoutJsonLibraryPrefix(const std::string &what) {
  if (what.rfind("[json.exception.", 0) != 0) return what;
  auto end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

nlohmann::json parseJsonBounded(const std::string &text) {
  try {
    return nlohmann::json::parse(text, [&](int depth, nlohmann::json::parse_event_t, nlohmann::json &) {
      if (depth > kMaxJsonFileDepth)
        throw Error("nested more than " + std::to_string(kMaxJsonFileDepth) + " levels deep");
      return true;
    });
  } catch (const nlohmann::json::exception &e) {
    throw Error(shown(withoutJsonLibraryPrefix(e.what()), 120));
  }
}

nlohmann::json parseJsonText(const std::string &text, const std::string &where) {
  try {
    return parseJsonBounded(text);
  } catch (const Error &e) {
    throw Error(shown(where, 200) + ": not JSON: " + e.what());
  }
}

nlohmann::json readJsonFile(const std::string &path, uint64_t maxBytes, const std::string &what) {
  return parseJsonText(readFileCapped(path, maxBytes, what), path);
}

} // namespace liftcc::io
