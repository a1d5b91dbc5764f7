// The benchmarks' step timer: one warm-up step, then the best mean over `blocks` blocks of `block`
// FluidBodyModel steps (docs/fluidbody.md "Reference results"), in ms per step.
#pragma once

#include <mpi.h>

#include <algorithm>

#include "models/fluidbody/FluidBodyModel.hpp"

namespace kirchhoff::bench {

inline double msPerStep(fluidbody::FluidBodyModel& m, State& s, int block, int blocks) {
  m.step(s);
  s.step += 1;
  double best = 1e300;
  for (int k = 0; k < blocks; ++k) {
    const double t1 = MPI_Wtime();
    for (int i = 0; i < block; ++i) {
      m.step(s);
      s.step += 1;
    }
    best = std::min(best, (MPI_Wtime() - t1) / block);
  }
  return 1e3 * best;
}

}  // namespace kirchhoff::bench
