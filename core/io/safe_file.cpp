#include "core/io/safe_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace liftcc::io {

namespace fs = std::filesystem;

namespace {

std::string reason() { return std::strerror(errno); }

/// Writes all of `content` to `fd`; false on a short or failed write.
bool writeAll(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

void writeInPlace(const std::string &path, std::string_view content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) throw FileError("cannot open '" + shown(path, 200) + "' for writing: " + reason());
  bool ok = writeAll(fd, content);
  std::string why = ok ? std::string() : reason();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = reason();
  }
  if (!ok) throw FileError("failed writing '" + shown(path, 200) + "': " + why);
}

mode_t creationMode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

} // namespace

std::string shown(std::string_view text, size_t limit) {
  std::string out;
  size_t n = std::min(text.size(), limit);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
  }
  if (text.size() > limit) out += "... (" + std::to_string(text.size()) + " characters)";
  return out;
}

void refuseSymlinksBelow(const fs::path &root, const fs::path &path) {
  fs::path rel = path.lexically_normal().lexically_relative(root.lexically_normal());
  if (rel.empty() || *rel.begin() == "..")
    throw FileError("'" + shown(path.string(), 200) + "' is not inside '" + shown(root.string(), 200) + "'");
  fs::path current = root;
  for (const fs::path &component : rel) {
    if (component == ".") continue;
    current /= component;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(current, ec)))
      throw FileError("'" + shown(current.string(), 200) +
                      "' is a symbolic link; liftc does not follow links inside a results directory for writing");
  }
}

void createDirectoriesBelow(const fs::path &root, const fs::path &dir) {
  refuseSymlinksBelow(root, dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw FileError("cannot create directory '" + shown(dir.string(), 200) + "': " + ec.message());
  // A link created between the check and the creation would be followed by
  // create_directories; checking again catches it before anything is written.
  refuseSymlinksBelow(root, dir);
}

void writeFile(const std::string &path, std::string_view content, const std::optional<fs::path> &noFollowBelow) {
  if (path.empty()) throw FileError("empty output file name");
  if (noFollowBelow) refuseSymlinksBelow(*noFollowBelow, path);
  fs::path target(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw FileError("cannot write '" + shown(path, 200) + "': it is a directory");
    if (!S_ISREG(st.st_mode)) return writeInPlace(path, content); // /dev/stdout, /dev/full, a FIFO
    // A link the user made outside a results directory: replace the file it
    // points to, not the link.
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(target, ec))) target = fs::canonical(target, ec);
  }
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string temp = (dir / ("." + target.filename().string() + ".liftc-XXXXXX")).string();
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw FileError("cannot write '" + shown(path, 200) + "': cannot create a temporary file in '" +
                    shown(dir.string(), 200) + "': " + reason());
  std::string tempPath(name.data());
  bool ok = ::fchmod(fd, creationMode()) == 0 && writeAll(fd, content) && ::fsync(fd) == 0;
  std::string why = ok ? std::string() : reason();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = reason();
  }
  if (ok && ::rename(tempPath.c_str(), target.c_str()) != 0) {
    ok = false;
    why = reason();
  }
  if (!ok) {
    ::unlink(tempPath.c_str());
    throw FileError("failed writing '" + shown(path, 200) + "': " + why);
  }
}

std::string readFileCapped(const std::string &path, uint64_t maxBytes, const std::string &what) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw FileError("cannot open " + what + " '" + shown(path, 200) + "': " + reason());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw FileError("cannot read " + what + " '" + shown(path, 200) + "': " + reason());
  }
  auto refuse = [&](const std::string &message) {
    ::close(fd);
    throw FileError("'" + shown(path, 200) + "' " + message);
  };
  if (S_ISDIR(st.st_mode)) refuse("is a directory, not a " + what);
  if (!S_ISREG(st.st_mode)) refuse("is not a regular file (a device, FIFO or socket), so it cannot be a " + what);
  if (static_cast<uint64_t>(st.st_size) > maxBytes)
    refuse("has " + std::to_string(st.st_size) + " bytes; a " + what + " may have at most " + std::to_string(maxBytes));
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse("could not be read: " + reason());
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > maxBytes) refuse("grew beyond " + std::to_string(maxBytes) + " bytes while being read");
  }
  ::close(fd);
  return text;
}

bool sameFile(const std::string &a, const std::string &b) {
  std::error_code ec;
  bool same = fs::equivalent(a, b, ec);
  return !ec && same;
}

void refuseOverwritingInputs(const std::vector<std::pair<std::string, std::string>> &outputs,
                             const std::vector<std::string> &inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto &[option, path] = outputs[i];
    if (path.empty()) throw FileError(option + " needs a file name, found ''");
    for (const std::string &input : inputs)
      if (path == input || sameFile(path, input))
        throw FileError(option + " '" + shown(path, 200) + "' would overwrite the input '" + shown(input, 200) + "'");
    for (size_t j = 0; j < i; ++j)
      if (path == outputs[j].second || sameFile(path, outputs[j].second))
        throw FileError(option + " and " + outputs[j].first + " both name '" + shown(path, 200) + "'");
  }
}

} // namespace liftcc::io
