// The one explicit instantiation of nlohmann::basic_json<> (core/io/json.h
// says why). It is the slowest file of the build to compile (about 30 s
// under the sanitizers): every member of the class, once.
#include "core/io/json.h"

template class nlohmann::basic_json<>;
