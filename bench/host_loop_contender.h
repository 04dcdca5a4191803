#pragma once
// The host loop of an explored single step: for an iterated example,
// iterate(n, f, A), the best kernel `liftc explore` recorded for a program
// that computes one step f(A) (another example), launched n times by the
// host with its input and output swapped between steps. Issue #33 compares
// the iterated program's explored best (time tiles: several steps per
// launch) with it, the obvious way to run n steps of the best single step.

#include "bench/contenders.h"

namespace liftcc::bench {

/// One row per recorded best kernel (options' `explored`) whose program is
/// another example computing one step of `example`'s iterate, checked by
/// interpreting both on the same random inputs at small sizes; none when
/// `example` is not an iterate over one of its inputs.
std::vector<Contender> hostLoopContenders(const examples::Example &example,
                                          const std::vector<explore::BestKernel> &explored);

} // namespace liftcc::bench
