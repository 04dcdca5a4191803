#pragma once
// Reading and writing files so that data is never lost silently:
//  * a write goes to a temporary file in the target's directory, is checked,
//    flushed and renamed over the target, so a failed write (full disk) leaves
//    the old file intact and is an error, never an empty file and exit 0;
//  * a target that is not a regular file (/dev/stdout, /dev/full, a FIFO) is
//    written in place, and every failed write is still an error;
//  * under a results directory no symbolic link is followed for writing
//    (a link planted there must not redirect a write to an unrelated file);
//  * a read is capped, so /dev/zero or a huge file is refused, not exhausted.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace liftcc::io {

/// A file operation failed; what() names the file and the reason.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Writes `content` to `path` atomically (temporary file + rename) when it is
/// or will be a regular file, in place otherwise. Throws FileError naming the
/// file on any failure (open, write, flush, close, rename). With `noFollowBelow`
/// set, refuses a `path` that is a symbolic link, or that passes through one,
/// at or below that directory.
void writeFile(const std::string &path, std::string_view content,
               const std::optional<std::filesystem::path> &noFollowBelow = std::nullopt);

/// Throws FileError when `path` itself, or a directory between `root`
/// (exclusive: the root may be a link the user made) and `path`, is a
/// symbolic link. Components that do not exist yet are fine.
void refuseSymlinksBelow(const std::filesystem::path &root, const std::filesystem::path &path);

/// Creates the directories of `dir` below `root` one by one, refusing any
/// component that is a symbolic link (see refuseSymlinksBelow).
void createDirectoriesBelow(const std::filesystem::path &root, const std::filesystem::path &dir);

/// Throws FileError when `dir` could not be created below `root`: a
/// component on the way is a symbolic link (refuseSymlinksBelow) or exists
/// but is not a directory. Creates nothing, so a command can check every
/// output before its first write.
void checkCreatableBelow(const std::filesystem::path &root, const std::filesystem::path &dir);

/// Writes a directory of files as a whole: the files go into a new temporary
/// directory beside `dir` (".<name>.liftc-new-XXXXXX"), which then takes the
/// place of `dir` in one rename (an existing `dir` is swapped out with
/// renameat2(RENAME_EXCHANGE), or renamed aside where the file system cannot,
/// and removed). A crash leaves the old or the new directory under its name,
/// never a mix, plus at worst a hidden temporary that readers skip. `dir`'s
/// parents are created below `root`, refusing symbolic links; the temporary
/// is removed on any failure, which is a FileError naming `dir`.
void writeDirectory(const std::filesystem::path &root, const std::filesystem::path &dir,
                    const std::vector<std::pair<std::string, std::string>> &files);

/// True for the name of writeDirectory's temporary directories (and any other
/// hidden name), which readers of a results directory skip.
bool isHiddenName(const std::filesystem::path &name);

/// The caps on what liftc reads from a results directory: a launch.json or a
/// kernel source (kMaxResultsFileBytes) and a result store, which grows with
/// every evaluation (kMaxStoreFileBytes).
inline constexpr uint64_t kMaxResultsFileBytes = uint64_t(64) << 20;
inline constexpr uint64_t kMaxStoreFileBytes = uint64_t(1) << 30;

/// Opens `path` (open(2) `flags`, O_CLOEXEC added) and returns the descriptor
/// only when it is a regular file of at most `maxBytes`. The open itself never
/// blocks (O_NONBLOCK, cleared again once fstat on the open descriptor has
/// shown a regular file), so a FIFO or device planted in place of a file is
/// refused at once, never waited on or read for ever. Throws FileError naming
/// the file and `what` ("launch.json", "result store").
int openRegularFile(const std::string &path, int flags, uint64_t maxBytes, const std::string &what, mode_t mode = 0);

/// Reads a whole regular file of at most `maxBytes` (opened by openRegularFile). Throws FileError for a
/// directory, a device or FIFO (e.g. /dev/zero), a file over the cap, or any
/// read failure; `what` names the kind of file in messages ("program file").
std::string readFileCapped(const std::string &path, uint64_t maxBytes, const std::string &what);

/// True when `a` and `b` name the same existing file (hard links and
/// symbolic links included).
bool sameFile(const std::string &a, const std::string &b);

/// Throws FileError when an output path is empty, or names the same file as
/// an input or as another output ("-o p.json" for the program p.json);
/// `outputs` pairs an option name with its path.
void refuseOverwritingInputs(const std::vector<std::pair<std::string, std::string>> &outputs,
                             const std::vector<std::string> &inputs);

/// `text` for a message: at most `limit` characters (longer text is cut and
/// says how long it was), control characters shown as '?', so one echoed
/// value can neither flood a terminal nor break the one-line error format.
std::string shown(std::string_view text, size_t limit = 60);

} // namespace liftcc::io
