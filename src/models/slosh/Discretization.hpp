// The Lagrangian grid of the slosh model (docs/slosh.md (SL-7), (SL-8), (SL-11)):
// a_i = i da, da = L/(N+1); h0_i, half-point depths H_{i+1/2}, quadrature weights e_i, rest energy, CFL.
#pragma once

#include <cstddef>
#include <vector>

#include "models/slosh/SloshConfig.hpp"

namespace kirchhoff::slosh {

/// Per-node and per-cell coefficients of the nodes [first, first + n) (1-based global index i).
/// Cell k of the slab is the cell between nodes first - 1 + k and first + k (k = 0..n).
struct SlabCoefficients {
  std::size_t first = 1;
  std::size_t n = 0;
  bool ownsLastCell = false;        ///< the slab ends at node N: cell n (node N to the wall) is ours
  std::vector<double> forceCoef;    ///< g da / (2 h0_i)
  std::vector<double> sigmaWeight;  ///< rho da e_i h0_i  (sigma = c_b rho da w_0 + sum sigmaWeight_i w_i)
  std::vector<double> massWeight;   ///< rho da h0_i      (kinetic energy, symplectic form)
  std::vector<double> nodeDepth;    ///< h0_i
  std::vector<double> cellHsq;      ///< H_{j+1/2}^2, n + 1 cells
  std::vector<double> cellPotential;///< rho g H_{j+1/2}^2 da^2 / 2
  std::vector<double> cellLabelMass;///< rho H_{j+1/2} da (mass of the cell)
};

class Discretization {
 public:
  /// Throws ConfigurationError for N < 2, non-positive depth or masses, or a bad profile.
  Discretization(const Parameters& par, const Profile& profile, double dt);

  const Parameters& parameters() const { return par_; }
  int points() const { return par_.points; }
  double da() const { return da_; }
  double dt() const { return dt_; }
  double length() const { return par_.length; }
  double gravity() const { return par_.gravity; }
  double density() const { return par_.density; }
  double vehicleMass() const { return par_.vehicleMass; }
  double stiffness() const { return par_.stiffness; }

  double label(std::size_t i) const { return static_cast<double>(i) * da_; }  ///< a_i
  double depth(std::size_t i) const;      ///< h0_i, i = 0..N+1
  double halfDepth(std::size_t j) const;  ///< H_{j+1/2} = (h0_j + h0_{j+1})/2, j = 0..N
  double weight(std::size_t i) const;     ///< quadrature weight e_i (trapezoid: 1/2, 1, ..., 1, 1/2)

  /// c_b = e_0 h0_0 + e_{N+1} h0_{N+1}: weight of the wall velocity w_0 = w_{N+1} = q_t in sigma.
  double wallWeight() const { return cb_; }
  /// 1 + beta, beta = rho da c_b / m_v: p - sigma = (p - S) / (1 + beta), S = sum sigmaWeight_i w_i.
  double onePlusBeta() const { return onePlusBeta_; }
  /// m_v + rho da c_b: the vehicle mass seen by q_t in the discrete kinetic energy.
  double effectiveVehicleMass() const { return par_.vehicleMass * onePlusBeta_; }
  /// m_f = rho da sum_j H_{j+1/2} (the discrete fluid mass) [kg/m].
  double fluidMass() const { return fluidMass_; }
  double meanDepth() const { return fluidMass_ / (par_.density * par_.length); }
  double maxDepth() const { return maxDepth_; }
  /// E_rest = rho g da^2 (sum_j H_{j+1/2})^2 / (2 L): the minimum of the discrete potential
  /// (flat surface, fluid at rest, q = 0).
  double restEnergy() const { return restEnergy_; }

  /// Wave CFL bound da / sqrt(g h_max) (C = 1: the grid's top mode has omega = 2 c / da).
  double waveCflBound() const;
  /// Spring bound 2 / sqrt(nu / m_v) (infinite without a spring).
  double springBound() const;
  double stabilityBound() const;  ///< min of both

  SlabCoefficients slab(std::size_t first, std::size_t n) const;

 private:
  Parameters par_;
  Profile depth_;
  double dt_;
  double da_;
  double cb_ = 0.0, onePlusBeta_ = 1.0, fluidMass_ = 0.0, maxDepth_ = 0.0, restEnergy_ = 0.0;
};

}  // namespace kirchhoff::slosh
