#pragma once

#include "core/error.h"

#include <string>

namespace liftcc {

/// A type error located at a node. `path` is the JSON pointer of the node in
/// the program's JSON form (e.g. "/body/in/f/body"), so the same location is
/// meaningful for programs built with the C++ API and for JSON files.
class TypeError : public Error {
public:
  TypeError(std::string path, std::string message)
      : Error(path + ": " + message, path), path_(std::move(path)), message_(std::move(message)) {}
  const std::string &path() const { return path_; }
  const std::string &message() const { return message_; }

private:
  std::string path_;
  std::string message_;
};

} // namespace liftcc
