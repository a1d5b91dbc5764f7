// A tree fast multipole method over leaf clusters (docs/fluidbody.md (FB-57)-(FB-60)): quadtree-like cells over
// the leaves' disks, dual-tree traversal into M2L pairs and near leaf pairs, the forward and transposed passes
// on radius-scaled complex expansions, and the pose gradient of a far bilinear form; distributed by owned leaves.
#pragma once

#include <mpi.h>

#include <array>
#include <complex>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/ExpansionTranslation.hpp"

namespace kirchhoff::fluid {

/// A leaf cluster: a disk (centre, radius > 0) holding all of its sources and targets.
struct Cluster {
  std::complex<double> centre;
  double radius = 0.0;
};

/// Default relative truncation target of the expansions (-panel_multipole_tol, (FB-44)): at eta = 2 it gives
/// p = 42, whose error against the exact blocks (BodyGrid's disks, 64 to 1024 bodies) is already at the
/// rounding floor of the sums, 1e-14 .. 1e-13 (bench_fluidbody_operator).
constexpr double kMultipoleTol = 1e-12;

/// Expansion order of pairs separated by eta (r_A + r_B) with relative truncation error ~ tol ((FB-44)).
int multipoleOrder(double eta, double tol = kMultipoleTol);

/// Reorders index[begin, end) so that its first half holds the points z[index[.]] below the median along the longer
/// side of their box (ties: the other coordinate, then the index), and returns the middle position.
int halveAtMedian(const std::vector<std::complex<double>>& z, std::vector<int>& index, int begin, int end);

/// Multipole of a leaf (scaled by its radius r, about its centre c):
///   Omega(Z) = a_0 log(Z - c) + sum_{k=1}^p a_k (r / (Z - c))^k;
/// local expansion: Omega(c + z) = sum_{l=0}^p b_l (z / r)^l. Coefficient matrices hold one leaf per column.
class ClusterTree {
 public:
  /// The translation lists of one kind of pass: which leaves carry sources and which want local expansions
  /// (the same flags on every rank; a rank takes its owned ones). M2M over the cells holding owned sources,
  /// M2L from cells holding any source into cells holding owned targets, L2L down to the owned targets.
  struct Plan {
    std::vector<std::vector<Translation>> m2m, l2l;  // by depth of the child: child -> parent, parent -> child
    std::vector<Translation> m2l;
    long work = 0;  // sum of (q + 1)^2 over m2l
    int order = 0;  // highest order of its translations: coefficients above it stay zero
  };

  /// `order` p and separation `eta` > 1: cells A, B with |c_A - c_B| > eta (R_A + R_B) interact by M2L.
  ClusterTree(MPI_Comm comm, int order, double eta);

  /// The tree over `leaves` and its lists; `owned[i]`: leaf i's multipole is computed on this rank and its
  /// local expansion is wanted here. Identical on every rank (same leaves, same tree). Not collective.
  void build(const std::vector<Cluster>& leaves, const std::vector<char>& owned);
  /// The plan of a pass with sources on the leaves flagged in `sources` and targets on those in `targets`.
  Plan plan(const std::vector<char>& sources, const std::vector<char>& targets) const;

  int order() const { return p_; }
  double eta() const { return eta_; }
  int leafCount() const { return static_cast<int>(leaves_.size()); }
  int cellCount() const { return static_cast<int>(cells_.size()); }
  const Cluster& leaf(int i) const { return leaves_[static_cast<std::size_t>(i)]; }
  bool owned(int i) const { return owned_[static_cast<std::size_t>(i)] != 0; }
  /// Leaf pairs (i < j) that no M2L covers: the caller sums them exactly.
  const std::vector<std::pair<int, int>>& nearPairs() const { return near_; }
  /// Cell pairs joined by M2L (each once; both directions are applied), and the directed M2L this rank applies
  /// in a pass between all leaves.
  long m2lPairs() const { return static_cast<long>(pairs_.size()); }
  long m2lApplied() const { return static_cast<long>(all_.m2l.size()); }
  /// Sum of (q + 1)^2 over the directed M2L this rank applies (q the pair's order): the GEMM work of a pass.
  long m2lWork() const { return all_.work; }
  /// Doubles held by the tree and its lists (per rank).
  long storedDoubles() const;

