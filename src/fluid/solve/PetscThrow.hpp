// Turns a PETSc error code inside C++ code (constructors, methods that return values) into a
// kirchhoff::NumericalError naming the call, the file and PETSc's own message.
#pragma once

#include <petscsys.h>

#include <string>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

inline void throwOnPetscError(PetscErrorCode code, const char* call, const char* file, int line) {
  if (code == 0) return;
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  throw NumericalError(std::string("PETSc call ") + call + " failed (" + file + ":" +
                       std::to_string(line) + "): " + (text ? text : "unknown error"));
}

}  // namespace kirchhoff::fluid

#define KIRCHHOFF_PETSC_THROW(call) \
  ::kirchhoff::fluid::throwOnPetscError((call), #call, __FILE__, __LINE__)
