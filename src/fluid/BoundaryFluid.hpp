// The Fluid of docs/fluidbody.md for any boundary discretization: A(g), M_C, W_G (docs/fluidbody.md
// (FB-7), (FB-9), (FB-10)) and the exact adjoint gradient of F = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> over q
// ((FB-20)-(FB-22)); several bodies: four solves per evaluation whatever n ((FB-22a)).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/BodyClusterOperator.hpp"
#include "fluid/solve/BoundarySystem.hpp"
#include "fluid/solve/KirchhoffSystem.hpp"
#include "fluid/discretization/Discretization.hpp"
#include "fluid/Fluid.hpp"
#include "fluid/GapRefinement.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/fast/VortexPairSums.hpp"
#include "fluid/fast/VortexTerms.hpp"

namespace kirchhoff::fluid {

/// How the inter-body interactions are applied: assembled dense blocks, the matrix-free body-cluster
/// operator of docs/fluidbody.md (FB-41)-(FB-46), or fast from kFastOperatorMinBodies bodies on (auto).
enum class PanelOperator { Dense, Fast, Auto };

/// Smallest body count for which -panel_operator auto picks the body-cluster operator with its cluster trees
/// (bench_fluidbody_many, disks of 32 edges, 4 vortices, 1 rank: dense / fast 0.153 / 0.160 s/step at 16 bodies,
/// 0.75 / 0.47 at 32, 3.5 / 0.90 at 64; with 256 / 1024 / 4096 vortices at 16 bodies 0.48 / 2.2 / 5.1 against
/// 0.18 / 0.31 / 1.07).
constexpr int kFastOperatorMinBodies = 16;

/// How the boundary system is solved (options -<prefix>solver, -<prefix>direct_max,
/// -<prefix>direct_factorization, -<prefix>operator, -<prefix>multipole_order, -<prefix>multipole_eta,
/// -<prefix>multipole_tol, -<prefix>vortex_leaf_size).
struct SolverOptions {
  PanelSolver solver = PanelSolver::Auto;
  int directMax = 2048;  ///< largest N + n solved by dense LU (Auto)
  /// Direct path on several ranks (several bodies): redundant Eigen LU or distributed.
  DirectFactorization factorization = DirectFactorization::Redundant;
  PanelOperator op = PanelOperator::Auto;
  int multipoleOrder = 0;      ///< 0: from eta and multipoleTol (FB-44)
  double multipoleEta = 2.0;   ///< far pairs: |c_P - c_Q| > eta (r_P + r_Q)
  /// KSP path: each solve starts from the last solution of the same right-hand sides within the time
  /// step (FB-47a); the guesses are dropped at every step, so restarts stay bitwise.
  bool warmStart = true;
  /// Relative truncation of the far field when multipoleOrder is 0: p = ceil(log tol / log(1/eta)) + 2 (FB-44).
  double multipoleTol = kMultipoleTol;
  /// Most vortices per leaf group of the matrix-free path's vortex tree (FB-61).
  int vortexLeafSize = kVortexLeafSize;
  /// Matrix-free path: each Krylov step applies the operator to the accuracy it needs (FB-93).
  bool relaxation = true;
};

class BoundaryFluid : public Fluid {
 public:
  /// `outlines`: the bodies' polygon outlines (masks of the flow sampler); `disc` the discretization of
  /// the same bodies. KSP options: -<prefix>ksp_*, -<prefix>pc_*.
  BoundaryFluid(MPI_Comm comm, std::vector<Polygon> outlines, std::unique_ptr<Discretization> disc,
                double fluidDensity, const SolverOptions& options, const std::string& prefix);
  ~BoundaryFluid() override;

  int bodyCount() const override { return static_cast<int>(outlines_.size()); }
  void setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) override;
  Eigen::MatrixXd addedMass() const override;
  Eigen::VectorXd vortexMomentum() const override { return momentum_; }
  Eigen::VectorXd addedMassAction(const Eigen::VectorXd& Xi) override;
  double kirchhoffRouth() const override { return routh_; }
  Eigen::VectorXd lagrangianGradient(const Eigen::VectorXd& Xi) override;
  std::vector<lie::Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const override;
  void forgetSolutions() override;
  /// (FB-90): on the KSP path by the bordered system (FB-91) to relative residual rtol (A before its
  /// symmetrization); on the direct path from the full A(g) (3n solves with the LU).
  KirchhoffSolution kirchhoffSolve(const Eigen::VectorXd& bodyMass, const Eigen::VectorXd& r, double rtol) override;

