#pragma once
// Raw binary representation of values: the scalars in row-major order, each
// in its native little-endian C representation (float: 4 bytes, double: 8,
// int: 4, bool: 1). This is what `liftc eval --input A=file.bin` reads and
// `--output` writes, what a C program would fwrite(), and what is uploaded to
// and downloaded from device buffers.

#include "core/interp/value.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace liftcc {

size_t scalarByteSize(ScalarKind kind);

std::vector<std::byte> toBytes(const Value &value);
/// Throws std::invalid_argument when the byte count does not match the type.
Value fromBytes(std::span<const std::byte> bytes, const Type &type, const std::map<std::string, int64_t> &sizes);

Value readBinaryValue(const std::string &path, const Type &type, const std::map<std::string, int64_t> &sizes);
void writeBinaryValue(const std::string &path, const Value &value);

} // namespace liftcc
