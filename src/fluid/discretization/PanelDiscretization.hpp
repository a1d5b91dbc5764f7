// The constant-strength source-panel discretization of docs/fluidbody.md "Panel method": nodes at the
// edge midpoints, weights = edge lengths, closed-form (Hess-Smith) segment integrals for every entry.
#pragma once

#include <unordered_map>
#include <vector>

#include "fluid/discretization/Discretization.hpp"
#include "fluid/discretization/PanelGeometry.hpp"
#include "fluid/geometry/Polygon.hpp"

namespace kirchhoff::fluid {

/// Diagonal of the normal-derivative system, the +1/2 self term and a correction:
///  None:    1/2 (plain flat panels: first order on polygons sampling smooth curves).
///  Turning: 1/2 + (ln 2 / 4 pi)(e_a + e_b), e the turning angles at the panel ends (fluidbody.md).
///  Flux:    1 - sum_{p != q, same body} l_p M_pq / l_q, so that sum_p l_p (M sigma)_p =
///           sum_q l_q sigma_q on each body: the discrete form of the identity
///           int (1/2 + K') sigma = int sigma (Gauss). Second order, about 2x smaller error than Turning.
///  Auto:    Flux on bodies marked smooth (circle, ellipse, plate), None on other polygons.
enum class PanelCorrection { Auto, None, Turning, Flux };

class PanelDiscretization : public Discretization {
 public:
  /// `cacheMax`: the W' values of assembled inter-body rows are kept for the gradient as long as the
  /// cached entries stay below cacheMax (two doubles each); else the gradient recomputes them.
  PanelDiscretization(std::vector<Polygon> bodies, PanelCorrection correction, long cacheMax);

  std::string name() const override { return "panel"; }
  int bodyCount() const override { return static_cast<int>(polygons_.size()); }
  const BodyNodes& body(int j) const override { return nodes_[static_cast<std::size_t>(j)]; }
  const Eigen::MatrixXd& selfNormal(int j) const override { return selfM_[static_cast<std::size_t>(j)]; }
  const Eigen::MatrixXd& selfPotential(int j) const override { return selfS_[static_cast<std::size_t>(j)]; }
  void interaction(int P, const lie::Pose& gP, int first, int count, int Q, const lie::Pose& gQ, double* M,
                   int ldM, double* S, int ldS) const override;
  Eigen::Vector3d interactionGradient(int P, const lie::Pose& gP, int first, int count, int Q,
                                      const lie::Pose& gQ, const PairWeights& w) const override;
  void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                  Complex* dOmega, double* phi = nullptr) const override;
  Eigen::MatrixXcd multipoleMoments(int j, int order) const override;

  const std::vector<Polygon>& polygons() const { return polygons_; }
  PanelCorrection correction(int j) const { return correction_[static_cast<std::size_t>(j)]; }
  /// Body-frame panel geometry (segments placed at the poses of the last call).
  const PanelGeometry& geometry() const { return geometry_; }

 private:
  void buildSelfBlocks();
  /// Places body j's panels at pose g unless they are there already.
  void place(int j, const lie::Pose& g) const;
  int maxBodySize() const;
  /// The cached W' of rows [first, first + count) of P against Q at these poses, or null.
  struct CachedRows;
  const CachedRows* cached(int P, const lie::Pose& gP, int first, int count, int Q, const lie::Pose& gQ) const;

  std::vector<Polygon> polygons_;
  std::vector<PanelCorrection> correction_;
  std::vector<BodyNodes> nodes_;
  std::vector<Eigen::MatrixXd> selfM_, selfS_;
  mutable PanelGeometry geometry_;
  mutable std::vector<bool> placed_;
  long cacheMax_;
  struct CachedRows {
    int P = -1, Q = -1, first = 0, count = 0;
    lie::Pose gP, gQ;
    std::vector<double> dWr, dWi;  // count x N_Q, row-major
  };
  mutable std::unordered_map<long, CachedRows> cache_;  // key P * n + Q
  mutable long cachedEntries_ = 0;
  mutable std::vector<double> scratch_;  // vertex terms and W' of one row
};

}  // namespace kirchhoff::fluid
