#pragma once
// Renderings of a benchmark report: an aligned text table for the terminal,
// CSV and JSON for scripts and Markdown for the project notes. All three carry the
// same columns: example, variant, median ms, G elements/s, ratio to the
// hand-written kernel, ratio to the roofline bound (and a status).

#include "bench/benchmark.h"

#include <cstddef>
#include <iosfwd>
#include <string>

namespace liftcc::bench {

void printTable(std::ostream &out, const BenchReport &report);
void writeCsv(std::ostream &out, const BenchReport &report);
void writeMarkdown(std::ostream &out, const BenchReport &report);
/// The whole report as one JSON object: device, the copy roofs (every
/// candidate, the roof, the host memcpy and its note, per buffer size), and
/// per example its sizes, roof buffer size, roofline bound and rows.
void writeJson(std::ostream &out, const BenchReport &report);

/// A copy buffer's size for people: "64 MiB", "1.3 MiB", "512 KiB".
std::string bufferSizeText(size_t bytes);

} // namespace liftcc::bench
