// PETSc log events and stages of kirchhoff's phases (docs/running.md, "PETSc options"): -log_view
// shows the time in panel assembly, LU factorization, panel solves, the gradient, the DEL residual
// and Jacobian, and the output files, per stage (set-up, time steps).
#pragma once

#include <petscsys.h>

namespace kirchhoff {

enum class Phase {
  PanelAssembly,  ///< influence blocks, vortex terms, image data (fluid::BoundaryFluid)
  PanelFactor,    ///< dense LU / explicit inverse of the panel system (fluid::BoundarySystem)
  PanelSolve,     ///< solves with the panel system (direct or KSP)
  PanelGradient,  ///< adjoint gradient of the Lagrangian (FB-25 right-hand side)
  PanelNearField, ///< exact near-pair blocks of the body-cluster operator (FB-42)
  PanelMultipole, ///< multipole, M2L and target-moment passes of the body-cluster operator (FB-41)-(FB-45)
  VortexNearField,  ///< exact near vortex–node and vortex–vortex pairs of the vortex tree (FB-62)
  VortexMultipole,  ///< the vortex tree's build and passes (FB-61), (FB-62)
  DelResidual,    ///< residual of the DEL equations (integrators::DelSolver)
  DelJacobian,    ///< Newton matrix of the DEL equations
  Checkpoint,     ///< checkpoint write or read
  InvariantLog,   ///< invariants.h5 writes
  Snapshot,       ///< snapshots.h5 writes
  KirchhoffSolve, ///< the bordered Kirchhoff tensor solve of the coupled Newton direction (FB-91)
  PanelPairFactor,  ///< close-pair preconditioner blocks: assembly and factorization (FB-96)
  FluidEstimate,    ///< the refined bodies' error estimate and its solves (FB-66)
  PanelPairApply,   ///< close-pair preconditioner blocks: the LU solves of each application (FB-96)
};

/// The PETSc event of a phase, registered on first use (PETSc must be initialized).
PetscLogEvent logEvent(Phase p);

/// Times a phase from construction to destruction (also when an exception leaves the scope).
class ScopedEvent {
 public:
  explicit ScopedEvent(Phase p);
  ~ScopedEvent();
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;

 private:
  PetscLogEvent event_ = -1;
};

enum class Stage { SetUp, TimeSteps };

/// Pushes a PETSc log stage for the scope ("kirchhoff set-up", "kirchhoff time steps").
class ScopedStage {
 public:
  explicit ScopedStage(Stage s);
  ~ScopedStage();
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace kirchhoff