  /// Close gaps (docs/fluidbody.md (FB-64)-(FB-66)): refineFor grades the panels of bodies closer to a
  /// neighbour than their switch distance and holds the a-posteriori estimate to `tolerance`. Needs a
  /// point-source discretization (Nystrom, gauss_panels); shapes[j] is body j's boundary.
  void enableRefinement(std::vector<RefinableShape> shapes, const GaussPanelOptions& panels, double tolerance);
  bool refineFor(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin) override;
  Resolution resolution() const override { return resolution_; }
  /// Per body how often refineFor halved its refined panels (FB-66); all 0 without refinement.
  const std::vector<int>& sharpening() const { return sharpening_; }
  void setSharpeningStart(std::vector<int> start) override { sharpeningStart_ = std::move(start); }
  std::vector<int> sharpeningUsed() const override { return refinement_ ? sharpening_ : std::vector<int>{}; }
  const GapRefinement* refinement() const { return refinement_.get(); }

  /// F(q) = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> at the current configuration.
  double lagrangianValue(const Eigen::VectorXd& Xi) override;

  const Discretization& discretization() const { return *disc_; }
  const std::vector<Polygon>& bodies() const { return outlines_; }
  const std::vector<lie::Pose>& poses() const { return poses_; }
  const Vortices& vortices() const { return vortices_; }
  double fluidDensity() const { return rho_; }
  int nodeCount() const { return layout_.nodes; }
  int panelCount() const { return layout_.nodes; }
  const NodeLayout& layout() const { return layout_; }
  /// Source densities (unit density, rho not included): column a = 0..3n-1 solves the rigid
  /// data of body dof a, column 3n the image problem phi_I (several bodies: 3n solves, collective).
  const Eigen::MatrixXd& densities() const;
  /// Right-hand sides solved by the last setConfiguration and the evaluations after it (a cost
  /// diagnostic: constant in n on the evaluation path, 3n more for addedMass()).
  long solvedColumns() const { return solvedColumns_; }
  /// Multipliers mu_j of the phi_I solve: the mean normal flux the discrete data -<u_gamma, n>
  /// carries through body j (zero for exact data; a quadrature-error diagnostic).
  std::vector<double> imageFluxDefect() const;
  /// |A_raw - A_raw^T|_max / |A_raw|_max of the discrete added mass before symmetrization
  /// (a discretization-consistency diagnostic; zero in the continuum).
  double addedMassAsymmetry() const {
    addedMass();
    return asymmetry_;
  }
  /// Wall seconds of the last setConfiguration: influence assembly (inter-body entries and vortex
  /// terms) and factorization + all forward solves; and of the last lagrangianGradient.
  struct Timings {
    double assembly = 0.0, solve = 0.0, gradient = 0.0;
  };
  const Timings& timings() const { return timings_; }
  bool directSolver() const { return system_ ? system_->direct() : true; }
  /// The direct path factors one distributed LU (ScaLAPACK / MUMPS) rather than one per rank.
  bool distributedFactor() const { return system_ && system_->distributedFactor(); }
  /// The body-cluster operator of the matrix-free path and its vortex terms (null on the dense path).
  const BodyClusterOperator* clusterOperator() const { return cluster_.get(); }
  const VortexTerms* vortexTerms() const { return vortexTerms_.get(); }
  int lastIterations() const { return system_ ? system_->lastIterations() : 0; }
  /// KSP iterations of all panel solves so far (0 on the direct path).
  long totalIterations() const { return retired_.iterations + (system_ ? system_->totalIterations() : 0); }
  /// Right-hand sides solved and operator applications of all KSP solves so far (BoundarySystem).
  long totalSolves() const { return retired_.solves + (system_ ? system_->totalSolves() : 0); }
  long operatorApplications() const {
    return retired_.applications + (system_ ? system_->operatorApplications() : 0);
  }
  /// Applications of the inter-body operators (M, S) at a lowered expansion order (FB-93), in the boundary and the
  /// bordered solves.
  long relaxedApplications() const { return relaxed_; }
  /// Bordered solves (FB-91), their GMRES iterations and operator applications so far.
  long kirchhoffSolves() const { return kirchhoffSolves_; }
  /// Error estimates (FB-66) computed so far: one per refineFor, one more per sharpening.
  long estimates() const { return estimates_; }
  long kirchhoffIterations() const {
    return retired_.kirchhoffIterations + (kirchhoff_ ? kirchhoff_->totalIterations() : 0);
  }
  long kirchhoffApplications() const {
    return retired_.kirchhoffApplications + (kirchhoff_ ? kirchhoff_->operatorApplications() : 0);
  }
  MPI_Comm comm() const { return comm_; }

