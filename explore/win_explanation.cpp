#include "explore/win_explanation.h"

#include "core/interp/value_io.h"
#include "explore/explorer.h"
#include "explore/strategy_text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace liftcc::explore {

double compulsoryBytesPerOutput(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  const Type &result = typed.body().typeOrThrow();
  int64_t outputs = scalarCount(result, sizes);
  if (outputs <= 0) throw std::invalid_argument("compulsoryBytesPerOutput: the result has no scalars");
  size_t bytes = byteCount(result, sizes);
  for (const Expr &input : typed.inputs()) bytes += byteCount(input.typeOrThrow(), sizes);
  return double(bytes) / double(outputs);
}

double modelledBytesPerOutput(const codegen::Kernel &kernel, double compulsoryBytesPerOutput,
                              const std::map<std::string, int64_t> &sizes, int64_t outputScalars) {
  if (outputScalars <= 0) throw std::invalid_argument("modelledBytesPerOutput: the result has no scalars");
  double temporaries = 0;
  for (const codegen::KernelArg &t : kernel.temporaries) {
    double scalarBytes = double(byteCount(Type::scalar(t.kind), sizes));
    temporaries += 2 * scalarBytes * double(arith::evaluate(t.count, sizes)); // written once, read once
  }
  // The host loop of an iterated kernel moves the compulsory bytes once per
  // launch: a time tile of t steps launches n / t times. A component carried
  // over from another is not written by any launch (its buffer is passed on).
  if (!kernel.iteration) return compulsoryBytesPerOutput + temporaries / double(outputScalars);
  std::vector<const codegen::KernelArg *> outputs;
  for (const codegen::KernelArg &a : kernel.args)
    if (a.role == codegen::KernelArg::Role::Output) outputs.push_back(&a);
  auto carriedBytes = [&](const std::vector<std::optional<size_t>> &carriedFrom) {
    double bytes = 0;
    for (size_t c = 0; c < carriedFrom.size() && c < outputs.size(); ++c)
      if (carriedFrom[c])
        bytes += double(byteCount(Type::scalar(outputs[c]->kind), sizes)) *
                 double(arith::evaluate(outputs[c]->count, sizes));
    return bytes;
  };
  auto perLaunch = [&](const std::vector<std::optional<size_t>> &carriedFrom) {
    return compulsoryBytesPerOutput + (temporaries - carriedBytes(carriedFrom)) / double(outputScalars);
  };
  if (kernel.iteration->phases.empty())
    return double(arith::evaluate(kernel.iteration->count, sizes)) * perLaunch(kernel.iteration->carriedFrom);
  double total = 0;
  for (const codegen::Kernel::Iteration::Phase &phase : kernel.iteration->phases)
    total += double(arith::evaluate(phase.count, sizes)) * perLaunch(phase.carriedFrom);
  return total;
}

size_t roofBufferBytes(double bytesPerOutput, int64_t outputElements) {
  constexpr double kAtLeast = double(size_t{1} << 20);
  double half = bytesPerOutput * double(outputElements) / 2;
  return size_t(std::clamp(half, kAtLeast, double(tuner::Device::kCopyBufferBytes)));
}

namespace {
/// The fraction as measured, above 1.0 or not.
std::optional<double> rawFraction(const WinExplanation &w) {
  if (w.roofInRounds) {
    if (w.roofInRounds->perRound.empty()) return std::nullopt;
    return w.roofInRounds->median;
  }
  if (!w.roof || w.roof->bytesPerSecond <= 0) return std::nullopt;
  return w.achievedBytesPerSecond / w.roof->bytesPerSecond;
}
} // namespace

std::optional<double> WinExplanation::fractionOfRoof() const {
  std::optional<double> fraction = rawFraction(*this);
  if (fraction && *fraction > 1.0) return std::nullopt;
  return fraction;
}

std::optional<double> WinExplanation::roofProblem() const {
  std::optional<double> fraction = rawFraction(*this);
  if (fraction && *fraction > 1.0) return fraction;
  return std::nullopt;
}

