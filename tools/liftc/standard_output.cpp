#include "tools/liftc/standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

namespace liftcc::cli {

namespace {

[[noreturn]] void cannotWrite(int error) {
  throw std::runtime_error(std::string("cannot write standard output: ") +
                           (error != 0 ? std::strerror(error) : "write failed"));
}

} // namespace

void checkOutputStream(const std::ostream &out) {
  if (!out) cannotWrite(errno);
}

void finishStandardOutput() {
  errno = 0;
  std::cout.flush();
  const bool streamFailed = !std::cout;
  int error = errno; // the cause of a failure at this flush (ENOSPC)
  // Flushing stdio again retries what is still buffered, so that a stream
  // that failed long before (its errno lost) gets its cause too.
  errno = 0;
  const bool stdioFailed = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (error == 0) error = errno;
  if (streamFailed || stdioFailed) cannotWrite(error);
}

} // namespace liftcc::cli
