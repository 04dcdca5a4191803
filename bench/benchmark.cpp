#include "bench/benchmark.h"

#include "bench/peers.h"
#include "bench/report.h"

#include "core/interp/interpreter.h"
#include "core/interp/magnitudes.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "explore/explorer.h"
#include "tuner/median.h"
#include "tuner/opencl/opencl_backend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <sstream>

namespace liftcc::bench {

namespace {

// The verdict of every comparison: single-precision kernels whose compilers
// may contract a * b + c into fma agree with the interpreter to ~1e-6
// relative; 1e-4 leaves room for that and fails any indexing error.
constexpr Tolerance kTolerance{1e-4, 1e-5};

std::string firstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

void log(const BenchOptions &options, const std::string &line) {
  if (options.log) options.log(line);
}

struct Candidate {
  const Contender *contender;
  BenchRow row;
  bool verified = false;
};

struct ContenderRun {
  Grid output; ///< empty unless downloaded
  double medianNs = 0;
};

/// A contender's kernel built once for the sizes it is timed at, so that each
/// round of the timing launches the same compiled kernel.
struct BuiltContender {
  ContenderKernel kernel;
  std::unique_ptr<tuner::CompiledKernel> compiled;
};

BuiltContender build(tuner::Device &device, const Contender &contender, const Program &typed, const Sizes &sizes) {
  ContenderKernel k = contender.kernelAt(typed, sizes, device.target());
  std::unique_ptr<tuner::CompiledKernel> compiled = device.compile(k.kernel);
  return {std::move(k), std::move(compiled)};
}

/// Runs the built contender on `grids` through the launch plan:
/// `timing.warmupRuns` + `timing.timedRuns` runs, more while the timed ones
/// add up to less than `minTimedSeconds`. With `download`, the output buffer
/// starts as NaN, so that elements a kernel never writes fail verification,
/// and comes back.
ContenderRun runBuilt(const BuiltContender &built, const Program &typed, const Sizes &sizes,
                      const std::vector<Grid> &grids, const ocl::TimingOptions &timing, double minTimedSeconds,
                      bool download) {
  tuner::InputViews inputs;
  for (const Grid &grid : grids) inputs.push_back(std::as_bytes(std::span(grid)));
  tuner::LaunchConfig config;
  config.localSize = built.kernel.local;
  config.warmups = static_cast<int>(timing.warmupRuns);
  config.repetitions = static_cast<int>(timing.timedRuns);
  config.minTimedSeconds = minTimedSeconds;
  config.poisonOutput = download;
  config.downloadOutput = download;
  tuner::RawRun raw = built.compiled->runViews(sizes, inputs, config);
  ContenderRun run{Grid(), raw.medianNs};
  if (!download) return run;
  const auto elements = static_cast<size_t>(outputElements(typed, sizes));
  if (raw.output.size() < elements * sizeof(float))
    throw std::logic_error("the kernel's output buffer has " + std::to_string(raw.output.size()) +
                           " bytes, the result needs " + std::to_string(elements * sizeof(float)));
  run.output.resize(elements);
  std::memcpy(run.output.data(), raw.output.data(), elements * sizeof(float));
  return run;
}

/// Runs every contender once at a small size and compares it with the
/// interpreter; marks the disagreeing ones Wrong and the failing ones Failed.
void verify(tuner::Device &device, const Program &program, const Sizes &small, std::vector<Candidate> &candidates,
            const BenchOptions &options) {
  Program typed = typeCheck(program, small);
  std::vector<Grid> grids = randomGrids(typed, small, options.seed);
  Reference expected = interpretReference(typed, small, toValues(typed, small, grids));
  for (Candidate &c : candidates) {
    try {
      BuiltContender built = build(device, *c.contender, typed, small);
      ContenderRun r = runBuilt(built, typed, small, grids, {.warmupRuns = 0, .timedRuns = 1}, 0, true);
      if (auto mismatch = compareWithReference(expected, toValue(typed, small, r.output), c.contender->tolerance)) {
        c.row.status = Status::Wrong;
        c.row.message = "vs interpreter: " + *mismatch;
      } else {
        c.verified = true;
      }
    } catch (const std::exception &e) {
      c.row.status = Status::Failed;
      c.row.message = firstLine(e.what());
    }
  }
}

/// A peer of the example and its row: verified against the interpreter at
/// `small` (a wrong peer is reported, not timed).
struct PeerCandidate {
  Peer peer;
  BenchRow row;
  bool verified = false;
};

std::vector<PeerCandidate> verifyPeers(const ocl::DeviceInfo &device, const examples::Example &example,
                                       const Program &program, const Sizes &small, const ExampleReport &report,
                                       const BenchOptions &options) {
  std::vector<PeerCandidate> candidates;
  std::vector<Peer> peers = peersFor(example, device);
  if (options.kernelTuner)
    if (auto peer = kernelTunerPeer(*options.kernelTuner, example, device)) peers.push_back(std::move(*peer));
  if (peers.empty()) return candidates;
  Program smallTyped = typeCheck(program, small);
  std::vector<Grid> smallGrids = randomGrids(smallTyped, small, options.seed);
  Reference expected = interpretReference(smallTyped, small, toValues(smallTyped, small, smallGrids));
  for (Peer &peer : peers) {
    PeerCandidate c{std::move(peer), BenchRow{}, false};
    c.row.variant = c.peer.variant;
    c.row.kind = ContenderKind::Peer;
    if (!c.peer.checkedAtBenchSizeOnly.empty()) {
      c.verified = true;
      c.row.detail = "checked against the baseline at the benchmark size only (" + c.peer.checkedAtBenchSizeOnly + ")";
      candidates.push_back(std::move(c));
      continue;
    }
    try {
      log(options, example.name + ": verifying " + c.peer.variant + " at " + report.verifiedAt);
      PeerRun check = c.peer.run(smallGrids, small, {.warmupRuns = 0, .timedRuns = 1});
      if (auto mismatch = compareWithReference(expected, toValue(smallTyped, small, check.output), kTolerance)) {
        c.row.status = Status::Wrong;
        c.row.message = "vs interpreter: " + *mismatch;
      } else {
        c.verified = true;
      }
    } catch (const std::exception &e) {
      c.row.status = Status::Failed;
      c.row.message = firstLine(e.what());
    }
    candidates.push_back(std::move(c));
  }
  return candidates;
}

/// BenchOptions::rounds, at least one.
unsigned roundCount(const BenchOptions &options) { return std::max(1u, options.rounds); }

/// One row timed in the rounds: a verified contender's kernel built for the
/// benchmark size, or a verified peer.
struct TimedRow {
  BenchRow *row;
  std::optional<BuiltContender> built;
  const Peer *peer = nullptr;
  Tolerance tolerance = kTolerance;
  bool dropped = false; ///< Wrong or Failed in an earlier round
};

/// Times every row in `options.rounds` rounds, one row after the other in
/// each, starting one row further on in each round; the copy roof
/// (`measureRoof`) takes its turn in every round like a row. A row's time is the
/// median of its round medians: on a shared machine a slow phase shorter than
/// a round then slows one sample of every row it meets, instead of every
/// sample of the rows timed during it (one kernel's median moved 2x between
/// runs a minute apart on a 2-core cloud VM). The first round downloads each
/// output and compares it with the first contender's (the baseline). A peer
/// that tunes itself on every call (Peer::timedOnce) takes the first round only.
void timeInRounds(std::vector<TimedRow> &timed, const Program &typed, const Sizes &sizes,
                  const std::vector<Grid> &grids, const std::string &example, ExampleReport &report,
                  const std::function<double()> &measureRoof, const BenchOptions &options) {
  std::optional<Grid> baseline;
  std::string baselineName;
  const unsigned rounds = roundCount(options);
  for (unsigned round = 0; round < rounds; ++round) {
    const bool first = round == 0;
    // timed.size() is the copy roof's turn.
    for (size_t n = 0; n <= timed.size(); ++n) {
      size_t turn = (n + round) % (timed.size() + 1);
      if (turn == timed.size()) {
        try {
          log(options, example + ": timing the copy roof (round " + std::to_string(round + 1) + " of " +
                           std::to_string(rounds) + ")");
          report.roundRoofBytesPerSecond.push_back(measureRoof());
        } catch (const std::exception &e) {
          log(options,
              example + ": the copy roof failed in round " + std::to_string(round + 1) + ": " + firstLine(e.what()));
          report.roundRoofBytesPerSecond.push_back(0);
        }
        continue;
      }
      TimedRow &t = timed[turn];
      if (t.dropped || (!first && t.peer && t.peer->timedOnce)) continue;
      log(options,
          example + ": timing " + t.row->variant + " at " + report.sizes +
              (rounds > 1 ? " (round " + std::to_string(round + 1) + " of " + std::to_string(rounds) + ")" : ""));
      try {
        Grid output;
        double ns = 0;
        if (t.peer) {
          ocl::TimingOptions timing = options.timing;
          timing.timedRuns = std::max(timing.timedRuns, 20u);
          PeerRun r = t.peer->run(grids, sizes, timing);
          ns = r.medianNs;
          if (first) {
            output = std::move(r.output);
            t.row->tuningSeconds = r.tuningSeconds;
            if (!r.detail.empty()) t.row->detail = r.detail;
          }
        } else {
          ContenderRun r = runBuilt(*t.built, typed, sizes, grids, options.timing, options.minTimedSeconds, first);
          ns = r.medianNs;
          output = std::move(r.output);
        }
        if (first && !baseline && !t.peer) {
          baseline = std::move(output);
          baselineName = t.row->variant;
        } else if (first && baseline) {
          if (auto mismatch = compareGrids(*baseline, output, t.tolerance)) {
            t.row->status = Status::Wrong;
            t.row->message = "vs " + baselineName + " at " + report.sizes + ": " + *mismatch;
            t.dropped = true;
            continue;
          }
        }
        t.row->roundMediansNs.push_back(ns);
      } catch (const std::exception &e) {
        t.row->status = Status::Failed;
        t.row->message = firstLine(e.what());
        t.dropped = true;
      }
    }
  }
  for (TimedRow &t : timed) {
    if (t.dropped || t.row->roundMediansNs.empty()) continue;
    t.row->status = Status::Ok;
    t.row->medianNs = tuner::median(t.row->roundMediansNs);
    t.row->elementsPerSecond = static_cast<double>(report.outputElements) / (t.row->medianNs * 1e-9);
    t.row->roofFraction = search::roofFraction(t.row->roundMediansNs, report.roundRoofBytesPerSecond,
                                               report.outputElements, report.bytesPerElement);
    t.row->vsRoofline = t.row->roofFraction.aboveRoof ? 0 : t.row->roofFraction.median;
  }
}

/// The explored best is what liftcc's search hands a user, and every
/// exploration measures the plain kernel and a default of each family first
/// (explore/baselines.h), so it is never slower than liftcc's own fixed
/// kernels in the store. Timed again here it can be, by noise or because the
/// best was explored at other sizes: then the fastest generated fixed row of
/// this run is reported as the explored best, with a note. The hand-written
/// kernels are no variants of the space: a lead of theirs is only noted.
void exploredNeverBelowFixed(std::vector<Candidate> &candidates) {
  const BenchRow *fastestGenerated = nullptr, *fastestHandWritten = nullptr;
  for (const Candidate &c : candidates) {
    if (c.row.status != Status::Ok) continue;
    const BenchRow *&fastest = c.row.kind == ContenderKind::Generated ? fastestGenerated : fastestHandWritten;
    bool fixed = c.row.kind == ContenderKind::Generated || c.row.kind == ContenderKind::Reference ||
                 c.row.kind == ContenderKind::Expert;
    if (fixed && (!fastest || c.row.medianNs < fastest->medianNs)) fastest = &c.row;
  }
  for (Candidate &c : candidates) {
    BenchRow &row = c.row;
    if (row.kind != ContenderKind::Explored || row.status != Status::Ok) continue;
    std::string note;
    if (fastestGenerated && fastestGenerated->medianNs < row.medianNs) {
      std::ostringstream s;
      s << "the explored kernel ran " << row.medianNs / 1e6 << " ms in this run; the fixed row '"
        << fastestGenerated->variant << "' was faster in the same rounds and is reported as the explored best";
      note = s.str();
      BenchRow faster = *fastestGenerated;
      faster.variant = row.variant;
      faster.kind = row.kind;
      faster.tuningSeconds = row.tuningSeconds;
      row = std::move(faster);
    }
    if (fastestHandWritten && fastestHandWritten->medianNs < row.medianNs) {
      std::ostringstream s;
      s << "'" << fastestHandWritten->variant << "' (not a variant of the space) is "
        << row.medianNs / fastestHandWritten->medianNs << "x faster in this run";
      note += (note.empty() ? "" : "; ") + s.str();
    }
    if (!note.empty()) row.detail = (row.detail.empty() ? "" : row.detail + "; ") + note;
  }
}

/// The bench's copy probe: its timing options, every candidate.
tuner::CopyProbe copyProbe(const BenchOptions &options, size_t bufferBytes) {
  tuner::CopyProbe probe;
  probe.warmups = static_cast<int>(options.timing.warmupRuns);
  probe.runs = static_cast<int>(options.timing.timedRuns);
  probe.bufferBytes = bufferBytes;
  return probe;
}

/// A copy roof of the run: its index in BenchReport::bandwidths and its figure.
struct Roof {
  size_t index;
  double bytesPerSecond;
  std::string label; ///< the copy that set it (CopyCandidate::label)
};

/// `roofFor(bufferBytes)`: the run's copy roof with buffers of that size,
/// measured before the rounds (the report's roofline line; the rows'
/// fractions use the roof timed in each round).
ExampleReport benchExample(tuner::Device &device, const examples::Example &example,
                           const std::function<Roof(size_t bufferBytes)> &roofFor, const BenchOptions &options) {
  Program program = example.build();
  std::vector<Contender> contenders = contendersFor(example, options.contenders, device.target());
  std::vector<Candidate> candidates;
  int64_t multiple = 1;
  for (const Contender &c : contenders) {
    BenchRow row;
    row.variant = c.variant;
    row.kind = c.kind;
    candidates.push_back({&c, std::move(row)});
    multiple = std::lcm(multiple, c.sizeMultiple);
  }

  ExampleReport report;
  report.example = example.name;
  Sizes small = verificationSizes(example, multiple);
  report.verifiedAt = explore::sizesKey(program, small);
  log(options, example.name + ": verifying " + std::to_string(candidates.size()) + " kernels at " + report.verifiedAt);
  verify(device, program, small, candidates, options);

  Sizes sizes = benchSizes(example, options.sizes, options.sizeScale);
  Program typed = typeCheck(program, sizes);
  report.sizes = explore::sizesKey(program, sizes);
  report.outputElements = outputElements(typed, sizes);
  report.bytesPerElement = explore::compulsoryBytesPerOutput(typed, sizes);
  const size_t roofBufferBytes =
      options.copyBytes.value_or(explore::roofBufferBytes(report.bytesPerElement, report.outputElements));
  Roof roof = roofFor(roofBufferBytes);
  report.roof = roof.index;
  report.rooflineElementsPerSecond = roof.bytesPerSecond / report.bytesPerElement;
  std::vector<Grid> grids = randomGrids(typed, sizes, options.seed);

  // The peers' OpenCL targets need the OpenCL device itself.
  std::vector<PeerCandidate> peers;
  if (auto *opencl = dynamic_cast<tuner::OpenCLDevice *>(&device))
    peers = verifyPeers(opencl->context().device(), example, program, small, report, options);

  std::vector<TimedRow> timed;
  for (Candidate &c : candidates) {
    if (!c.verified) continue;
    try {
      timed.push_back({&c.row, build(device, *c.contender, typed, sizes), nullptr, c.contender->tolerance, false});
    } catch (const std::exception &e) {
      c.row.status = Status::Failed;
      c.row.message = firstLine(e.what());
    }
  }
  for (PeerCandidate &p : peers)
    if (p.verified) timed.push_back({&p.row, std::nullopt, &p.peer, kTolerance, false});
  // Each round times the copy that won the example's probe (roofFor), not
  // every candidate again.
  tuner::CopyProbe roundsRoof = copyProbe(options, roofBufferBytes);
  roundsRoof.onlyCandidate = roof.label;
  auto measureRoof = [&] { return device.measureCopyBandwidth(roundsRoof).bytesPerSecond; };
  timeInRounds(timed, typed, sizes, grids, example.name, report, measureRoof, options);
  exploredNeverBelowFixed(candidates);

  for (Candidate &c : candidates) {
    if (c.row.kind == ContenderKind::Explored && options.exploreSeconds.count(example.name))
      c.row.tuningSeconds = options.exploreSeconds.at(example.name);
    report.rows.push_back(std::move(c.row));
  }
  for (PeerCandidate &p : peers) report.rows.push_back(std::move(p.row));

  std::optional<double> reference;
  for (const BenchRow &row : report.rows)
    if (row.kind == ContenderKind::Reference && row.status == Status::Ok) reference = row.elementsPerSecond;
  for (BenchRow &row : report.rows)
    if (reference && row.status == Status::Ok) row.vsReference = row.elementsPerSecond / *reference;
  return report;
}

} // namespace

std::string statusName(Status status) {
  switch (status) {
  case Status::Ok: return "ok";
  case Status::Wrong: return "WRONG";
  case Status::Failed: return "failed";
  }
  return "?";
}

BenchReport runBench(tuner::Device &device, const BenchOptions &options) {
  auto start = std::chrono::steady_clock::now();
  // Resolve every name first, so that a typo fails before minutes of work.
  std::vector<const examples::Example *> selected;
  for (const std::string &name : options.examples) selected.push_back(&examples::findExample(name));

  BenchReport report;
  report.device = device.resultsName();
  report.rounds = roundCount(options);
  // Each buffer size's roof is measured once, when an example first needs it.
  std::map<size_t, size_t> roofOfSize;
  auto roofFor = [&](size_t bufferBytes) {
    auto [it, added] = roofOfSize.emplace(bufferBytes, report.bandwidths.size());
    if (added) {
      log(options, "measuring copy bandwidth at " + bufferSizeText(bufferBytes) + " per buffer");
      report.bandwidths.push_back(device.measureCopyBandwidth(copyProbe(options, bufferBytes)));
    }
    const tuner::CopyBandwidth &bandwidth = report.bandwidths[it->second];
    return Roof{it->second, bandwidth.bytesPerSecond, bandwidth.candidates.at(bandwidth.roof).label()};
  };
  for (const examples::Example *example : selected) {
    ExampleReport e = benchExample(device, *example, roofFor, options);
    report.examples.push_back(std::move(e));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

} // namespace liftcc::bench
