// GoogleTest main for every kirchhoff suite: initializes MPI and PETSc, runs the tests on all
// ranks, reduces pass/fail over ranks and lets only rank 0 print.
#include <gtest/gtest.h>
#include <petscsys.h>

#include "io/MpiIo.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  kirchhoff::io::chooseMpiIoComponent();  // as the drivers do
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  PetscCall(PetscFinalize());
  return anyFailed;
}
