// Initial depth profile h0(a): evaluation of the term library (docs/slosh.md, "Model").
// Tabulated terms use piecewise-linear interpolation between the given labels.
#include "models/slosh/Profile.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::slosh {

ProfileTerm ProfileTerm::constant(double value) {
  ProfileTerm t;
  t.kind = Kind::Constant;
  t.p0 = value;
  return t;
}

ProfileTerm ProfileTerm::linear(double left, double right) {
  ProfileTerm t;
  t.kind = Kind::Linear;
  t.p0 = left;
  t.p1 = right;
  return t;
}

ProfileTerm ProfileTerm::cosine(double amplitude, double mode) {
  ProfileTerm t;
  t.kind = Kind::Cosine;
  t.p0 = amplitude;
  t.p1 = mode;
  return t;
}

ProfileTerm ProfileTerm::gaussian(double amplitude, double center, double width) {
  if (!(width > 0.0)) throw ConfigurationError("slosh: Gaussian depth term needs width > 0");
  ProfileTerm t;
  t.kind = Kind::Gaussian;
  t.p0 = amplitude;
  t.p1 = center;
  t.p2 = width;
  return t;
}

ProfileTerm ProfileTerm::table(std::vector<double> labels, std::vector<double> values) {
  if (labels.size() != values.size() || labels.size() < 2)
    throw ConfigurationError("slosh: depth table needs equally many labels and values (at least 2), got " +
                             std::to_string(labels.size()) + " labels and " +
                             std::to_string(values.size()) + " values");
  for (std::size_t k = 1; k < labels.size(); ++k)
    if (!(labels[k] > labels[k - 1]))
      throw ConfigurationError("slosh: depth table labels must increase strictly (entry " +
                               std::to_string(k) + ")");
  ProfileTerm t;
  t.kind = Kind::Table;
  t.labels = std::move(labels);
  t.values = std::move(values);
  return t;
}

double ProfileTerm::operator()(double a, double length) const {
  switch (kind) {
    case Kind::Constant:
      return p0;
    case Kind::Linear:
      return p0 + (p1 - p0) * a / length;
    case Kind::Cosine:
      return p0 * std::cos(p1 * kPi * a / length);
    case Kind::Gaussian: {
      const double s = (a - p1) / p2;
      return p0 * std::exp(-s * s);
    }
    case Kind::Table: {
      auto it = std::upper_bound(labels.begin(), labels.end(), a);
      std::size_t k = static_cast<std::size_t>(it - labels.begin());
      k = std::clamp<std::size_t>(k, 1, labels.size() - 1);
      const double s = (a - labels[k - 1]) / (labels[k] - labels[k - 1]);
      return values[k - 1] + s * (values[k] - values[k - 1]);
    }
  }
  return 0.0;
}

std::string ProfileTerm::describe() const {
  std::ostringstream o;
  switch (kind) {
    case Kind::Constant: o << "constant " << p0; break;
    case Kind::Linear: o << "linear " << p0 << " -> " << p1; break;
    case Kind::Cosine: o << p0 << " cos(" << p1 << " pi a/L)"; break;
    case Kind::Gaussian: o << p0 << " exp(-((a-" << p1 << ")/" << p2 << ")^2)"; break;
    case Kind::Table: o << "table of " << labels.size() << " values"; break;
  }
  return o.str();
}

double Profile::operator()(double a, double length) const {
  double h = 0.0;
  for (const auto& t : terms_) h += t(a, length);
  return h;
}

void Profile::validate(double length) const {
  if (terms_.empty()) throw ConfigurationError("slosh: the depth profile has no terms");
  const double tol = 1e-12 * length;
  for (const auto& t : terms_)
    if (t.kind == ProfileTerm::Kind::Table &&
        (t.labels.front() > tol || t.labels.back() < length - tol))
      throw ConfigurationError("slosh: depth table covers [" + std::to_string(t.labels.front()) +
                               ", " + std::to_string(t.labels.back()) +
                               "] but must cover the tank [0, " + std::to_string(length) + "]");
}

std::string Profile::describe() const {
  std::string s;
  for (const auto& t : terms_) s += (s.empty() ? "" : " + ") + t.describe();
  return s;
}

}  // namespace kirchhoff::slosh
