// PETSc option strings: the database read with PetscOptionsGetAll, and split into name -> value
// (whitespace-separated tokens; values with spaces do not occur in kirchhoff's options).
#include "core/PetscOptionText.hpp"

#include <petscsys.h>

#include <cctype>
#include <sstream>
#include <vector>

namespace kirchhoff {

std::string allPetscOptions() {
  char* opts = nullptr;
  if (PetscOptionsGetAll(nullptr, &opts) != 0 || !opts) return "";
  std::string s(opts);
  PetscFree(opts);
  return s;
}

std::map<std::string, std::string> parsePetscOptions(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> tok;
  for (std::string t; in >> t;) tok.push_back(t);
  auto isName = [](const std::string& t) {
    return t.size() > 1 && t[0] == '-' && std::isalpha(static_cast<unsigned char>(t[1]));
  };
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < tok.size(); ++i) {
    if (!isName(tok[i])) continue;
    const bool value = i + 1 < tok.size() && !isName(tok[i + 1]);
    out[tok[i]] = value ? tok[i + 1] : "";
  }
  return out;
}

}  // namespace kirchhoff