nlohmann::json WinExplanation::toJson() const {
  nlohmann::json j{{"family", family},
                   {"medianNs", medianNs},
                   {"bytesPerOutput", bytesPerOutput},
                   {"achievedBytesPerSecond", achievedBytesPerSecond}};
  if (roof) {
    j["copyRoof"] = {
        {"bytesPerSecond", roof->bytesPerSecond}, {"copy", roof->copy}, {"bufferBytes", roof->bufferBytes}};
    if (auto fraction = fractionOfRoof()) j["fractionOfRoof"] = *fraction;
    if (auto problem = roofProblem()) j["roofAboveOne"] = *problem;
  }
  if (roofInRounds)
    j["roofRounds"] = {{"perRound", roofInRounds->perRound},
                       {"median", roofInRounds->median},
                       {"low", roofInRounds->low},
                       {"high", roofInRounds->high}};
  nlohmann::json others = nlohmann::json::array();
  for (const FamilyRunnerUp &r : runnersUp) {
    others.push_back({{"family", r.family}, {"key", r.key}, {"medianNs", r.medianNs}});
    if (r.modelledBytesPerOutput > 0) others.back()["modelledBytesPerOutput"] = r.modelledBytesPerOutput;
  }
  j["bestOfOtherFamilies"] = others;
  if (modelledBytesPerOutput > 0) j["modelledBytesPerOutput"] = modelledBytesPerOutput;
  return j;
}

WinExplanation WinExplanation::fromJson(const nlohmann::json &j) {
  auto field = [&](const nlohmann::json &object, const char *name) -> const nlohmann::json & {
    if (!object.is_object() || !object.contains(name))
      throw std::invalid_argument(std::string("why: no '") + name + "'");
    return object.at(name);
  };
  try {
    WinExplanation w;
    w.family = field(j, "family").get<std::string>();
    w.medianNs = field(j, "medianNs").get<double>();
    w.bytesPerOutput = field(j, "bytesPerOutput").get<double>();
    w.achievedBytesPerSecond = field(j, "achievedBytesPerSecond").get<double>();
    if (j.contains("copyRoof")) {
      const nlohmann::json &r = j.at("copyRoof");
      w.roof = MeasuredRoof{field(r, "bytesPerSecond").get<double>(), field(r, "copy").get<std::string>(),
                            field(r, "bufferBytes").get<size_t>()};
    }
    if (j.contains("roofRounds")) {
      const nlohmann::json &r = j.at("roofRounds");
      search::RoofFraction f;
      f.perRound = field(r, "perRound").get<std::vector<double>>();
      f.median = field(r, "median").get<double>();
      f.low = field(r, "low").get<double>();
      f.high = field(r, "high").get<double>();
      f.aboveRoof = f.median > 1.0;
      w.roofInRounds = f;
    }
    for (const nlohmann::json &o : field(j, "bestOfOtherFamilies"))
      w.runnersUp.push_back({field(o, "family").get<std::string>(), field(o, "key").get<std::string>(),
                             field(o, "medianNs").get<double>(), o.value("modelledBytesPerOutput", 0.0)});
    w.modelledBytesPerOutput = j.value("modelledBytesPerOutput", 0.0);
    return w;
  } catch (const nlohmann::json::exception &e) {
    throw std::invalid_argument(std::string("why: ") + e.what());
  }
}

