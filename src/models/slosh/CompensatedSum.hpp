// Compensated (double-double, Knuth TwoSum) summation for the sigma integral and the energy sums,
// so partial sums combined in rank order give (almost always) the same rounding on any rank count.
#pragma once

namespace kirchhoff::slosh {

/// Running sum hi + lo with the rounding error of every addition kept in lo.
struct CompensatedSum {
  double hi = 0.0;
  double lo = 0.0;

  void add(double v) {
    const double s = hi + v;
    const double bb = s - hi;
    lo += (hi - (s - bb)) + (v - bb);  // exact rounding error of hi + v (TwoSum)
    hi = s;
  }
  /// Appends another partial sum (used to combine per-rank partials in rank order).
  void add(const CompensatedSum& o) {
    add(o.hi);
    lo += o.lo;
  }
  double value() const { return hi + lo; }
};

/// Plain summation for scalar types other than double (the complex-step derivative).
template <class T>
struct Accumulator {
  T s{};
  void add(const T& v) { s += v; }
  T value() const { return s; }
};

template <>
struct Accumulator<double> {
  CompensatedSum s;
  void add(double v) { s.add(v); }
  double value() const { return s.value(); }
};

}  // namespace kirchhoff::slosh
