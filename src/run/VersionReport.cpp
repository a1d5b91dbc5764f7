// --version: library versions at run time where the library reports them (PETSc, HDF5, MPI),
// else at compile time (Eigen, yaml-cpp), and the CMake build options of this binary.
#include "run/VersionReport.hpp"

#include <Eigen/Core>
#include <hdf5.h>
#include <mpi.h>
#include <petscsys.h>

#include "core/Version.hpp"

namespace kirchhoff::run {

namespace {

std::string petscVersion() {
  char v[256] = {0};
  if (PetscGetVersion(v, sizeof v) != 0) return "unknown";
  std::string s(v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string hdf5Version() {
  unsigned maj = 0, min = 0, rel = 0;
  if (H5get_libversion(&maj, &min, &rel) < 0) return "unknown";
#ifdef H5_HAVE_PARALLEL
  const char* kind = " (parallel)";
#else
  const char* kind = " (serial)";
#endif
  return std::to_string(maj) + "." + std::to_string(min) + "." + std::to_string(rel) + kind;
}

std::string mpiVersion() {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0, major = 0, minor = 0;
  MPI_Get_library_version(lib, &len);
  MPI_Get_version(&major, &minor);
  std::string s(lib, static_cast<std::size_t>(len));
  if (const auto nl = s.find_first_of("\r\n"); nl != std::string::npos) s.resize(nl);
  if (const auto comma = s.find(','); comma != std::string::npos) s.resize(comma);
  return s + " (MPI standard " + std::to_string(major) + "." + std::to_string(minor) + ")";
}

}  // namespace

std::string versionReport(const std::string& model) {
  std::string r = "kirchhoff-" + model + " " + kCodeVersion + " (git " + kGitSha + ")\n";
  r += "  PETSc     " + petscVersion() + "\n";
  r += "  HDF5      " + hdf5Version() + "\n";
  r += "  MPI       " + mpiVersion() + "\n";
  r += "  Eigen     " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
       "." + std::to_string(EIGEN_MINOR_VERSION) + "\n";
  const std::string yaml = kYamlCppVersion;
  r += "  yaml-cpp  " + (yaml.empty() ? std::string("unknown") : yaml) + "\n";
  r += "  build     " + std::string(kBuildType) + ", " + kCompiler + ", " + kBuildOptions + "\n";
  return r;
}

}  // namespace kirchhoff::run
