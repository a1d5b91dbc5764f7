// The kirchhoff-top tools: --symplecticity prints, for all four schemes at the deck's top and dt,
// the symplecticity defect of the z-maps and the Poisson defect of the maps induced on se(3)*
// (complex step and central differences); --convergence prints errors at T vs dt and the orders.
#include "setup/top/TopTools.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/Error.hpp"
#include "core/Mpi.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "models/top/Reference.hpp"
#include "models/top/Symplecticity.hpp"
#include "models/top/TopModel.hpp"
#include "setup/top/TopSetup.hpp"

namespace kirchhoff::setup {

namespace {

using top::TopConfig;
using top::TopScheme;
using top::TopStepper;

Eigen::VectorXd startState(const TopConfig& c, TopScheme s) {
  if (top::isCollective(s)) return Eigen::VectorXd(top::initialZ(c.initial));
  return Eigen::VectorXd(top::initialHeavyTopState(c.initial));
}

void advance(const TopStepper& st, Eigen::VectorXd& x, long steps) {
  for (long n = 0; n < steps; ++n)
    if (!st.step(x).converged)
      throw NumericalError(st.name() + ": Newton did not converge at step " + std::to_string(n + 1),
                           n + 1);
}

// Defect table; exit 1 if the collective implicit midpoint is not symplectic to 1e-10 (a bug).
int symplecticityTool(const io::Deck& deck, MPI_Comm comm, const std::string& /*outdir*/) {
  const TopConfig c = readTopConfig(deck, io::readRunConfig(deck).dt);
  const io::DeckNode sy = deck.root().map("symplecticity");
  std::vector<long> at;
  for (double v : sy.vector("at_steps")) {
    if (v != std::floor(v)) sy.fail("at_steps", "steps must be whole numbers");
    at.push_back(static_cast<long>(v));
  }
  std::sort(at.begin(), at.end());
  const double delta = sy.real("delta");
  const bool root = rankOf(comm) == 0;
  if (root) {
    std::printf("# one-step map defects, dt = %.6g (max-norm of the entries)\n", c.dt);
    std::printf("# symplectic: |S^T Omega S - Omega|, S = dz1/dz (collective schemes only)\n");
    std::printf("# Poisson:    |D P D^T - B(Pi1, Gamma1)|, D = d(Pi1, Gamma1)/dx, P = Omega or B\n");
    std::printf("# cs: complex step (h = 1e-30); fd: central differences (delta = %.3g)\n", delta);
    std::printf("%-30s %8s %12s %12s %12s %12s\n", "scheme", "step", "sympl_cs", "sympl_fd",
                "poisson_cs", "poisson_fd");
  }
  double worst = 0.0;
  for (int si = 0; si < 4; ++si) {
    const auto s = static_cast<TopScheme>(si);
    const TopStepper st(s, c.top, c.dt, c.newton);
    Eigen::VectorXd x = startState(c, s);
    long done = 0;
    for (long target : at) {
      advance(st, x, target - done);
      done = target;
      const top::StepJacobians cs = top::stepJacobiansComplexStep(st, x);
      const top::StepJacobians fd = top::stepJacobiansCentral(st, x, delta);
      const double pcs = top::poissonDefect(st, x, cs), pfd = top::poissonDefect(st, x, fd);
      if (st.collective()) {
        const double scs = top::symplecticityDefect(cs.S), sfd = top::symplecticityDefect(fd.S);
        if (s == TopScheme::CollectiveImplicitMidpoint) worst = std::max(worst, scs);
        if (root)
          std::printf("%-30s %8ld %12.3e %12.3e %12.3e %12.3e\n", st.name().c_str(), target, scs,
                      sfd, pcs, pfd);
      } else if (root) {
        std::printf("%-30s %8ld %12s %12s %12.3e %12.3e\n", st.name().c_str(), target, "-", "-",
                    pcs, pfd);
      }
    }
  }
  if (root) std::fflush(stdout);
  if (worst > 1e-10) {
    if (root)
      std::fprintf(stderr, "error: collective implicit midpoint symplecticity defect %.3e > 1e-10\n",
                   worst);
    return kExitNumerical;
  }
  return kExitOk;
}

// Errors |(Pi, Gamma)(T) - reference(T)| for each scheme and dt, with the observed orders.
int convergenceTool(const io::Deck& deck, MPI_Comm comm, const std::string& /*outdir*/) {
  const TopConfig c = readTopConfig(deck, io::readRunConfig(deck).dt);
  const io::DeckNode cv = deck.root().map("convergence");
  const std::vector<double> dts = cv.vector("dt");
  const double T = cv.real("end_time");
  integrators::Dop853Options ro;
  ro.rtol = ro.atol = cv.real("reference_tol");
  integrators::Dop853Stats rs;
  const top::Vec6 y0 = top::initialHeavyTopState(c.initial);
  const top::Vec6 ref = top::heavyTopReference(c.top, y0, 0.0, {T}, ro, &rs)[0];
  const bool root = rankOf(comm) == 0;
  if (root) {
    std::printf("# errors |(Pi, Gamma)(T) - DOP853(T)|_2 at T = %.6g; reference rtol = atol = %.3g "
                "(%ld steps, %ld rejected)\n", T, ro.rtol, rs.steps, rs.rejected);
    std::printf("%-30s %12s %10s %12s %8s %10s\n", "scheme", "dt", "steps", "error", "order",
                "seconds");
  }
  for (int si = 0; si < 4; ++si) {
    const auto s = static_cast<TopScheme>(si);
    double previous = -1.0, previousDt = 0.0;
    for (double dt : dts) {
      const double n = T / dt;
      const long steps = std::lround(n);
      if (std::abs(n - static_cast<double>(steps)) > 1e-9 * n)
        cv.fail("dt", "end_time is not a whole number of steps " + std::to_string(dt));
      const TopStepper st(s, c.top, dt, c.newton);
      Eigen::VectorXd x = startState(c, s);
      const double t0 = MPI_Wtime();
      advance(st, x, steps);
      const double seconds = MPI_Wtime() - t0;
      const double err = (st.heavyTopState(x) - ref).norm();
      if (root) {
        if (previous > 0.0)
          std::printf("%-30s %12.6g %10ld %12.4e %8.3f %10.3e\n", st.name().c_str(), dt, steps, err,
                      std::log(previous / err) / std::log(previousDt / dt), seconds);
        else
          std::printf("%-30s %12.6g %10ld %12.4e %8s %10.3e\n", st.name().c_str(), dt, steps, err,
                      "-", seconds);
      }
      previous = err;
      previousDt = dt;
    }
  }
  if (root) std::fflush(stdout);
  return kExitOk;
}

}  // namespace

std::vector<run::Tool> topTools() {
  return {
      {"--symplecticity",
       "print symplecticity and Poisson defects of the four one-step maps (exit 1 if the "
       "collective implicit midpoint's exceeds 1e-10)",
       symplecticityTool},
      {"--convergence", "print errors against DOP853 vs dt for the four schemes, with orders",
       convergenceTool},
  };
}

}  // namespace kirchhoff::setup
