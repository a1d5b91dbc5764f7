// Analytic smooth curves (docs/fluidbody.md "High-order boundary integrals"): evaluation with two
// derivatives; area, centroid and polar moment by the trapezoidal rule, exact for these trigonometric
// polynomials (Green's formulas A = 1/2 oint x dy - y dx, int Z dA = 1/3 oint r^3 e^{is} ds, ...).
#include "fluid/geometry/SmoothCurve.hpp"

#include <cmath>
#include <sstream>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {


/// Star radius r(s) = R (1 + sum a_k cos ks + b_k sin ks) and its first two s-derivatives.
void starRadius(const SmoothCurve& c, double s, double& r, double& r1, double& r2) {
  double f = 1.0, f1 = 0.0, f2 = 0.0;
  const std::size_t K = std::max(c.cosCoeffs.size(), c.sinCoeffs.size());
  for (std::size_t k = 1; k <= K; ++k) {
    const double ak = k <= c.cosCoeffs.size() ? c.cosCoeffs[k - 1] : 0.0;
    const double bk = k <= c.sinCoeffs.size() ? c.sinCoeffs[k - 1] : 0.0;
    const double kk = static_cast<double>(k), ck = std::cos(kk * s), sk = std::sin(kk * s);
    f += ak * ck + bk * sk;
    f1 += kk * (-ak * sk + bk * ck);
    f2 += -kk * kk * (ak * ck + bk * sk);
  }
  r = c.radius * f, r1 = c.radius * f1, r2 = c.radius * f2;
}

/// Fills area, polar moment (and for a star the centroid shift) by the trapezoidal rule on M points,
/// exact for the trigonometric polynomials of the integrands (degree <= 4 K + 4 < M).
void moments(SmoothCurve& c, int M) {
  double A = 0.0, J = 0.0;
  Vec2 first = Vec2::Zero();
  for (int k = 0; k < M; ++k) {
    Vec2 x, d1, d2;
    c.eval(2.0 * kPi * k / M, x, d1, d2);
    const double cr = lie::cross(x, d1);  // x dy - y dx
    A += 0.5 * cr;
    first += cr / 3.0 * x;           // int Z dA = 1/3 oint Z (Z x dZ)
    J += 0.25 * x.squaredNorm() * cr;  // int |Z|^2 dA = 1/4 oint |Z|^2 (Z x dZ)
  }
  const double h = 2.0 * kPi / M;
  A *= h, J *= h, first *= h;
  const Vec2 centroid = first / A;
  c.shift += centroid;
  c.area = A;
  c.polarMoment = J - A * centroid.squaredNorm();
}

}  // namespace

void requirePositive(const std::string& kind, const std::string& key, double v) {
  if (!(v > 0.0) || !std::isfinite(v)) {
    std::ostringstream os;
    os << "body shape '" << kind << "': " << key << " must be positive and finite, got " << v;
    throw ConfigurationError(os.str());
  }
}


void SmoothCurve::eval(double s, Vec2& x, Vec2& d1, Vec2& d2) const {
  const double cs = std::cos(s), sn = std::sin(s);
  if (kind == "ellipse") {
    x = Vec2(a * cs, b * sn);
    d1 = Vec2(-a * sn, b * cs);
    d2 = Vec2(-a * cs, -b * sn);
  } else {
    double r = radius, r1 = 0.0, r2 = 0.0;
    if (kind == "star") starRadius(*this, s, r, r1, r2);
    const Vec2 e(cs, sn), t(-sn, cs);
    x = r * e;
    d1 = r1 * e + r * t;
    d2 = (r2 - r) * e + 2.0 * r1 * t;
  }
  x -= shift;
}

Vec2 SmoothCurve::point(double s) const {
  Vec2 x, d1, d2;
  eval(s, x, d1, d2);
  return x;
}

SmoothCurve circleCurve(double radius) {
  requirePositive("circle", "radius", radius);
  SmoothCurve c;
  c.kind = "circle";
  c.radius = radius;
  c.area = kPi * radius * radius;
  c.polarMoment = 0.5 * kPi * radius * radius * radius * radius;
  return c;
}

SmoothCurve ellipseCurve(double a, double b) {
  requirePositive("ellipse", "a", a);
  requirePositive("ellipse", "b", b);
  SmoothCurve c;
  c.kind = "ellipse";
  c.a = a, c.b = b;
  c.area = kPi * a * b;
  c.polarMoment = 0.25 * kPi * a * b * (a * a + b * b);
  return c;
}

SmoothCurve starCurve(double radius, const std::vector<double>& cosCoeffs, const std::vector<double>& sinCoeffs) {
  requirePositive("star", "radius", radius);
  SmoothCurve c;
  c.kind = "star";
  c.radius = radius;
  c.cosCoeffs = cosCoeffs;
  c.sinCoeffs = sinCoeffs;
  for (double v : cosCoeffs)
    if (!std::isfinite(v)) throw ConfigurationError("body shape 'star': cos coefficients must be finite");
  for (double v : sinCoeffs)
    if (!std::isfinite(v)) throw ConfigurationError("body shape 'star': sin coefficients must be finite");
  const int K = static_cast<int>(std::max(cosCoeffs.size(), sinCoeffs.size()));
  moments(c, 8 * K + 64);
  // r > 0 and star-shaped about the centroid: Z x Z' > 0 along the curve (checked densely).
  const int M = 64 * (K + 1) + 256;
  for (int k = 0; k < M; ++k) {
    const double s = 2.0 * kPi * k / M;
    double r, r1, r2;
    starRadius(c, s, r, r1, r2);
    Vec2 x, d1, d2;
    c.eval(s, x, d1, d2);
    if (!(r > 0.0) || !(lie::cross(x, d1) > 0.0)) {
      std::ostringstream os;
      os << "body shape 'star': the curve is not star-shaped about its centroid (r(s) = " << r
         << " at s = " << s << "); use smaller coefficients";
      throw ConfigurationError(os.str());
    }
  }
  return c;
}

}  // namespace kirchhoff::fluid
