// libFuzzer target: io::CheckpointStore::read (then Model::restore) on a mutated checkpoint file,
// in the layouts of tests/fuzz/layouts/*.yaml; every input loads or gives CheckpointError.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <mpi.h>
#include <petscsys.h>

#include "FuzzCheck.hpp"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // PETSc's own SEGV/FPE handlers would hide crashes from libFuzzer.
  setenv("PETSC_OPTIONS", "-no_signal_handler", 1);
  MPI_Init(argc, argv);
  if (PetscInitializeNoArguments() != 0) std::abort();
  std::atexit([] {
    kirchhoff::fuzz::releaseLayouts();  // PETSc objects of the layout models
    PetscFinalize();
    MPI_Finalize();
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const kirchhoff::fuzz::Verdict v = kirchhoff::fuzz::checkCheckpoint(bytes);
  if (!v.finding.empty()) {
    std::fprintf(stderr, "fuzz_checkpoint finding: %s\n", v.finding.c_str());
    std::abort();
  }
  return 0;
}
