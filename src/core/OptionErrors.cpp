// OptionErrors: PETSc's error handler swapped for one that keeps the first message, so a bad
// option value is one line naming the option (exit 65) instead of a PETSc traceback.
#include "core/OptionErrors.hpp"

#include <cerrno>
#include <cstdlib>

#include "core/Error.hpp"
#include "core/PetscOptionText.hpp"

namespace kirchhoff {

OptionErrors::OptionErrors(std::string prefix) : prefix_(std::move(prefix)) {
  pushed_ = PetscPushErrorHandler(handler, this) == 0;
}

OptionErrors::~OptionErrors() { pop(); }

void OptionErrors::pop() {
  if (pushed_) (void)PetscPopErrorHandler();
  pushed_ = false;
}

PetscErrorCode OptionErrors::handler(MPI_Comm, int, const char*, const char*, PetscErrorCode n,
                                     PetscErrorType p, const char* mess, void* ctx) {
  auto* self = static_cast<OptionErrors*>(ctx);
  if (p == PETSC_ERROR_INITIAL && self->message_.empty()) {
    self->message_ = mess ? mess : "invalid value";
    if (self->message_.empty()) self->message_ = "invalid value";
    self->message_ = "-" + self->prefix_ + self->option + ": " + self->message_;
  }
  return n;
}

namespace {
/// "-name value" of an option of `prefix` whose value is a whole number PETSc's integer cannot
/// hold: PETSc converts it with a silent wrap-around (99999999999999999999 became -1).
std::string wrappedInteger(const std::string& prefix) {
  for (const auto& [name, value] : parsePetscOptions(allPetscOptions())) {
    if (name.rfind("-" + prefix, 0) != 0 || value.empty()) continue;
    const std::size_t digits = value[0] == '-' || value[0] == '+' ? 1 : 0;
    if (value.size() == digits || value.find_first_not_of("0123456789", digits) != std::string::npos) continue;
    errno = 0;
    const long long v = std::strtoll(value.c_str(), nullptr, 10);
    if (errno == ERANGE || v > PETSC_MAX_INT || v < PETSC_MIN_INT) return name + " " + value;
  }
  return "";
}
}  // namespace

void OptionErrors::check(PetscErrorCode code) {
  pop();
  if (const std::string w = wrappedInteger(prefix_); !w.empty())
    throw DeckError("PETSc option " + w + ": out of range, PETSc integers hold at most " +
                    std::to_string(static_cast<long long>(PETSC_MAX_INT)));
  if (code == 0) return;
  std::string m = message_;
  if (m.empty()) {
    const char* text = nullptr;
    PetscErrorMessage(code, &text, nullptr);
    m = "-" + prefix_ + option + ": " + (text ? text : "invalid value");
  }
  for (auto& c : m)
    if (c == '\n') c = ' ';
  while (!m.empty() && m.back() == ' ') m.pop_back();
  throw DeckError("PETSc option " + m);
}

PetscErrorCode OptionErrors::block(MPI_Comm comm, const std::string& prefix, const char* title,
                                   const char* section,
                                   const std::function<PetscErrorCode(PetscOptionItems*)>& items) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, prefix.c_str(), title, section);
  const PetscErrorCode ierr = items(PetscOptionsObject);
  if (ierr) {
    (void)PetscOptionsEnd_Private(PetscOptionsObject);  // frees the block; the first error wins
    PetscFunctionReturn(ierr);
  }
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

void OptionErrors::fail(const std::string& opt, const std::string& reason) const {
  throw DeckError("PETSc option -" + prefix_ + opt + ": " + reason);
}

}  // namespace kirchhoff
