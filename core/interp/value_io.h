#pragma once
// Raw binary representation of values: the scalars in row-major order, each
// in its native little-endian C representation (float: 4 bytes, double: 8,
// int: 4, bool: 1). This is what `liftc eval --input A=file.bin` reads and
// `--output` writes, what a C program would fwrite(), and what is uploaded to
// and downloaded from device buffers.

#include "core/interp/value.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace liftcc {

size_t scalarByteSize(ScalarKind kind);

/// Bytes of a value of `type` at `sizes`, without building it.
size_t byteCount(const Type &type, const std::map<std::string, int64_t> &sizes);

std::vector<std::byte> toBytes(const Value &value);
/// The bytes of Value::random(type, sizes, rng), drawn from `rng` in the same
/// order, without the nested value: for inputs of millions of elements (the
/// tuner's full-size runs) the value would cost far more than the kernel.
std::vector<std::byte> randomBytes(const Type &type, const std::map<std::string, int64_t> &sizes, std::mt19937_64 &rng);
/// Throws std::invalid_argument when the byte count does not match the type.
Value fromBytes(std::span<const std::byte> bytes, const Type &type, const std::map<std::string, int64_t> &sizes);

Value readBinaryValue(const std::string &path, const Type &type, const std::map<std::string, int64_t> &sizes);
void writeBinaryValue(const std::string &path, const Value &value);

} // namespace liftcc
