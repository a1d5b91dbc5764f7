// Registration of kirchhoff's PETSc log events and stages (class "kirchhoff"), once per process,
// and the scoped begin/end around each phase.
#include "core/LogEvents.hpp"

#include <array>

namespace kirchhoff {

namespace {

constexpr std::array<const char*, 17> kEventNames = {
    "PanelAssembly",   "PanelFactor", "PanelSolve",   "PanelGradient",  "PanelNearField", "PanelMultipole", "VortexNearField",
    "VortexMultipole", "DELResidual", "DELJacobian", "IOCheckpoint", "IOInvariantLog", "IOSnapshot", "KirchhoffSolve",
    "PanelPairFactor", "FluidEstimate", "PanelPairApply"};

PetscBool petscUp() {
  PetscBool up = PETSC_FALSE;
  (void)PetscInitialized(&up);
  return up;
}

}  // namespace

PetscLogEvent logEvent(Phase p) {
  static std::array<PetscLogEvent, kEventNames.size()> ids = [] {
    std::array<PetscLogEvent, kEventNames.size()> a{};
    PetscClassId cls = 0;
    (void)PetscClassIdRegister("kirchhoff", &cls);
    for (std::size_t i = 0; i < a.size(); ++i) (void)PetscLogEventRegister(kEventNames[i], cls, &a[i]);
    return a;
  }();
  return ids[static_cast<std::size_t>(p)];
}

ScopedEvent::ScopedEvent(Phase p) {
  if (!petscUp()) return;
  event_ = logEvent(p);
  (void)PetscLogEventBegin(event_, 0, 0, 0, 0);
}

ScopedEvent::~ScopedEvent() {
  if (event_ >= 0) (void)PetscLogEventEnd(event_, 0, 0, 0, 0);
}

ScopedStage::ScopedStage(Stage s) {
  if (!petscUp()) return;
  const char* name = s == Stage::SetUp ? "kirchhoff set-up" : "kirchhoff time steps";
  PetscLogStage id = -1;
  (void)PetscLogStageGetId(name, &id);
  if (id < 0 && PetscLogStageRegister(name, &id) != 0) return;
  pushed_ = PetscLogStagePush(id) == 0;
}

ScopedStage::~ScopedStage() {
  if (pushed_) (void)PetscLogStagePop();
}

}  // namespace kirchhoff
