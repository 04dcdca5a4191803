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

size_t roofBufferBytes(double bytesPerOutput, int64_t outputElements) {
  constexpr double kAtLeast = double(size_t{1} << 20);
  double half = bytesPerOutput * double(outputElements) / 2;
  return size_t(std::clamp(half, kAtLeast, double(tuner::Device::kCopyBufferBytes)));
}

std::optional<double> WinExplanation::fractionOfRoof() const {
  if (!roof || roof->bytesPerSecond <= 0) return std::nullopt;
  return achievedBytesPerSecond / roof->bytesPerSecond;
}

nlohmann::json WinExplanation::toJson() const {
  nlohmann::json j{{"family", family},
                   {"medianNs", medianNs},
                   {"bytesPerOutput", bytesPerOutput},
                   {"achievedBytesPerSecond", achievedBytesPerSecond}};
  if (roof) {
    j["copyRoof"] = {
        {"bytesPerSecond", roof->bytesPerSecond}, {"copy", roof->copy}, {"bufferBytes", roof->bufferBytes}};
    j["fractionOfRoof"] = *fractionOfRoof();
  }
  nlohmann::json others = nlohmann::json::array();
  for (const FamilyRunnerUp &r : runnersUp)
    others.push_back({{"family", r.family}, {"key", r.key}, {"medianNs", r.medianNs}});
  j["bestOfOtherFamilies"] = others;
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
    for (const nlohmann::json &o : field(j, "bestOfOtherFamilies"))
      w.runnersUp.push_back({field(o, "family").get<std::string>(), field(o, "key").get<std::string>(),
                             field(o, "medianNs").get<double>()});
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
  if (auto fraction = fractionOfRoof())
    s << " = " << *fraction << " of the copy roof (" << roof->copy << ", " << roof->bytesPerSecond / 1e9 << " GB/s at "
      << std::setprecision(0) << double(roof->bufferBytes) / double(1 << 20) << " MiB buffers)";
  else
    s << " (no copy roof measured)";
  if (runnersUp.empty()) {
    s << "; no other family ran";
  } else {
    s << "; ahead of the best ";
    for (size_t i = 0; i < runnersUp.size(); ++i)
      s << (i ? ", " : "") << runnersUp[i].family << " " << std::setprecision(2)
        << runnersUp[i].medianNs / std::max(medianNs, 1e-9) << "x (" << runnersUp[i].key << ")";
  }
  return s.str();
}

WinExplanation explainWin(const std::vector<Evaluation> &evaluations, size_t best, double bytesPerOutput,
                          int64_t outputElements) {
  const Evaluation &winner = evaluations.at(best);
  if (winner.record.outcome != tuner::Outcome::Ok || winner.record.medianNs <= 0)
    throw std::invalid_argument("explainWin: the best evaluation did not run successfully");
  WinExplanation w;
  w.family = familyOf(winner.configuration);
  w.medianNs = winner.record.medianNs;
  w.bytesPerOutput = bytesPerOutput;
  w.achievedBytesPerSecond = bytesPerOutput * double(outputElements) / (winner.record.medianNs * 1e-9);
  std::map<std::string, FamilyRunnerUp> bestOf;
  for (const Evaluation &e : evaluations) {
    if (e.record.outcome != tuner::Outcome::Ok) continue;
    std::string family = familyOf(e.configuration);
    if (family == w.family) continue;
    auto it = bestOf.find(family);
    if (it == bestOf.end() || e.record.medianNs < it->second.medianNs)
      bestOf[family] = {family, e.record.key, e.record.medianNs};
  }
  for (auto &[family, runnerUp] : bestOf) w.runnersUp.push_back(runnerUp);
  std::sort(w.runnersUp.begin(), w.runnersUp.end(),
            [](const FamilyRunnerUp &a, const FamilyRunnerUp &b) { return a.medianNs < b.medianNs; });
  return w;
}

MeasuredRoof measureRoof(tuner::Device &device, double bytesPerOutput, int64_t outputElements) {
  tuner::CopyBandwidth bandwidth =
      device.measureCopyBandwidth(/*warmups=*/1, /*runs=*/3, roofBufferBytes(bytesPerOutput, outputElements));
  return {bandwidth.bytesPerSecond, bandwidth.candidates.at(bandwidth.roof).label(), bandwidth.bufferBytes};
}

} // namespace liftcc::explore
