// Symmetric compositions Psi_h = Phi_{gamma_s h} o ... o Phi_{gamma_1 h} of a symmetric one-step
// map Phi of order 2 (docs/composition.md (CM-1)-(CM-3); coefficient tables (CM-4)-(CM-7)).
#pragma once

#include <string>
#include <vector>

#include "core/Choices.hpp"

namespace kirchhoff::integrators {

/// The coefficient sets of docs/composition.md.
enum class Composition {
  None,        ///< Phi_h itself (order 2)
  TripleJump,  ///< Yoshida 1990 / Suzuki 1990, 3 stages, order 4 (CM-4)
  Suzuki5,     ///< Suzuki 1990 fractal, 5 stages, order 4 (CM-5)
  KahanLi6,    ///< Kahan & Li 1997 s9odr6a, 9 stages, order 6 (CM-6)
  KahanLi8,    ///< Kahan & Li 1997 s17odr8a, 17 stages, order 8 (CM-7)
};

/// The deck names (scheme.composition), in the order of the enum.
const Choices<Composition>& compositions();
inline std::string compositionName(Composition c) { return compositions().name(c); }
/// gamma_1 .. gamma_s: sum 1, gamma_i = gamma_{s+1-i}; {1} for None.
const std::vector<double>& compositionCoefficients(Composition c);
inline int compositionStages(Composition c) {
  return static_cast<int>(compositionCoefficients(c).size());
}
/// Classical order of the composition of a symmetric map of order 2: 2, 4, 4, 6, 8.
int compositionOrder(Composition c);
/// One-line description for the deck reference ("kahan_li6: order 6, 9 stages (Kahan & Li 1997)").
std::string compositionDescription();

/// Psi_h (CM-1): calls step(gamma_i h) for i = 1..s in order; stops at the first sub-step that
/// returns false and returns false (the caller keeps its own copy of the state to roll back).
template <class Step>
bool compose(Composition c, double h, Step&& step) {
  for (const double g : compositionCoefficients(c))
    if (!step(g * h)) return false;
  return true;
}

}  // namespace kirchhoff::integrators
