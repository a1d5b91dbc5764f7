// The exact added mass of two circular cylinders in an unbounded ideal fluid (docs/fluidbody.md
// (FB-63)): the infinite chain of image dipoles at inverse points (Milne-Thomson's circle theorem).
//
// Derivation (first principles, no fit). A circle |z - c| = a translating with complex velocity U alone
// has w = mu / (z - c), mu = -a^2 U. For a dipole mu at z0 outside a circle (c, a) the circle theorem
// f(z) + conj(f(a^2 / conj(z - c) + c)) adds, up to a constant, a dipole at the inverse point
// c + a^2 / conj(z0 - c) of strength -conj(mu) a^2 / conj(z0 - c)^2 and makes the circle a
// streamline. Reflecting each body's own dipole in the other circle, the image in the first, and so on,
// gives the potential of both moving circles; the strengths fall geometrically (ratio
// exp(-2 (xi_1 + xi_2)) per double reflection, xi the bipolar coordinates of the circles), so the
// series converges at every gap > 0. The kinetic energy T = -rho/2 sum_k oint_k phi (U_k . n) ds with
//   oint_k phi n ds = pi sum_{inside k} mu + pi a_k^2 conj(w_out'(c_k))
// (residues: the singularities inside circle k, and the regular part w_out of the outside ones),
// so A_ab = -rho Re(conj(e_a) I_k(e_b)) for the unit velocities e_a of body k.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include <Eigen/Dense>

namespace kirchhoff::fluid::test {

/// Translational added mass (U_1x, U_1y, U_2x, U_2y) of circles (c1, a1), (c2, a2), density rho;
/// terms kept until the newest image is below 1e-18 of the first (the tail is below 1e-16 relative).
inline Eigen::Matrix4d twoCylinderAddedMass(std::complex<double> c1, double a1, std::complex<double> c2, double a2,
                                            double rho) {
  using C = std::complex<double>;
  constexpr double kPi = 3.14159265358979323846264338327950288;
  const C c[2] = {c1, c2};
  const double a[2] = {a1, a2};
  struct Dipole {
    C z, mu;
  };
  Eigen::Matrix4d A;
  for (int b = 0; b < 4; ++b) {
    C U[2] = {0.0, 0.0};
    U[b / 2] = b % 2 ? C(0.0, 1.0) : C(1.0, 0.0);
    std::vector<Dipole> inside[2];
    Dipole fresh[2];
    bool live[2];
    for (int k = 0; k < 2; ++k) {
      fresh[k] = {c[k], -a[k] * a[k] * U[k]};
      live[k] = std::abs(fresh[k].mu) > 0.0;
      if (live[k]) inside[k].push_back(fresh[k]);
    }
    const double first = std::max(a1 * a1, a2 * a2);
    for (int it = 0; it < 1000000 && (live[0] || live[1]); ++it) {
      Dipole next[2];
      bool nextLive[2] = {false, false};
      for (int k = 0; k < 2; ++k) {  // the image in circle o of body k's newest dipole
        if (!live[k]) continue;
        const int o = 1 - k;
        const C r = fresh[k].z - c[o];
        next[o] = {c[o] + a[o] * a[o] / std::conj(r), -std::conj(fresh[k].mu) * a[o] * a[o] / std::conj(r * r)};
        nextLive[o] = std::abs(next[o].mu) > 1e-18 * first;
        inside[o].push_back(next[o]);
      }
      for (int k = 0; k < 2; ++k) fresh[k] = next[k], live[k] = nextLive[k];
    }
    for (int k = 0; k < 2; ++k) {
      C own(0.0, 0.0), dw(0.0, 0.0);
      for (const Dipole& d : inside[k]) own += d.mu;
      for (const Dipole& d : inside[1 - k]) dw += -d.mu / ((c[k] - d.z) * (c[k] - d.z));
      const C I = kPi * own + kPi * a[k] * a[k] * std::conj(dw);
      A(2 * k, b) = -rho * I.real();      // e_a = 1
      A(2 * k + 1, b) = -rho * I.imag();  // e_a = i: Re(conj(i) I) = Im I
    }
  }
  return A;
}

}  // namespace kirchhoff::fluid::test
