#include "core/io/safe_file.h"

#include <cerrno>
#include <cstdio>
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

/// The mode open() or mkdir() would give a new file (0666) or directory (0777).
mode_t creationMode(mode_t requested = 0666) {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return requested & ~mask;
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

void checkCreatableBelow(const fs::path &root, const fs::path &dir) {
  refuseSymlinksBelow(root, dir);
  fs::path current = root;
  auto check = [&](const fs::path &p) {
    std::error_code ec;
    fs::file_status status = fs::status(p, ec);
    if (fs::exists(status) && !fs::is_directory(status))
      throw FileError("cannot create '" + shown(dir.string(), 200) + "': '" + shown(p.string(), 200) +
                      "' is not a directory");
  };
  check(current);
  for (const fs::path &component : dir.lexically_normal().lexically_relative(root.lexically_normal())) {
    if (component == ".") continue;
    current /= component;
    check(current);
  }
}

bool isHiddenName(const fs::path &name) {
  std::string text = name.filename().string();
  return !text.empty() && text[0] == '.';
}

void writeDirectory(const fs::path &root, const fs::path &dir,
                    const std::vector<std::pair<std::string, std::string>> &files) {
  fs::path parent = dir.parent_path();
  createDirectoriesBelow(root, parent);
  refuseSymlinksBelow(root, dir);
  std::string where = shown(dir.string(), 200);
  std::error_code ec;
  fs::file_status existing = fs::symlink_status(dir, ec);
  if (fs::exists(existing) && !fs::is_directory(existing))
    throw FileError("cannot write '" + where + "': it exists and is not a directory");
  auto makeTemp = [&](const std::string &kind) {
    std::string pattern = (parent / ("." + dir.filename().string() + ".liftc-" + kind + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
      throw FileError("cannot write '" + where + "': cannot create a temporary directory in '" +
                      shown(parent.string(), 200) + "': " + reason());
    return fs::path(pattern);
  };
  fs::path temp = makeTemp("new");
  auto discard = [](const fs::path &p) {
    std::error_code ignored;
    fs::remove_all(p, ignored);
  };
  try {
    // mkdtemp made it private (0700); the entry gets the mode of any new directory.
    if (::chmod(temp.c_str(), creationMode(0777)) != 0) throw FileError("cannot write '" + where + "': " + reason());
    for (const auto &[name, content] : files) {
      if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw FileError("cannot write '" + where + "': '" + shown(name) + "' cannot name a file in it");
      writeFile((temp / name).string(), content, root);
    }
    if (::rename(temp.c_str(), dir.c_str()) == 0) return;
    if (errno != EEXIST && errno != ENOTEMPTY) throw FileError("cannot write '" + where + "': " + reason());
    // An entry is there: swap the two in one step, so the name never lacks one.
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0) {
      discard(temp); // now the old entry
      return;
    }
    if (errno != EINVAL && errno != ENOSYS) throw FileError("cannot write '" + where + "': " + reason());
    // A file system without RENAME_EXCHANGE: the old entry goes aside first
    // (renaming a directory over the empty one mkdtemp made), then the new one in.
    fs::path aside = makeTemp("old");
    if (::rename(dir.c_str(), aside.c_str()) != 0) {
      std::string why = reason();
      discard(aside);
      throw FileError("cannot write '" + where + "': " + why);
    }
    if (::rename(temp.c_str(), dir.c_str()) != 0) {
      std::string why = reason();
      ::rename(aside.c_str(), dir.c_str()); // put the old entry back
      throw FileError("cannot write '" + where + "': " + why);
    }
    discard(aside);
  } catch (...) {
    discard(temp);
    throw;
  }
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

int openRegularFile(const std::string &path, int flags, uint64_t maxBytes, const std::string &what, mode_t mode) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK, mode);
  if (fd < 0) throw FileError("cannot open " + what + " '" + shown(path, 200) + "': " + reason());
  auto refuse = [&](const std::string &message) {
    ::close(fd);
    throw FileError("'" + shown(path, 200) + "' " + message);
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse("cannot be examined: " + reason());
  if (S_ISDIR(st.st_mode)) refuse("is a directory, not a " + what);
  if (!S_ISREG(st.st_mode)) refuse("is not a regular file (a device, FIFO or socket), so it cannot be a " + what);
  if (static_cast<uint64_t>(st.st_size) > maxBytes)
    refuse("has " + std::to_string(st.st_size) + " bytes; a " + what + " may have at most " + std::to_string(maxBytes));
  int status = ::fcntl(fd, F_GETFL);
  if (status < 0 || ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK) != 0) refuse("cannot be read: " + reason());
  return fd;
}

std::string readFileCapped(const std::string &path, uint64_t maxBytes, const std::string &what) {
  int fd = openRegularFile(path, O_RDONLY, maxBytes, what);
  auto refuse = [&](const std::string &message) {
    ::close(fd);
    throw FileError("'" + shown(path, 200) + "' " + message);
  };
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