 private:
  /// The families of right-hand sides whose last solutions start the next KSP solve (FB-47a).
  enum class Slot { RigidAndImage, Rigid, Image, VortexAdjoint, Motion, MotionAdjoint, GradientAdjoint };
  /// Builds everything that depends on the discretization (construction, refineFor).
  void install(std::shared_ptr<const Discretization> disc);
  /// (FB-66): per body the Legendre tails of the densities of the refined bodies at (poses, vortices), 0 for
  /// a body on its base discretization (the same on every rank).
  std::vector<double> estimateErrors(const std::vector<lie::Pose>& poses, const Vortices& vortices);
  void placeNodes(const std::vector<lie::Pose>& poses);
  /// Augmented self-blocks [M_jj 1; w^T 0] of every body (rows and columns: nodes of j, multiplier of j).
  std::vector<Eigen::MatrixXd> augmentedSelfBlocks() const;
  Eigen::MatrixXd augmentedSelfBlock(int j) const;
  /// (FB-96): the close pairs of the current poses into the KSP preconditioner, each block [[A_jj, M_jk], [M_kj,
  /// A_kk]] (augmented rows of j, then of k).
  void setPairBlocks();
  /// The bordered system of (FB-91), built at its first use (KSP path).
  const KirchhoffSystem& kirchhoffSystem();
  /// sum_q s_q dOmega_q(gamma_i) at every vortex (u - i v of densities s with zero net source per body). Collective.
  std::vector<Complex> densityField(const Eigen::VectorXd& s) const;
  void assembleInterBody();
  void assembleVortexTerms();
  void imageData();
  Eigen::MatrixXd rightHandSides(bool rigid, bool image) const;
  /// beta = B Xi and B^T v with the rigid data B (N x 3n, three entries per row, kept as N x 3).
  Eigen::VectorXd rigidData(const Eigen::VectorXd& Xi) const;
  Eigen::VectorXd rigidDataTranspose(const Eigen::VectorXd& v) const;
  void solveDensities(bool rigid, bool image) const;
  void assembleRigidPotential();
  /// Matrix-free path: B^T W S s over the owned rows (not summed over ranks; tol as InterBodyApply's), and
  /// S^T W beta (complete).
  Eigen::VectorXd rigidPotential(const Eigen::VectorXd& s, double tol = 0.0) const;
  /// Matrix-free path: the expansion order that gives relative accuracy tol (0: the operator's own, (FB-93)).
  int relaxedOrder(double tol) const;
  /// (FB-93b): the new system's Krylov products relaxed (FB-93) only while no body is refined toward a close gap
  /// (install, after plan_).
  void relaxUnlessRefined();
  Eigen::VectorXd potentialTransposeW(const Eigen::VectorXd& beta) const;
  void solveVortexAdjoint();
  /// The motion solves at Xi (several bodies): sigma_X = M^-1 B Xi and t_1 = M^-T S^T W B Xi, then A Xi.
  void solveMotion(const Eigen::VectorXd& Xi) const;
  Eigen::VectorXd solveOne(const Eigen::VectorXd& panelValues, bool transpose, Slot slot) const;
  bool samePoses(const std::vector<lie::Pose>& poses) const;
  /// Owned rows of body j: [first, first + count) of its nodes (count 0 if none).
  void ownedRows(int j, int& first, int& count) const;
  /// G^T K at every node (zero without vortices).
  Eigen::VectorXd vortexAdjointData() const;
  /// Dense path: d/dq of K^T G sbar + lamI^T b_I over the owned rows.
  void addVortexGradient(const Eigen::VectorXd& sbar, const Eigen::VectorXd& lamI, Eigen::VectorXd& grad) const;
  void addPairGradient(const Eigen::VectorXd& lamX, const Eigen::VectorXd& lamI,
                       const Eigen::VectorXd& sigX, const Eigen::VectorXd& sigI,
                       const Eigen::VectorXd& beta, Eigen::VectorXd& grad) const;

