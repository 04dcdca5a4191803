#pragma once
// Raw binary I/O of values: the scalars in row-major order, each in its
// native little-endian C representation (float: 4 bytes, double: 8, int: 4,
// bool: 1). This is what `liftc eval --input A=file.bin` reads and
// `--output` writes, and what a C program would fwrite().

#include "core/interp/value.h"

#include <string>

namespace liftcc {

Value readBinaryValue(const std::string &path, const Type &type, const std::map<std::string, int64_t> &sizes);
void writeBinaryValue(const std::string &path, const Value &value);

} // namespace liftcc
