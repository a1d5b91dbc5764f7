# Unity builds (KIRCHHOFF_UNITY, default on): each library and test executable compiles its
# sources in batches of KIRCHHOFF_UNITY_BATCH files, one translation unit per batch, so the heavy
# headers (Eigen, PETSc, GoogleTest) are parsed and their templates instantiated and optimized
# once per batch instead of once per file. File-local names (anonymous namespaces, static
# functions) must therefore be unique within a target. Measured: docs/performance.md
# ("Building and testing"). -DKIRCHHOFF_UNITY=OFF: one object per file (e.g. for editing one file).
option(KIRCHHOFF_UNITY "Compile each target's sources in batches (unity build)" ON)
set(KIRCHHOFF_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")

# kirchhoff_unity(<target>): <target> compiles in unity batches (no-op with KIRCHHOFF_UNITY=OFF).
function(kirchhoff_unity target)
  if(KIRCHHOFF_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${KIRCHHOFF_UNITY_BATCH})
  endif()
endfunction()
