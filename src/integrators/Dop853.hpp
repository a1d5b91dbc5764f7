// Adaptive Dormand–Prince 8(5,3) Runge–Kutta (Hairer, Norsett, Wanner, Solving ODEs I, Sec. II.10,
// and their dop853.f): 12-stage order-8 step, combined 5th/3rd-order error estimate, beta = 0 control.
//
// One step from (t, y) with step h and k1 = f(t, y):
//   k_i = f(t + c_i h, y + h sum_{j<i} a_ij k_j),  i = 2..12;   y1 = y + h sum_i b_i k_i  (order 8)
//   err5 = h sum_i e5_i k_i,  err3 = h (sum_i b_i k_i - bhh1 k1 - bhh2 k9 - bhh3 k12),
//   sk_j = atol + rtol max(|y_j|, |y1_j|),  E5 = sum (err5_j/sk_j)^2,  E3 = sum (err3_j/sk_j)^2,
//   err = E5 / sqrt(n (E5 + 0.01 E3))   (the dop853.f estimator, = |h| ERR/sqrt(n DENO) there).
// Accept if err <= 1; new step h / clamp(err^(1/8) / 0.9, 1/6, 3) (no growth after a rejection).
// The first step follows dop853.f HINIT. Output times are hit exactly by shortening the step.
// Cost: 12 evaluations per accepted step (11 stages + f at the new point, reused as the next k1),
// 11 per rejected step, plus 2 at start (f(t0), and the HINIT Euler probe when h0 = 0).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include <Eigen/Dense>

#include "core/Error.hpp"

