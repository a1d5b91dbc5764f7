// Benchmark of the 2D Laplace FMM (docs/fluidbody.md (FB-50)-(FB-54)) against direct summation: the
// vortex self sums phi and Phi' for M random vortices, side by side in one process; prints the ratio.
// Run: build/bin/bench_fluid_fmm [M ...]   (default 1024 4096 16384)
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "fluid/fast/LaplaceFmm.hpp"

using namespace kirchhoff::fluid;
using C = std::complex<double>;

namespace {

template <class F>
double best(F&& f, int reps) {
  double b = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = MPI_Wtime();
    f();
    b = std::min(b, MPI_Wtime() - t0);
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1024, 4096, 16384};
  std::printf("| vortices | order | direct ms | FMM ms | ratio | max rel. error phi | max rel. error Phi' |\n"
              "|---|---|---|---|---|---|---|\n");
  for (int M : sizes) {
    std::mt19937 gen(1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<C> z;
    std::vector<C> q;
    for (int j = 0; j < M; ++j) z.emplace_back(8.0 * u(gen), 8.0 * u(gen)), q.emplace_back(u(gen) - 0.5, 0.0);
    std::vector<double> p0(M), p1(M);
    std::vector<C> d0(M), d1(M);
    const int reps = M > 8192 ? 1 : 3;
    const double td = best([&] { laplaceDirect(z, q, z, 0, {p0.data(), d0.data(), nullptr}); }, reps);
    for (int order : {30, 45}) {
      FmmOptions o;
      o.order = order;
      const double tf = best([&] { laplaceFmm(z, q, z, 0, {p1.data(), d1.data(), nullptr}, o); }, reps);
      double ep = 0, mp = 0, ed = 0, md = 0;
      for (int k = 0; k < M; ++k) {
        ep = std::max(ep, std::abs(p1[k] - p0[k])), mp = std::max(mp, std::abs(p0[k]));
        ed = std::max(ed, std::abs(d1[k] - d0[k])), md = std::max(md, std::abs(d0[k]));
      }
      std::printf("| %d | %d | %.1f | %.1f | %.1f | %.1e | %.1e |\n", M, order, 1e3 * td, 1e3 * tf, td / tf,
                  ep / mp, ed / md);
      std::fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
