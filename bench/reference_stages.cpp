#include "bench/reference_stages.h"

#include "bench/reference_kernels.h"
#include "core/interp/components.h"
#include "core/ir/operands.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc::bench {

std::optional<ReferenceSchedule> referenceSchedule(const std::string &example) {
  // Rodinia's two SRAD kernels with the coefficients in a temporary grid.
  if (example == "srad_two_stage")
    return ReferenceSchedule{{"srad1", "srad2"}, {{"srad1", {"J"}, {"C"}}, {"srad2", {"J", "C"}, {"out"}}}};
  if (example == "wave2d") return ReferenceSchedule{{"wave2d"}, {{"wave2d", {"U", "Uprev"}, {"out_0", "out_1"}}}};
  // The smoothed grid is the first result and the Laplacian's input.
  if (example == "chain3d_radius2")
    return ReferenceSchedule{
        {"chain3d_radius2"},
        {{"chain3d_radius2_smooth", {"A"}, {"out_0"}}, {"chain3d_radius2_laplacian", {"out_0"}, {"out_1"}}}};
  if (example == "jacobi2d_5pt_iter16" || example == "jacobi2d_5pt_iter64")
    return ReferenceSchedule{{"jacobi2d_5pt"}, {{"jacobi2d_5pt", {"A"}, {"out"}}}};
  return std::nullopt;
}

using codegen::KernelArg;

void addReferenceGrid(codegen::Kernel &kernel, const examples::Example &example,
                      const std::map<std::string, int64_t> &sizes) {
  const size_t dims = example.sizeNames.size();
  if (dims < 1 || dims > 3) throw std::invalid_argument("reference kernels are 1D to 3D");
  kernel.dims = static_cast<int>(dims);
  for (size_t d = 0; d < dims; ++d) {
    const std::string &name = example.sizeNames[d];
    auto it = sizes.find(name);
    if (it == sizes.end()) throw std::invalid_argument("no value for size " + name);
    kernel.args.push_back({name, KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)});
    // Sizes are outermost first, NDRange dimensions innermost first.
    kernel.globalSize[dims - 1 - d] = arith::Expr(it->second);
  }
}

codegen::Kernel scheduledReferenceKernel(const examples::Example &example, const ReferenceSchedule &schedule,
                                         codegen::Target target, const Program &typed,
                                         const std::map<std::string, int64_t> &sizes) {
  int64_t points = 1;
  for (const std::string &name : example.sizeNames) points *= sizes.at(name);
  const arith::Expr grid(points);

  codegen::Kernel kernel;
  kernel.target = target;
  kernel.name = schedule.stages.back().kernel;
  for (const std::string &file : schedule.files) {
    std::optional<ReferenceKernel> source = findReferenceKernel(file, target);
    if (!source) throw std::invalid_argument("no reference source " + file + " for " + example.name);
    kernel.source += std::string(source->source) + "\n";
  }
  std::vector<std::string> inputs, outputs;
  for (const Expr &input : typed.inputs()) inputs.push_back(input.name());
  const size_t components = componentCount(typed.body().typeOrThrow());
  for (size_t c = 0; c < components; ++c) outputs.push_back(components == 1 ? "out" : "out_" + std::to_string(c));
  for (const std::string &name : inputs) kernel.args.push_back({name, KernelArg::Role::Input, ScalarKind::Float, grid});
  for (const std::string &name : outputs)
    kernel.args.push_back({name, KernelArg::Role::Output, ScalarKind::Float, grid});
  addReferenceGrid(kernel, example, sizes);

  if (schedule.stages.size() == 1) {
    // One kernel; an iterated program runs it once per step.
    if (typed.body().isPrim(Op::Iterate))
      kernel.iteration = codegen::Kernel::Iteration{iterateCount(typed.body()), {0}, {}, {}};
    return kernel;
  }
  auto known = [&](const std::string &name) {
    return std::find(inputs.begin(), inputs.end(), name) != inputs.end() ||
           std::find(outputs.begin(), outputs.end(), name) != outputs.end();
  };
  for (const ReferenceStage &s : schedule.stages) {
    codegen::Kernel stage;
    stage.target = target;
    stage.name = s.kernel;
    for (const std::string &name : s.reads)
      stage.args.push_back({name, KernelArg::Role::Input, ScalarKind::Float, grid});
    for (const std::string &name : s.writes) {
      stage.args.push_back({name, KernelArg::Role::Output, ScalarKind::Float, grid});
      bool listed = std::any_of(kernel.temporaries.begin(), kernel.temporaries.end(),
                                [&](const KernelArg &t) { return t.name == name; });
      if (!known(name) && !listed)
        kernel.temporaries.push_back({name, KernelArg::Role::Output, ScalarKind::Float, grid});
    }
    addReferenceGrid(stage, example, sizes);
    kernel.stages.push_back(std::move(stage));
  }
  return kernel;
}

} // namespace liftcc::bench
