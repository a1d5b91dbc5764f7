// Every entry of a distributed PETSc vector on every rank: a VecScatterCreateToAll scatter and its target, gathered
// with read access to the whole array (the shell operators, preconditioners and solutions of fluid/solve).
#pragma once

#include <petscvec.h>

namespace kirchhoff::fluid {

class ReplicatedVector {
 public:
  /// A scatter from vectors of the layout of `layout` to a sequential copy of all entries on every rank. Throws on a
  /// PETSc error.
  explicit ReplicatedVector(Vec layout);
  /// Destroys the scatter and the copy; never throws (PETSc errors here are ignored: nothing to recover).
  ~ReplicatedVector();
  ReplicatedVector(const ReplicatedVector&) = delete;
  ReplicatedVector& operator=(const ReplicatedVector&) = delete;
  ReplicatedVector(ReplicatedVector&&) = delete;
  ReplicatedVector& operator=(ReplicatedVector&&) = delete;

  /// Scatters x (of the layout) to every rank and points *all at its entries (all of them, global order), readable
  /// until release(all). Collective.
  PetscErrorCode gather(Vec x, const PetscScalar** all);
  /// Ends the read access gather() opened.
  PetscErrorCode release(const PetscScalar** all);

 private:
  VecScatter toAll_ = nullptr;
  Vec all_ = nullptr;
};

}  // namespace kirchhoff::fluid
