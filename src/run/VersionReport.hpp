// The text of --version (docs/running.md, "Running a driver"): code version and git revision, the
// versions of PETSc, HDF5, MPI, Eigen and yaml-cpp this driver runs with, and the build options.
#pragma once

#include <string>

namespace kirchhoff::run {

/// Multi-line report; callable before MPI_Init and PetscInitialize.
std::string versionReport(const std::string& model);

}  // namespace kirchhoff::run
