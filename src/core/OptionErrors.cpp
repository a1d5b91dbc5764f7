// OptionErrors: PETSc's error handler swapped for one that keeps the first message, so a bad
// option value is one line naming the option (exit 65) instead of a PETSc traceback.
#include "core/OptionErrors.hpp"

#include "core/Error.hpp"

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

void OptionErrors::check(PetscErrorCode code) {
  pop();
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
