#pragma once
// Renderings of a benchmark report: an aligned text table for the terminal,
// CSV for scripts and Markdown for the project notes. All three carry the
// same columns: example, variant, median ms, G elements/s, ratio to the
// hand-written kernel, ratio to the roofline bound (and a status).

#include "bench/benchmark.h"

#include <iosfwd>

namespace liftcc::bench {

void printTable(std::ostream &out, const BenchReport &report);
void writeCsv(std::ostream &out, const BenchReport &report);
void writeMarkdown(std::ostream &out, const BenchReport &report);

} // namespace liftcc::bench