namespace kirchhoff::integrators {

struct Dop853Options {
  double rtol = 1e-12;
  double atol = 1e-12;
  double h0 = 0.0;  ///< initial step; 0: automatic (dop853.f HINIT)
  long maxSteps = 100000000;
};

struct Dop853Stats {
  long steps = 0, rejected = 0, evaluations = 0;
};

namespace dop853detail {

// Nodes c_i, i = 1..12 (c_1 = 0; c_12 = 1). Published constants (dop853.f, Hairer's coefficients).
inline constexpr double c2 = 0.526001519587677318785587544488e-01;
inline constexpr double c3 = 0.789002279381515978178381316732e-01;
inline constexpr double c4 = 0.118350341907227396726757197510e+00;
inline constexpr double c5 = 0.281649658092772603273242802490e+00;
inline constexpr double c6 = 0.333333333333333333333333333333e+00;
inline constexpr double c7 = 0.25e+00;
inline constexpr double c8 = 0.307692307692307692307692307692e+00;
inline constexpr double c9 = 0.651282051282051282051282051282e+00;
inline constexpr double c10 = 0.6e+00;
inline constexpr double c11 = 0.857142857142857142857142857142e+00;

// Weights b_i of the 8th-order solution (b2..b5 = 0).
inline constexpr double b1 = 5.42937341165687622380535766363e-2;
inline constexpr double b6 = 4.45031289275240888144113950566e0;
inline constexpr double b7 = 1.89151789931450038304281599044e0;
inline constexpr double b8 = -5.8012039600105847814672114227e0;
inline constexpr double b9 = 3.1116436695781989440891606237e-1;
inline constexpr double b10 = -1.52160949662516078556178806805e-1;
inline constexpr double b11 = 2.01365400804030348374776537501e-1;
inline constexpr double b12 = 4.47106157277725905176885569043e-2;

// Third-order embedded weights entering err3.
inline constexpr double bhh1 = 0.244094488188976377952755905512e+00;
inline constexpr double bhh2 = 0.733846688281611857341361741547e+00;
inline constexpr double bhh3 = 0.220588235294117647058823529412e-01;

// Fifth-order error weights e5_i.
inline constexpr double er1 = 0.1312004499419488073250102996e-01;
inline constexpr double er6 = -0.1225156446376204440720569753e+01;
inline constexpr double er7 = -0.4957589496572501915214079952e+00;
inline constexpr double er8 = 0.1664377182454986536961530415e+01;
inline constexpr double er9 = -0.3503288487499736816886487290e+00;
inline constexpr double er10 = 0.3341791187130174790297318841e+00;
inline constexpr double er11 = 0.8192320648511571246570742613e-01;
inline constexpr double er12 = -0.2235530786388629525884427845e-01;

// Coupling coefficients a_ij.
inline constexpr double a21 = 5.26001519587677318785587544488e-2;
inline constexpr double a31 = 1.97250569845378994544595329183e-2;
inline constexpr double a32 = 5.91751709536136983633785987549e-2;
inline constexpr double a41 = 2.95875854768068491816892993775e-2;
inline constexpr double a43 = 8.87627564304205475450678981324e-2;
inline constexpr double a51 = 2.41365134159266685502369798665e-1;
inline constexpr double a53 = -8.84549479328286085344864962717e-1;
inline constexpr double a54 = 9.24834003261792003115737966543e-1;
inline constexpr double a61 = 3.7037037037037037037037037037e-2;
inline constexpr double a64 = 1.70828608729473871279604482173e-1;
inline constexpr double a65 = 1.25467687566822425016691814123e-1;
inline constexpr double a71 = 3.7109375e-2;
inline constexpr double a74 = 1.70252211019544039314978060272e-1;
inline constexpr double a75 = 6.02165389804559606850219397283e-2;
inline constexpr double a76 = -1.7578125e-2;
inline constexpr double a81 = 3.70920001185047927108779319836e-2;
inline constexpr double a84 = 1.70383925712239993810214054705e-1;
inline constexpr double a85 = 1.07262030446373284651809199168e-1;
inline constexpr double a86 = -1.53194377486244017527936158236e-2;
inline constexpr double a87 = 8.27378916381402288758473766002e-3;
inline constexpr double a91 = 6.24110958716075717114429577812e-1;
inline constexpr double a94 = -3.36089262944694129406857109825e0;
inline constexpr double a95 = -8.68219346841726006818189891453e-1;
inline constexpr double a96 = 2.75920996994467083049415600797e1;
inline constexpr double a97 = 2.01540675504778934086186788979e1;
inline constexpr double a98 = -4.34898841810699588477366255144e1;
inline constexpr double a101 = 4.77662536438264365890433908527e-1;
inline constexpr double a104 = -2.48811461997166764192642586468e0;
inline constexpr double a105 = -5.90290826836842996371446475743e-1;
inline constexpr double a106 = 2.12300514481811942347288949897e1;
inline constexpr double a107 = 1.52792336328824235832596922938e1;
inline constexpr double a108 = -3.32882109689848629194453265587e1;
inline constexpr double a109 = -2.03312017085086261358222928593e-2;
inline constexpr double a111 = -9.3714243008598732571704021658e-1;
inline constexpr double a114 = 5.18637242884406370830023853209e0;
inline constexpr double a115 = 1.09143734899672957818500254654e0;
inline constexpr double a116 = -8.14978701074692612513997267357e0;
inline constexpr double a117 = -1.85200656599969598641566180701e1;
inline constexpr double a118 = 2.27394870993505042818970056734e1;
inline constexpr double a119 = 2.49360555267965238987089396762e0;
inline constexpr double a1110 = -3.0467644718982195003823669022e0;
inline constexpr double a121 = 2.27331014751653820792359768449e0;
inline constexpr double a124 = -1.05344954667372501984066689879e1;
inline constexpr double a125 = -2.00087205822486249909675718444e0;
inline constexpr double a126 = -1.79589318631187989172765950534e1;
inline constexpr double a127 = 2.79488845294199600508499808837e1;
inline constexpr double a128 = -2.85899827713502369474065508674e0;
inline constexpr double a129 = -8.87285693353062954433549289258e0;
inline constexpr double a1210 = 1.23605671757943030647266201528e1;
inline constexpr double a1211 = 6.43392746015763530355970484046e-1;

/// One trial step: the 8th-order solution y1 and the scaled error norm err (accept if <= 1).
/// k1 = f(t, y) is given; 11 evaluations of f.
template <class F>
void trialStep(F& f, double t, const Eigen::VectorXd& y, const Eigen::VectorXd& k1, double h,
               const Dop853Options& opt, Eigen::VectorXd& y1, double& err) {
  using V = Eigen::VectorXd;
  const V k2 = f(t + c2 * h, V(y + h * (a21 * k1)));
  const V k3 = f(t + c3 * h, V(y + h * (a31 * k1 + a32 * k2)));
  const V k4 = f(t + c4 * h, V(y + h * (a41 * k1 + a43 * k3)));
  const V k5 = f(t + c5 * h, V(y + h * (a51 * k1 + a53 * k3 + a54 * k4)));
  const V k6 = f(t + c6 * h, V(y + h * (a61 * k1 + a64 * k4 + a65 * k5)));
  const V k7 = f(t + c7 * h, V(y + h * (a71 * k1 + a74 * k4 + a75 * k5 + a76 * k6)));
  const V k8 = f(t + c8 * h, V(y + h * (a81 * k1 + a84 * k4 + a85 * k5 + a86 * k6 + a87 * k7)));
  const V k9 = f(t + c9 * h, V(y + h * (a91 * k1 + a94 * k4 + a95 * k5 + a96 * k6 + a97 * k7 +
                                         a98 * k8)));
  const V k10 = f(t + c10 * h, V(y + h * (a101 * k1 + a104 * k4 + a105 * k5 + a106 * k6 +
                                           a107 * k7 + a108 * k8 + a109 * k9)));
  const V k11 = f(t + c11 * h, V(y + h * (a111 * k1 + a114 * k4 + a115 * k5 + a116 * k6 +
                                           a117 * k7 + a118 * k8 + a119 * k9 + a1110 * k10)));
  const V k12 = f(t + h, V(y + h * (a121 * k1 + a124 * k4 + a125 * k5 + a126 * k6 + a127 * k7 +
                                     a128 * k8 + a129 * k9 + a1210 * k10 + a1211 * k11)));
  const V bk = b1 * k1 + b6 * k6 + b7 * k7 + b8 * k8 + b9 * k9 + b10 * k10 + b11 * k11 + b12 * k12;
  y1 = y + h * bk;
  const V e5 = er1 * k1 + er6 * k6 + er7 * k7 + er8 * k8 + er9 * k9 + er10 * k10 + er11 * k11 +
               er12 * k12;
  const V e3 = bk - bhh1 * k1 - bhh2 * k9 - bhh3 * k12;
  double s5 = 0.0, s3 = 0.0;
  for (Eigen::Index j = 0; j < y.size(); ++j) {
    const double sk = opt.atol + opt.rtol * std::max(std::abs(y[j]), std::abs(y1[j]));
    s5 += (e5[j] / sk) * (e5[j] / sk);
    s3 += (e3[j] / sk) * (e3[j] / sk);
  }
  double deno = s5 + 0.01 * s3;
  if (deno <= 0.0) deno = 1.0;
  err = std::abs(h) * s5 / std::sqrt(static_cast<double>(y.size()) * deno);
}

/// dop853.f HINIT: a first step with h^8 max(|f0|, |f'|) ~ 0.01 in the scaled norm (2 evaluations
/// counted by the caller: f0 and one Euler-step evaluation).
template <class F>
double initialStep(F& f, double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0,
                   double hmax, const Dop853Options& opt) {
  double dnf = 0.0, dny = 0.0;
  Eigen::VectorXd sk(y.size());
  for (Eigen::Index j = 0; j < y.size(); ++j) {
    sk[j] = opt.atol + opt.rtol * std::abs(y[j]);
    dnf += (f0[j] / sk[j]) * (f0[j] / sk[j]);
    dny += (y[j] / sk[j]) * (y[j] / sk[j]);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : 0.01 * std::sqrt(dny / dnf);
  h = std::min(h, hmax);
  const Eigen::VectorXd f1 = f(t + h, Eigen::VectorXd(y + h * f0));
  const double der2 = ((f1 - f0).array() / sk.array()).matrix().norm() / h;
  const double der12 = std::max(std::abs(der2), std::sqrt(dnf));
  const double h1 = der12 <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / der12, 1.0 / 8.0);
  return std::min({100.0 * h, h1, hmax});
}

}  // namespace dop853detail

/// Integrates y' = f(t, y) from t0 through the increasing output times `times` (each hit exactly)
/// and returns y at each of them. Throws NumericalError if the step size underflows, the
/// solution is not finite, or maxSteps is exceeded.
template <class F>
std::vector<Eigen::VectorXd> dop853(F&& f, double t0, const Eigen::VectorXd& y0,
                                    const std::vector<double>& times,
                                    const Dop853Options& opt = {}, Dop853Stats* stats = nullptr) {
  using namespace dop853detail;
  constexpr double safe = 0.9, facMin = 1.0 / 3.0, facMax = 6.0;
  constexpr double uround = std::numeric_limits<double>::epsilon();
  Dop853Stats st;
  std::vector<Eigen::VectorXd> out;
  out.reserve(times.size());
  double t = t0;
  Eigen::VectorXd y = y0;
  auto fail = [&](const std::string& why) {
    std::ostringstream m;
    m << "dop853: " << why << " at t = " << t << " after " << st.steps << " steps";
    if (stats) *stats = st;
    throw NumericalError(m.str(), st.steps);
  };
  for (std::size_t i = 1; i < times.size(); ++i)
    if (!(times[i] >= times[i - 1])) fail("output times not increasing");
  if (!times.empty() && !(times.front() >= t0)) fail("first output time before t0");
  if (!(opt.rtol > 0.0 || opt.atol > 0.0)) fail("rtol and atol both zero");

  Eigen::VectorXd k1 = f(t, y);
  ++st.evaluations;
  double h = opt.h0;
  const double span = times.empty() ? 0.0 : times.back() - t0;
  if (h <= 0.0 && span > 0.0) {
    h = initialStep(f, t, y, k1, span, opt);
    ++st.evaluations;
  }
  bool rejectedLast = false;
  Eigen::VectorXd y1(y.size());
  for (const double tout : times) {
    while (t < tout) {
      if (st.steps + st.rejected >= opt.maxSteps) fail("more than maxSteps steps");
      if (0.1 * std::abs(h) <= std::abs(t) * uround) fail("step size underflow");
      const double hFree = h;  // the controller's step, before shortening to hit tout
      const bool last = t + 1.01 * h >= tout;
      if (last) h = tout - t;
      double err = 0.0;
      trialStep(f, t, y, k1, h, opt, y1, err);
      st.evaluations += 11;
      if (!std::isfinite(err)) err = 1e10;  // reject a step that left the domain of f
      const double fac11 = std::pow(err, 1.0 / 8.0);
      const double fac = std::clamp(fac11 / safe, 1.0 / facMax, 1.0 / facMin);
      double hnew = h / fac;
      if (err <= 1.0) {
        ++st.steps;
        if (rejectedLast) hnew = std::min(hnew, h);
        rejectedLast = false;
        y = y1;
        t = last ? tout : t + h;
        k1 = f(t, y);  // the next step's first stage
        ++st.evaluations;
        if (!y.allFinite() || !k1.allFinite()) fail("solution not finite");
        if (last) hnew = std::max(hnew, hFree);  // a shortened step says nothing about growth
      } else {
        ++st.rejected;
        hnew = h / std::min(1.0 / facMin, fac11 / safe);
        rejectedLast = true;
      }
      h = hnew;
    }
    out.push_back(y);
  }
  if (stats) *stats = st;
  return out;
}

}  // namespace kirchhoff::integrators
