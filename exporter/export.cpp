#include "exporter/export.h"

#include "core/io/safe_file.h"
#include "exporter/cuda_host.h"
#include "exporter/opencl_host.h"

#include <filesystem>
#include <stdexcept>

namespace liftcc::exporter {

namespace fs = std::filesystem;

ExportedPair exportPair(const ExportPlan &plan, const std::string &prefix) {
  switch (plan.target) {
  case codegen::Target::OpenCL: return exportOpenCL(plan, prefix);
  case codegen::Target::CUDA: return exportCuda(plan, prefix);
  }
  throw std::logic_error("unknown target");
}

std::vector<std::string> writePairs(const std::vector<ExportedPair> &pairs, const std::string &directory) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error || !fs::is_directory(directory))
    throw std::runtime_error("cannot create the output directory '" + directory + "'" +
                             (error ? ": " + error.message() : ""));
  std::vector<std::string> written;
  for (const ExportedPair &pair : pairs)
    for (const auto &[name, text] :
         {std::pair{pair.headerFile, pair.header}, std::pair{pair.sourceFile, pair.source}}) {
      if (fs::path(name).filename() != fs::path(name))
        throw std::logic_error("exported file name with a directory: " + name);
      fs::path path = fs::path(directory) / name;
      // Atomic (temporary file + rename) and never through a link below --out.
      io::writeFile(path.string(), text, fs::path(directory));
      written.push_back(path.string());
    }
  return written;
}

} // namespace liftcc::exporter
