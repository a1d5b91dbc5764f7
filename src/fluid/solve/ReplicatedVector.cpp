// Every entry of a distributed PETSc vector on every rank: one VecScatterCreateToAll scatter, its target, and the
// scatter-then-read idiom of the shell operators, preconditioners and solutions of fluid/solve.
#include "fluid/solve/ReplicatedVector.hpp"

#include "fluid/solve/PetscThrow.hpp"

namespace kirchhoff::fluid {

ReplicatedVector::ReplicatedVector(Vec layout) {
  KIRCHHOFF_PETSC_THROW(VecScatterCreateToAll(layout, &toAll_, &all_));
}

ReplicatedVector::~ReplicatedVector() {
  if (all_) (void)VecDestroy(&all_);
  if (toAll_) (void)VecScatterDestroy(&toAll_);
}

PetscErrorCode ReplicatedVector::gather(Vec x, const PetscScalar** all) {
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(toAll_, x, all_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toAll_, x, all_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(all_, all));
  PetscFunctionReturn(0);
}

PetscErrorCode ReplicatedVector::release(const PetscScalar** all) {
  PetscFunctionBeginUser;
  PetscCall(VecRestoreArrayRead(all_, all));
  PetscFunctionReturn(0);
}

}  // namespace kirchhoff::fluid
