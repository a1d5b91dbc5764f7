# Writes OUT (generated/core/GitSha.hpp) with the git revision of SOURCE_DIR, "-dirty" when tracked files
# differ from it; run at every build, the file is rewritten only when the revision changed (few recompiles).
set(sha "unknown")
if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT}" rev-parse --short=12 HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND head)
    set(sha "${head}")
    execute_process(COMMAND "${GIT}" status --porcelain --untracked-files=no WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(changes)
      string(APPEND sha "-dirty")
    endif()
  endif()
endif()
set(text "// Generated at build time by cmake/GitSha.cmake: the git revision the code was built from.\n#pragma once\nnamespace kirchhoff {\ninline constexpr const char* kGitSha = \"${sha}\";\n}  // namespace kirchhoff\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
