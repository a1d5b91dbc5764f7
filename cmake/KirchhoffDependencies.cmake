# Finds MPI, PETSc, parallel HDF5, Eigen 3.4 and yaml-cpp and bundles them as kirchhoff_deps.
# PETSc: pkg-config (Debian) or -DPETSC_DIR=... -DPETSC_ARCH=... (cluster installs).
find_package(MPI REQUIRED COMPONENTS C CXX)

set(PETSC_DIR "$ENV{PETSC_DIR}" CACHE PATH "PETSc install (empty: pkg-config)")
set(PETSC_ARCH "$ENV{PETSC_ARCH}" CACHE STRING "PETSc arch (empty for prefix installs)")
if(PETSC_DIR)
  set(_pc "${PETSC_DIR}/${PETSC_ARCH}/lib/pkgconfig")
  if(NOT EXISTS "${_pc}")
    set(_pc "${PETSC_DIR}/lib/pkgconfig")
  endif()
  set(ENV{PKG_CONFIG_PATH} "${_pc}:$ENV{PKG_CONFIG_PATH}")
endif()
find_package(PkgConfig REQUIRED)
pkg_check_modules(PETSC REQUIRED IMPORTED_TARGET PETSc)
message(STATUS "PETSc ${PETSC_VERSION} (${PETSC_PREFIX})")

set(HDF5_PREFER_PARALLEL TRUE)  # else a stray libhdf5-dev makes FindHDF5 pick serial HDF5
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "kirchhoff needs parallel HDF5 (libhdf5-openmpi-dev), found ${HDF5_C_LIBRARIES}")
endif()

find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(yaml-cpp REQUIRED)

add_library(kirchhoff_deps INTERFACE)
target_link_libraries(kirchhoff_deps INTERFACE MPI::MPI_CXX PkgConfig::PETSC HDF5::HDF5
                      Eigen3::Eigen yaml-cpp)
