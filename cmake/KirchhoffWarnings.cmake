# Warning flags (-Werror with KIRCHHOFF_WERROR), the sanitizer build (KIRCHHOFF_SANITIZE) and the
# machine-tuned build (KIRCHHOFF_NATIVE).
add_library(kirchhoff_warnings INTERFACE)
target_compile_options(kirchhoff_warnings INTERFACE -Wall -Wextra -Wpedantic)
if(KIRCHHOFF_WERROR)
  target_compile_options(kirchhoff_warnings INTERFACE -Werror)
endif()
if(KIRCHHOFF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
# -march=native for every target (Eigen and the panel kernels then use AVX2 / AVX-512 and FMA: the
# dense LU and the influence assembly run 2-4x faster). Off by default: such binaries may not run on
# other nodes of a cluster, and their results differ from portable builds in the last bits (FMA).
option(KIRCHHOFF_NATIVE "Tune the build for this machine's CPU (-march=native; not portable)" OFF)
if(KIRCHHOFF_NATIVE)
  add_compile_options(-march=native)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 with AVX-512 flags Eigen's vectorized code: (maybe-)uninitialized in its own intrinsics
    # (the _mm512_undefined_pd idiom in avx512fintrin.h / avx512dqintrin.h) and array-bounds on
    # 512-bit loads in branches that small fixed-size vectors never take. False positives, gone in
    # GCC 13.
    target_compile_options(kirchhoff_warnings INTERFACE -Wno-uninitialized -Wno-maybe-uninitialized
                           -Wno-array-bounds)
  endif()
endif()
