#include "core/io/json_file.h"

#include "core/error.h"
#include "core/io/safe_file.h"

namespace liftcc::io {

nlohmann::json parseJsonBounded(const std::string &text) {
  try {
    return nlohmann::json::parse(text, [&](int depth, nlohmann::json::parse_event_t, nlohmann::json &) {
      if (depth > kMaxJsonFileDepth)
        throw Error("nested more than " + std::to_string(kMaxJsonFileDepth) + " levels deep");
      return true;
    });
  } catch (const nlohmann::json::exception &e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] "; the rest says where.
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw Error(shown(what, 120));
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
