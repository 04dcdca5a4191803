#pragma once
// liftcc's version and the versions of the JSON formats it reads and writes
// (see docs/formats.md, "Versions and formats"). The top-level CMakeLists.txt reads the project
// VERSION from the three numbers below: change them here only.

#define LIFTCC_VERSION_MAJOR 0
#define LIFTCC_VERSION_MINOR 1
#define LIFTCC_VERSION_PATCH 0
#define LIFTCC_VERSION_STRING "0.1.0"

/// The program format: `"liftcc": 1` in every program file (docs/program-format.md).
#define LIFTCC_PROGRAM_FORMAT_VERSION 1
/// The best-kernel launch.json format: `"liftcc": 1` (docs/launch.schema.json).
#define LIFTCC_LAUNCH_FORMAT_VERSION 1
