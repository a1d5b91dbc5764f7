// PETSc errors as one line (docs/running.md, "PETSc options" and "Exit codes"): PETSc's first
// message is recorded instead of a traceback on every rank, and a failed call becomes an exception.
#pragma once

#include <petscsys.h>

#include <string>

namespace kirchhoff {

/// Replaces PETSc's traceback printer by a recorder of the first message of each error (call
/// once after PetscInitialize). Pushed handlers (OptionErrors) still take precedence.
void recordPetscErrors();

/// Pops the recorder (before PetscFinalize: -malloc_dump counts a pushed handler as a leak).
void stopRecordingPetscErrors();

/// The message PETSc recorded for the last error ("" if none), and the function it arose in.
std::string lastPetscError();

/// Throws for a non-zero `code` returned by `what` (a call or phase): OutOfMemoryError (71) if PETSc
/// ran out of memory; DeckError (65) "PETSc option -del_snes_rtol abc: <PETSc's reason>" for a bad
/// value or type of a PETSc option; otherwise NumericalError (1) with PETSc's message.
void checkPetsc(PetscErrorCode code, const std::string& what);

}  // namespace kirchhoff
