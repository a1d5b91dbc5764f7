// Initial depth profile h0(a) of the particle-path shallow-water model (docs/slosh.md, "Model"):
// a sum of terms (constant, linear slope, cosine mode, Gaussian bump, tabulated values), in metres.
#pragma once

#include <string>
#include <vector>

#include "core/Constants.hpp"

namespace kirchhoff::slosh {

/// One additive term of h0(a) on the tank [0, L]; all lengths in metres.
struct ProfileTerm {
  enum class Kind { Constant, Linear, Cosine, Gaussian, Table };
  Kind kind = Kind::Constant;
  double p0 = 0.0, p1 = 0.0, p2 = 0.0;  ///< parameters, see the factories
  std::vector<double> labels, values;   ///< Table: nodes a_k (increasing) and h_k

  /// h0 = value.
  static ProfileTerm constant(double value);
  /// Linear slope from `left` at a = 0 to `right` at a = L.
  static ProfileTerm linear(double left, double right);
  /// amplitude * cos(mode pi a / L): odd modes antisymmetric about L/2, even modes symmetric.
  static ProfileTerm cosine(double amplitude, double mode);
  /// amplitude * exp(-((a - center) / width)^2).
  static ProfileTerm gaussian(double amplitude, double center, double width);
  /// Piecewise-linear interpolation of (labels, values); labels must cover [0, L].
  static ProfileTerm table(std::vector<double> labels, std::vector<double> values);

  double operator()(double a, double length) const;
  std::string describe() const;
};

/// h0(a) = sum of its terms. Throws ConfigurationError from validate() if a table is malformed.
class Profile {
 public:
  Profile() = default;
  explicit Profile(std::vector<ProfileTerm> terms) : terms_(std::move(terms)) {}
  void add(const ProfileTerm& t) { terms_.push_back(t); }
  double operator()(double a, double length) const;
  /// Checks every table term against the tank [0, length]; throws ConfigurationError.
  void validate(double length) const;
  std::string describe() const;
  const std::vector<ProfileTerm>& terms() const { return terms_; }

 private:
  std::vector<ProfileTerm> terms_;
};

}  // namespace kirchhoff::slosh