std::string WinExplanation::summary() const {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << "a " << family << " variant; each output needs at least " << bytesPerOutput
    << " bytes moved (inputs read once, result written once), so it moved " << std::setprecision(2)
    << achievedBytesPerSecond / 1e9 << " GB/s";
  auto roofText = [&] {
    std::ostringstream r;
    if (!roof) return std::string("copy not recorded");
    r << std::fixed << std::setprecision(2) << roof->copy << ", " << roof->bytesPerSecond / 1e9 << " GB/s at "
      << std::setprecision(0) << double(roof->bufferBytes) / double(1 << 20) << " MiB buffers";
    return r.str();
  };
  auto roundsText = [&] {
    std::ostringstream r;
    r << std::fixed << std::setprecision(2) << "median of " << roofInRounds->perRound.size() << " rounds, "
      << roofInRounds->low << "-" << roofInRounds->high << ", each against its round's copy; ";
    return r.str();
  };
  if (auto fraction = fractionOfRoof()) {
    s << " = " << *fraction << " of the copy roof (" << (roofInRounds ? roundsText() : "") << roofText() << ")";
  } else if (auto problem = roofProblem()) {
    // Not a figure: the copy and the kernel were timed in different phases of the machine.
    s << "; against the copy roof that is " << *problem << " (" << (roofInRounds ? roundsText() : "") << roofText()
      << "), above 1.0: a measurement problem, no fraction reported";
  } else {
    s << " (no copy roof measured)";
  }
  // Where a kernel moves more than the compulsory bytes by the model (the
  // temporaries of separate kernels), say so: it is why fusing wins or not.
  auto traffic = [&](double modelled) {
    if (modelled > bytesPerOutput * (1 + 1e-9))
      s << std::setprecision(1) << ", modelled " << modelled << " bytes/output with its temporaries";
  };
  traffic(modelledBytesPerOutput);
  if (runnersUp.empty()) {
    s << "; no other family ran";
  } else {
    s << "; ahead of the best ";
    for (size_t i = 0; i < runnersUp.size(); ++i) {
      s << (i ? ", " : "") << runnersUp[i].family << " " << std::setprecision(2)
        << runnersUp[i].medianNs / std::max(medianNs, 1e-9) << "x (" << runnersUp[i].key;
      traffic(runnersUp[i].modelledBytesPerOutput);
      s << ")";
    }
  }
  return s.str();
}

WinExplanation explainWin(const std::vector<Evaluation> &evaluations, size_t best, double bytesPerOutput,
                          int64_t outputElements, const std::function<double(size_t)> &modelledBytes) {
  auto modelled = [&](size_t i) { return modelledBytes ? modelledBytes(i) : 0.0; };
  const Evaluation &winner = evaluations.at(best);
  if (winner.record.outcome != search::Outcome::Ok || winner.record.medianNs <= 0)
    throw std::invalid_argument("explainWin: the best evaluation did not run successfully");
  WinExplanation w;
  w.family = familyOf(winner.configuration);
  w.medianNs = winner.record.medianNs;
  w.bytesPerOutput = bytesPerOutput;
  w.achievedBytesPerSecond = bytesPerOutput * double(outputElements) / (winner.record.medianNs * 1e-9);
  w.modelledBytesPerOutput = modelled(best);
  std::map<std::string, FamilyRunnerUp> bestOf;
  for (size_t i = 0; i < evaluations.size(); ++i) {
    const Evaluation &e = evaluations[i];
    if (e.record.outcome != search::Outcome::Ok) continue;
    std::string family = familyOf(e.configuration);
    if (family == w.family) continue;
    auto it = bestOf.find(family);
    if (it == bestOf.end() || e.record.medianNs < it->second.medianNs)
      bestOf[family] = {family, e.record.key, e.record.medianNs, modelled(i)};
  }
  for (auto &[family, runnerUp] : bestOf) w.runnersUp.push_back(runnerUp);
  std::sort(w.runnersUp.begin(), w.runnersUp.end(),
            [](const FamilyRunnerUp &a, const FamilyRunnerUp &b) { return a.medianNs < b.medianNs; });
  return w;
}

MeasuredRoof measureRoof(tuner::Device &device, double bytesPerOutput, int64_t outputElements) {
  tuner::CopyProbe probe;
  probe.bufferBytes = roofBufferBytes(bytesPerOutput, outputElements);
  tuner::CopyBandwidth bandwidth = device.measureCopyBandwidth(probe);
  return {bandwidth.bytesPerSecond, bandwidth.candidates.at(bandwidth.roof).label(), bandwidth.bufferBytes};
}

} // namespace liftcc::explore