  MPI_Comm comm_;
  std::vector<Polygon> outlines_;
  std::shared_ptr<const Discretization> disc_;
  double rho_;
  SolverOptions options_;
  std::string prefix_;
  NodeLayout layout_;
  std::unique_ptr<BodyClusterOperator> cluster_;  // matrix-free path (several bodies, -panel_operator fast)
  std::unique_ptr<VortexTerms> vortexTerms_;      // its vortex terms (no G, dG)
  std::unique_ptr<BoundarySystem> system_;
  std::unique_ptr<KirchhoffSystem> kirchhoff_;    // (FB-91), KSP path, built when first asked for
  long kirchhoffSolves_ = 0;
  long estimates_ = 0;
  /// The counts of the boundary and bordered systems that a new discretization replaced (the counters run on).
  struct RetiredCounts {
    long iterations = 0, solves = 0, applications = 0;
    long kirchhoffIterations = 0, kirchhoffApplications = 0;
  } retired_;
  void retireSystems();
  double multipoleEta_ = 2.0, multipoleTol_ = 0.0;  // matrix-free path (FB-93); tol 0: never relaxed
  mutable long relaxed_ = 0;
  // Nodes: body-frame weights and rigid data (constant), spatial positions and normals (per pose).
  std::vector<double> weight_;
  std::vector<lie::Pose> poses_;
  std::vector<Complex> m_, nu_, centre_;
  RowMatrix Srows_;                // owned node rows of S (self-blocks constant, rest per pose)
  Eigen::Matrix<double, Eigen::Dynamic, 3> rigid_;  // N x 3: node p's row of the rigid data B (body(p)'s 3 columns)
  Eigen::VectorXd bI_;             // N: image data -<u_gamma, n> at the nodes
  Eigen::MatrixXd LBS_;            // 3n x N: B^T W S over the owned rows (with sigma_B, per pose)
  std::vector<lie::Pose> assembledPoses_;  // poses of the assembled inter-body blocks (n > 1; empty: none)
  Vortices vortices_;
  VortexPairSums pairs_;           // vortex-vortex W_vv and its gradient, this rank's share
  mutable Eigen::MatrixXd sigmaB_;     // N x 3n rigid densities, solved when asked for (valid when rigidValid_)
  mutable Eigen::VectorXd sigmaI_;     // N: the image density
  mutable Eigen::MatrixXd densities_;  // [sigmaB_, sigmaI_] for densities()
  mutable bool rigidValid_ = false;
  bool rigidConstant_ = false;     // one body: sigma_B and A constant in its frame, solved once
  Eigen::VectorXd tK_;             // several bodies: M^-T G^T K (panel rows), gives M_C and lambda
  struct Motion {                  // several bodies: the solves at one Xi
    bool valid = false;
    Eigen::VectorXd Xi, sigX, t1, AXi;
  };
  mutable Motion motion_;
  mutable long solvedColumns_ = 0;
  mutable Eigen::VectorXd mu_;     // multipliers of the phi_I solve
  Eigen::MatrixXd G_;              // m x N: psi of node q at vortex i (unit density)
  Eigen::MatrixXcd dG_;            // m x N: dOmega/dz of node q at vortex i
  mutable Eigen::MatrixXd addedMass_;
  Eigen::VectorXd momentum_;
  double routh_ = 0.0;
  mutable double asymmetry_ = 0.0;
  Timings timings_;
  int ranks_ = 1, rank_ = 0;
  std::unique_ptr<GapRefinement> refinement_;
  RefinementPlan plan_;  // of the installed discretization (empty: the base)
  std::vector<int> sharpening_;  // and each body's sharpening (GapRefinement::plan)
  std::vector<int> sharpeningStart_;  // where refineFor's sharpening starts (FB-66a; empty: none)
  Resolution resolution_;
};

}  // namespace kirchhoff::fluid
