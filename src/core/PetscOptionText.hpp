// The PETSc options database as text and as name -> value pairs ("-del_snes_rtol 1e-10 -x"):
// stored in logs and checkpoints, compared at restart, searched to name a bad option.
#pragma once

#include <map>
#include <string>

namespace kirchhoff {

/// All options in PETSc's database (deck and command line), as PetscOptionsGetAll gives them.
std::string allPetscOptions();

/// "-name value" pairs of an option string; a name followed by another name (or nothing) is a
/// flag, whose value is "". A name starts with '-' and a letter, so "-1" is a value.
std::map<std::string, std::string> parsePetscOptions(const std::string& text);

}  // namespace kirchhoff
