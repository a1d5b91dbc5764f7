// One-line errors for kirchhoff's own PETSc options (docs/running.md, "PETSc options"): while a
// PetscOptionsBegin/End block runs, PETSc's traceback is replaced by a DeckError (exit 65).
#pragma once

#include <petscsys.h>

#include <functional>
#include <string>

namespace kirchhoff {

/// Usage: OptionErrors e("-del_"); e.check(readBlock(..., e)); inside the block set
/// `e.option = "jacobian_lag"` before each PetscOptions* call, so the message names the option.
/// A bad value (out of range, not a number, not one of the choices) throws a DeckError
/// "PETSc option -del_jacobian_lag: <PETSc's reason>", identical on every rank.
class OptionErrors {
 public:
  explicit OptionErrors(std::string prefix);
  ~OptionErrors();
  OptionErrors(const OptionErrors&) = delete;
  OptionErrors& operator=(const OptionErrors&) = delete;

  /// Throws the DeckError if `code` is non-zero; pops the handler first.
  void check(PetscErrorCode code);
  /// Throws a DeckError for a value PETSc accepted but kirchhoff does not (a cross-option check).
  [[noreturn]] void fail(const std::string& option, const std::string& reason) const;
  /// One PetscOptionsBegin/End block around `items` (which uses the PetscOptions* macros on its
  /// argument, named PetscOptionsObject). An error inside still ends the block, so the block's
  /// title and prefix are freed: PETSc's own End is skipped by PetscCall's early return.
  static PetscErrorCode block(MPI_Comm comm, const std::string& prefix, const char* title,
                              const char* section,
                              const std::function<PetscErrorCode(PetscOptionItems*)>& items);

  const char* option = "";  ///< name of the option being read, without '-' and prefix

 private:
  static PetscErrorCode handler(MPI_Comm, int, const char*, const char*, PetscErrorCode,
                                PetscErrorType, const char*, void*);
  void pop();
  std::string prefix_;
  std::string message_;
  bool pushed_ = false;
};

}  // namespace kirchhoff
