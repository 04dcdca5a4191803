#pragma once
// Kernel Tuner (PyPI kernel_tuner, through PyOpenCL) as a peer of liftc
// bench: bench/peers/kernel_tuner_peer.py tunes the example's hand-written
// kernel (bench/reference/) over work-group shape and coarsening on the
// benchmarked device, and hands back the best configuration's output, time
// and tuning time. liftc runs it as a subprocess; Python never enters the
// compiler.

#include "bench/peers.h"

#include <optional>
#include <string>

namespace liftcc::bench {

struct KernelTunerSetup {
  std::string python = "python3";
  std::string script; ///< path of kernel_tuner_peer.py
  bool quick = false; ///< tune the script's reduced space (tests)
};

/// The setup when python3 can import kernel_tuner and pyopencl and the script
/// exists; otherwise the reason why not (one line), in `whyNot`.
std::optional<KernelTunerSetup> findKernelTuner(std::string &whyNot);

/// The peer for an example with a hand-written kernel. Its verification call
/// (a single timed run, at the small size) tunes a reduced space; the timing
/// call tunes the full space at the benchmark size, and reports the best
/// configuration's time and the tuning time.
std::optional<Peer> kernelTunerPeer(const KernelTunerSetup &setup, const examples::Example &example,
                                    const ocl::DeviceInfo &device);

} // namespace liftcc::bench