  /// The plan between all leaves with every translation's order capped at `order`: the FMM of order `order`
  /// (relative truncation ~ eta^-order) for applications that need less than the full accuracy (docs/fluidbody.md
  /// (FB-93)); order >= p gives the full plan. Cached until the next build.
  const Plan& cappedPlan(int order) const;
  /// Local expansions of the owned targets (other columns zero) of the far field of all sources, from the
  /// owned sources' multipoles (other columns ignored): (p+1) x leaves. Without a plan: every leaf is both.
  /// Collective.
  Eigen::MatrixXcd localExpansions(const Plan& plan, const Eigen::MatrixXcd& multipoles) const;
  Eigen::MatrixXcd localExpansions(const Eigen::MatrixXcd& multipoles) const { return localExpansions(all_, multipoles); }
  /// The exact transpose (not conjugate) of localExpansions: local adjoints of the owned targets ->
  /// multipole adjoints of the owned sources (summed over the ranks). Collective.
  Eigen::MatrixXcd multipoleAdjoints(const Plan& plan, const Eigen::MatrixXcd& localAdjoints) const;
  Eigen::MatrixXcd multipoleAdjoints(const Eigen::MatrixXcd& c) const { return multipoleAdjoints(all_, c); }
  /// F = Re sum_{owned P} c_P . L_P(a) with L = localExpansions(a), summed over the ranks: for every owned leaf
  /// (dF/dtheta, dF/dx, dF/dy) for a rotation of its expansions about its centre (a_k, c_k ~ e^{i k theta}) and a
  /// translation, target and source sides ((FB-59), (FB-60)); 3 x leaves, zero for the other leaves. Collective.
  Eigen::Matrix3Xd farGradient(const Eigen::MatrixXcd& a, const Eigen::MatrixXcd& c) const;

  /// (FB-59) for one rigid target leaf of radius r: (dF/dtheta, dF/dx, dF/dy) of Re c . L.
  static Eigen::Vector3d targetGradient(const Eigen::VectorXcd& c, const Eigen::VectorXcd& L, double r);
  /// (FB-60) for one rigid source leaf of radius r: (dF/dtheta, dF/dx, dF/dy) of Re e . a.
  static Eigen::Vector3d sourceGradient(const Eigen::VectorXcd& a, const Eigen::VectorXcd& e, double r);

 private:
  struct Cell {
    std::complex<double> centre;
    double radius = 0.0;
    std::array<int, 4> child{{-1, -1, -1, -1}};
    int children = 0, parent = -1, leaf = -1, depth = 0;
  };
  int buildCell(std::vector<int>& index, int begin, int end, int depth);
  std::vector<std::pair<int, int>> quarter(std::vector<int>& index, int begin, int end) const;
  void enclose(Cell& cell) const;
  void interactSelf(int A);
  void interact(int A, int B);
  /// Cells holding a leaf flagged in `flags` (ancestors included).
  std::vector<char> holding(const std::vector<char>& flags) const;
  Translation m2lTranslation(int from, int to, int order) const;
  /// Sums the first `rows` rows of a cell coefficient matrix over the ranks (the others are zero or unused).
  void sumOverRanks(Eigen::MatrixXcd& cells, int rows) const;
  /// Owned leaf columns placed into (p + 1) x cells (zero elsewhere), and read back out of it.
  Eigen::MatrixXcd ownedLeavesToCells(const Eigen::MatrixXcd& leaves) const;
  Eigen::MatrixXcd cellsToOwnedLeaves(const Eigen::MatrixXcd& cells) const;

  MPI_Comm comm_;
  int p_ = 0, ranks_ = 1, depth_ = 0;
  double eta_ = 2.0;
  TranslationMatrices K_;
  std::vector<Cluster> leaves_;
  std::vector<std::complex<double>> centres_;
  std::vector<char> owned_;
  std::vector<Cell> cells_;
  std::vector<int> leafCell_;
  std::vector<std::pair<int, int>> near_;
  std::vector<std::array<int, 3>> pairs_;  // (A, B, order) of the traversal
  Plan all_;                               // every leaf a source and a target
  mutable std::map<int, Plan> capped_;     // all_ with capped orders, by cap
};

}  // namespace kirchhoff::fluid
