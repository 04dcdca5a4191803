#pragma once
// nlohmann::json as liftcc uses it. Include this, not <nlohmann/json.hpp>.
//
// Every translation unit that used basic_json<> (parse, dump, at, the
// conversions) instantiated and compiled its member functions again: under
// the sanitized test build that was about 2.5 s of a 5 s compile for a file
// that only reads a few fields. The explicit instantiation declaration below
// tells the compiler that one translation unit (json.cpp) holds them all.

#include <nlohmann/json.hpp>

extern template class nlohmann::basic_json<>;
