// Turns a PETSc error code inside C++ code (constructors, methods that return values) into an
// exception naming the call, the file and PETSc's own message (core/PetscErrors: 1, 65 or 71).
#pragma once

#include <petscsys.h>

#include <string>

#include "core/Error.hpp"
#include "core/PetscErrors.hpp"

namespace kirchhoff::fluid {

inline void throwOnPetscError(PetscErrorCode code, const char* call, const char* file, int line) {
  if (code != 0) checkPetsc(code, std::string(call) + " (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace kirchhoff::fluid

#define KIRCHHOFF_PETSC_THROW(call) \
  ::kirchhoff::fluid::throwOnPetscError((call), #call, __FILE__, __LINE__)
