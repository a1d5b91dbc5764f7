// The recording PETSc error handler and the translation of a failed PETSc call: the error class
// (memory, option value or type, anything else) picks the exception; a bad option is named by
// looking its value up in the options database.
#include "core/PetscErrors.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/Error.hpp"
#include "core/PetscOptionText.hpp"

namespace kirchhoff {

namespace {

struct Record {
  PetscErrorCode number = 0;
  std::string function, message;
};
Record gLast;

PetscErrorCode recorder(MPI_Comm, int, const char* fun, const char*, PetscErrorCode n, PetscErrorType p,
                        const char* mess, void*) {
  if (p == PETSC_ERROR_INITIAL) gLast = Record{n, fun ? fun : "", mess ? mess : ""};
  return n;
}

/// "-name value" of the option whose value is a word of `message` ("" if none).
std::string optionNamed(const std::string& message) {
  std::istringstream words(message);
  const std::vector<std::string> said{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
  for (const auto& [name, value] : parsePetscOptions(allPetscOptions()))
    if (!value.empty() && std::find(said.begin(), said.end(), value) != said.end()) return name + " " + value;
  return "";
}

std::string oneLine(std::string m) {
  for (auto& c : m)
    if (c == '\n') c = ' ';
  while (!m.empty() && (m.back() == ' ' || m.back() == '.')) m.pop_back();
  return m;
}

}  // namespace

void recordPetscErrors() { PetscPushErrorHandler(recorder, nullptr); }

void stopRecordingPetscErrors() { PetscPopErrorHandler(); }

std::string lastPetscError() {
  if (gLast.message.empty()) return "";
  return oneLine(gLast.message) + (gLast.function.empty() ? "" : " (in " + gLast.function + ")");
}

void checkPetsc(PetscErrorCode code, const std::string& what) {
  if (code == 0) return;
  const Record r = gLast;
  gLast = Record{};
  const std::string said = r.message.empty() ? "PETSc error " + std::to_string(static_cast<int>(code))
                                             : oneLine(r.message);
  // PETSC_ERR_MEM; PETSc 3.18's PetscMallocAlign reports its caller's line as the number.
  if (r.number == PETSC_ERR_MEM || r.function.find("Malloc") != std::string::npos)
    throw OutOfMemoryError("out of memory in " + what + " (PETSc, in " + r.function + "): the problem "
                           "needs more memory than this process may use (ulimit -v, the batch job's "
                           "memory); use more nodes or ranks, or a smaller problem");
  const bool option = r.function.rfind("PetscOptions", 0) == 0 || r.number == PETSC_ERR_ARG_UNKNOWN_TYPE;
  if (option) {
    const std::string named = optionNamed(r.message);
    throw DeckError("PETSc option" + (named.empty() ? std::string() : " " + named) + ": " + said +
                    " (in " + what + "; PETSc options come from the deck's petsc_options and the "
                    "command line)");
  }
  throw NumericalError("PETSc error in " + what + ": " + said + (r.function.empty() ? "" : " (in " + r.function + ")"));
}

}  // namespace kirchhoff
