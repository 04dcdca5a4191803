#pragma once
// Standard output is one of liftc's outputs like any file: a write that
// fails (a full disk, /dev/full, a closed pipe's EIO) is an error (exit 1,
// one line), never a silent success. std::cout buffers, so a failed write
// shows only when the buffer is flushed: every exit path calls this.

#include <ostream>

namespace liftcc::cli {

/// Flushes std::cout and the C stdout beneath it and throws
/// std::runtime_error ("cannot write standard output: ...") if any write to
/// them failed, now or earlier.
void finishStandardOutput();

/// Throws the same error when `out` is failed: verbs that write much (eval
/// --print) stop at the first failed write instead of formatting the rest.
void checkOutputStream(const std::ostream &out);

} // namespace liftcc::cli
