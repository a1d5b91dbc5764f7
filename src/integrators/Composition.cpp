// Coefficients of the symmetric compositions (docs/composition.md (CM-4)-(CM-7)): the triple jump
// and Suzuki's five-stage method in closed form, Kahan & Li 1997 s9odr6a and s17odr8a to 26 digits.
#include "integrators/Composition.hpp"

#include <cmath>

#include "core/Error.hpp"

namespace kirchhoff::integrators {

namespace {

// Palindrome gamma_1 .. gamma_m, gamma_{m-1} .. gamma_1 from its first half (m = middle).
std::vector<double> palindrome(const std::vector<double>& half) {
  std::vector<double> g = half;
  for (std::size_t i = half.size() - 1; i-- > 0;) g.push_back(half[i]);
  return g;
}

std::vector<double> tripleJump() {  // (CM-4): gamma_1 = 1 / (2 - 2^(1/3))
  const double g1 = 1.0 / (2.0 - std::cbrt(2.0));
  return {g1, 1.0 - 2.0 * g1, g1};
}

std::vector<double> suzuki5() {  // (CM-5): gamma_1 = 1 / (4 - 4^(1/3))
  const double g1 = 1.0 / (4.0 - std::cbrt(4.0));
  return {g1, g1, 1.0 - 4.0 * g1, g1, g1};
}

std::vector<double> kahanLi6() {  // (CM-6): s9odr6a
  return palindrome({0.39216144400731413927925056, 0.33259913678935943859974864,
                     -0.70624617255763935980996482, 0.08221359629355080023149045,
                     0.79854399093482996339895035});
}

std::vector<double> kahanLi8() {  // (CM-7): s17odr8a
  return palindrome({0.13020248308889008087881763, 0.56116298177510838456196441,
                     -0.38947496264484728640807860, 0.15884190655515560089621075,
                     -0.39590389413323757733623154, 0.18453964097831570709183254,
                     0.25837438768632204729397911, 0.29501172360931029887096624,
                     -0.60550853383003451169892108});
}

}  // namespace

const Choices<Composition>& compositions() {
  static const Choices<Composition> c("composition", {{"none", Composition::None},
                                                      {"triple_jump", Composition::TripleJump},
                                                      {"suzuki5", Composition::Suzuki5},
                                                      {"kahan_li6", Composition::KahanLi6},
                                                      {"kahan_li8", Composition::KahanLi8}});
  return c;
}

const std::vector<double>& compositionCoefficients(Composition c) {
  static const std::vector<double> none = {1.0}, tj = tripleJump(), s5 = suzuki5(),
                                   kl6 = kahanLi6(), kl8 = kahanLi8();
  switch (c) {
    case Composition::None: return none;
    case Composition::TripleJump: return tj;
    case Composition::Suzuki5: return s5;
    case Composition::KahanLi6: return kl6;
    case Composition::KahanLi8: return kl8;
  }
  return none;
}

int compositionOrder(Composition c) {
  switch (c) {
    case Composition::None: return 2;
    case Composition::TripleJump: return 4;
    case Composition::Suzuki5: return 4;
    case Composition::KahanLi6: return 6;
    case Composition::KahanLi8: return 8;
  }
  return 2;
}

std::string compositionDescription() {
  return "symmetric composition of the symmetric order-2 step (docs/composition.md): none; "
         "triple_jump: order 4, 3 stages (Yoshida 1990); suzuki5: order 4, 5 stages (Suzuki 1990); "
         "kahan_li6: order 6, 9 stages; kahan_li8: order 8, 17 stages (Kahan and Li 1997)";
}

}  // namespace kirchhoff::integrators
