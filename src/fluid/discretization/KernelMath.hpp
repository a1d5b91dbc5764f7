// Branch-free, SIMD elementary functions for the panel-influence loops (fluidbody.md "Panel method":
// every inter-body entry needs one log|z - a| and one arg((z - a)/(z - b))): log and atan2 after Cephes.
#pragma once

#include <cstdint>
#include <cstring>

namespace kirchhoff::fluid::kernel {

/// Lanes of the packs: what the target's widest vector unit holds (AVX-512: 8, AVX: 4, else 2; the
/// compiler lowers packs to scalar code where the target has no vector unit).
#if defined(__AVX512F__)
constexpr int kWidth = 8;
#elif defined(__AVX__)
constexpr int kWidth = 4;
#else
constexpr int kWidth = 2;
#endif

/// A pack of kWidth doubles and the matching 64-bit integer pack (GCC/Clang vector extensions:
/// element-wise IEEE arithmetic, so every lane computes exactly what scalar code with the same
/// operations would; comparisons give all-ones / zero integer lanes).
typedef double Pack __attribute__((vector_size(8 * kWidth)));
typedef std::int64_t Mask __attribute__((vector_size(8 * kWidth)));

/// x in every lane (added to -0 lanes, so a -0 stays -0).
inline Pack broadcast(double x) {
  return reinterpret_cast<Pack>(Mask{} + static_cast<std::int64_t>(0x8000000000000000ULL)) + x;
}
inline Pack load(const double* p) {
  Pack v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, const Pack& v) { std::memcpy(p, &v, sizeof v); }
/// The first `count` (<= kWidth) lanes from p, the others `pad`; and the store of the first `count`.
inline Pack loadPartial(const double* p, int count, double pad) {
  if (count == kWidth) return load(p);
  double buf[kWidth];
  for (int i = 0; i < kWidth; ++i) buf[i] = i < count ? p[i] : pad;
  return load(buf);
}
inline void storePartial(double* p, const Pack& v, int count) {
  if (count == kWidth) return store(p, v);
  for (int i = 0; i < count; ++i) p[i] = v[i];
}
/// Lanes summed in a fixed order.
inline double sum(const Pack& v) {
  double s = 0.0;
  for (int i = 0; i < kWidth; ++i) s += v[i];
  return s;
}
/// m ? a : b lane by lane.
inline Pack select(const Mask& m, const Pack& a, const Pack& b) {
  return reinterpret_cast<Pack>((reinterpret_cast<Mask>(a) & m) | (reinterpret_cast<Mask>(b) & ~m));
}
inline Pack abs(const Pack& x) {
  return reinterpret_cast<Pack>(reinterpret_cast<Mask>(x) & (Mask{} + 0x7fffffffffffffffLL));
}
/// |r| with the sign bit of s.
inline Pack copySign(const Pack& r, const Pack& s) {
  const Mask sign = Mask{} + static_cast<std::int64_t>(0x8000000000000000ULL);
  return reinterpret_cast<Pack>((reinterpret_cast<Mask>(r) & ~sign) | (reinterpret_cast<Mask>(s) & sign));
}

/// Natural logarithm of positive normal numbers (Cephes log: x = m 2^e, m in [sqrt(1/2), sqrt(2)),
/// log(1 + f) = f - f^2/2 + f^3 P(f)/Q(f), e log 2 in two parts). Within 1 ulp of std::log over
/// 1e-300..1e300 (measured, 2e7 arguments). Zero, negative, subnormal, inf and NaN arguments are
/// outside its domain (the panel loops pass squared distances between distinct points).
inline Pack log(const Pack& x) {
  constexpr double P0 = 1.01875663804580931796e-4, P1 = 4.97494994976747001425e-1,
                   P2 = 4.70579119878881725854e0, P3 = 1.44989225341610930846e1,
                   P4 = 1.79368678507819816313e1, P5 = 7.70838733755885391666e0;
  constexpr double Q0 = 1.12873587189167450590e1, Q1 = 4.52279145837532221105e1,
                   Q2 = 8.29875266912776603211e1, Q3 = 7.11544750618563894466e1,
                   Q4 = 2.31251620126765340583e1;
  constexpr double kSqrtHalf = 0.70710678118654752440, kLn2Hi = 0.693359375,
                   kLn2Lo = -2.121944400546905827679e-4;
  const Mask bits = reinterpret_cast<Mask>(x);
  // frexp: x = m 2^e, m in [1/2, 1); the exponent field goes to double through the 2^52 trick.
  const Mask field = (bits >> 52) & 0x7ff;
  const Pack e0 = reinterpret_cast<Pack>(field | 0x4330000000000000LL) - (4503599627370496.0 + 1022.0);
  const Pack m = reinterpret_cast<Pack>((bits & 0x000fffffffffffffLL) | 0x3fe0000000000000LL);
  const Mask low = m < kSqrtHalf;
  const Pack e = select(low, e0 - 1.0, e0);
  const Pack f = select(low, (m + m) - 1.0, m - 1.0);
  const Pack z = f * f;
  const Pack p = ((((P0 * f + P1) * f + P2) * f + P3) * f + P4) * f + P5;
  const Pack q = ((((f + Q0) * f + Q1) * f + Q2) * f + Q3) * f + Q4;
  Pack y = f * (z * p / q);
  y = y + e * kLn2Lo;
  y = y - 0.5 * z;
  return (f + y) + e * kLn2Hi;
}

/// atan2(y, x) in [-pi, pi] with the conventions of std::atan2 for finite arguments (atan2(+-0, x < 0)
/// = +-pi, atan2(+-0, +0) = +-0). Reduction to |t| <= tan(pi/8), t = lo/hi or (lo - hi)/(lo + hi), the
/// Cephes rational approximation t + t z P(z)/Q(z), z = t^2, then pi/4, pi/2, pi with their low-order
/// bits. Within 2 ulp of std::atan2 (measured over 2e7 arguments spanning 1e-8..1e8; 65% exact).
inline Pack atan2(const Pack& y, const Pack& x) {
  constexpr double P0 = -8.750608600031904122785e-1, P1 = -1.615753718733365076637e1,
                   P2 = -7.500855792314704667340e1, P3 = -1.228866684490136173410e2,
                   P4 = -6.485021904942025371773e1;
  constexpr double Q0 = 2.485846490142306297962e1, Q1 = 1.650270098316988542046e2,
                   Q2 = 4.328810604912902668951e2, Q3 = 4.853903996359136964868e2,
                   Q4 = 1.945506571482613964425e2;
  constexpr double kPio4 = 7.85398163397448309616e-1, kPio2 = 1.57079632679489661923e0,
                   kPi = 3.14159265358979323846e0, kLowBits = 6.123233995736765886130e-17;
  constexpr double kTanPi8 = 0.41421356237309504880;
  const Pack ax = abs(x), ay = abs(y);
  const Mask yBig = ay > ax;
  const Pack hi = select(yBig, ay, ax), lo = select(yBig, ax, ay);
  const Mask reduce = lo > kTanPi8 * hi;
  const Pack num = select(reduce, lo - hi, lo);
  const Pack den = select(reduce, lo + hi, select(hi > 0.0, hi, broadcast(1.0)));
  const Pack t = num / den, z = t * t;
  const Pack p = (((P0 * z + P1) * z + P2) * z + P3) * z + P4;
  const Pack q = ((((z + Q0) * z + Q1) * z + Q2) * z + Q3) * z + Q4;
  Pack r = t + t * (z * p / q);
  r = select(reduce, kPio4 + (r + 0.5 * kLowBits), r);
  r = select(yBig, (kPio2 - r) + kLowBits, r);
  r = select(x < 0.0, (kPi - r) + 2.0 * kLowBits, r);
  return copySign(r, y);
}

/// Scalar forms: lane 0 of the packed functions (bitwise the same results as the packed loops).
inline double log(double x) { return log(broadcast(x))[0]; }
inline double atan2(double y, double x) { return atan2(broadcast(y), broadcast(x))[0]; }

}  // namespace kirchhoff::fluid::kernel
