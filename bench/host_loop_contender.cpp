#include "bench/host_loop_contender.h"

#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/typecheck/typecheck.h"
#include "driver/pipeline.h"
#include "explore/configuration.h"
#include "primitives/api.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc::bench {

namespace {

/// The iterated program run for one step: iterate(1, f, A), same sizes.
Program oneStepOf(const Program &iterated) {
  const Expr &body = iterated.body();
  return Program{iterated.sizes,
                 Expr::lambda(iterated.inputs(), api::iterate(arith::Expr(1), funOf(body), inputOf(body)))};
}

/// Whether `candidate` computes what one step of `iterated` does: the same
/// inputs, and the same values on random ones at a small size (9 along every
/// dimension: every boundary case of a radius up to 4 stencil, and cheap).
bool computesOneStep(const Program &iterated, const Program &candidate) {
  if (candidate.inputs().size() != iterated.inputs().size()) return false;
  for (size_t i = 0; i < candidate.inputs().size(); ++i)
    if (candidate.inputs()[i].name() != iterated.inputs()[i].name()) return false;
  try {
    std::map<std::string, int64_t> small;
    for (const arith::Expr &size : iterated.sizes) small[size.varName()] = 9;
    Program step = typeCheck(oneStepOf(iterated), small);
    Program typedCandidate = typeCheck(candidate, small);
    std::vector<Value> inputs = randomInputs(step, small, 1);
    return !compareValues(interpret(step, small, inputs), interpret(typedCandidate, small, inputs));
  } catch (const Error &) {
    return false; // another signature or sizes: not this step
  }
}

Contender hostLoopContender(const explore::BestKernel &best, const examples::Example &stepExample) {
  explore::Configuration configuration = explore::Configuration::fromJson(best.launch.at("configuration"));
  std::string variant =
      "host loop of explored " + stepExample.name + " " + configuration.key() + " @" + best.launch.value("sizes", "?");
  Contender contender{
      variant, ContenderKind::Generated, configuration.tile > 0 ? configuration.tile : 1,
      [configuration, stepExample](const Program &typed, const Sizes &sizes, codegen::Target target) {
        const Expr &body = typed.body();
        Program step = typeCheck(stepExample.build(), sizes);
        codegen::Kernel kernel = driver::generate(driver::lower(step, configuration), configuration, target);
        if (!kernel.stages.empty() || kernel.iteration)
          throw std::invalid_argument("the single step is not one kernel");
        const std::string iterated = inputOf(body).name();
        auto input = std::find_if(kernel.args.begin(), kernel.args.end(), [&](const codegen::KernelArg &a) {
          return a.role == codegen::KernelArg::Role::Input && a.name == iterated;
        });
        if (input == kernel.args.end()) throw std::invalid_argument("the single step does not read " + iterated);
        kernel.iteration =
            codegen::Kernel::Iteration{iterateCount(body), {size_t(input - kernel.args.begin())}, {}, {}};
        return ContenderKernel{std::move(kernel), driver::launchLocalSize(configuration)};
      }};
  contender.tolerance = codegen::fastMathTolerance(configuration.fastMath, configuration.divToMul);
  return contender;
}

} // namespace

std::vector<Contender> hostLoopContenders(const examples::Example &example,
                                          const std::vector<explore::BestKernel> &explored) {
  Program iterated = example.build();
  if (!iterated.body().isPrim(Op::Iterate) || !inputOf(iterated.body()).is(ExprKind::Param)) return {};
  std::vector<Contender> out;
  std::map<std::string, bool> isStep; // per program name, checked once
  for (const explore::BestKernel &best : explored) {
    std::string program = best.launch.value("program", "");
    if (program == example.name) continue;
    const examples::Example *candidate = nullptr;
    try {
      candidate = &examples::findExample(program);
    } catch (const std::invalid_argument &) {
      continue; // a program of the results directory that is not an example
    }
    auto [known, inserted] = isStep.emplace(program, false);
    if (inserted) known->second = computesOneStep(iterated, candidate->build());
    if (known->second) out.push_back(hostLoopContender(best, *candidate));
  }
  return out;
}

} // namespace liftcc::bench
