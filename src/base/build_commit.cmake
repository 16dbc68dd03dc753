# Writes OUTPUT, a C file that defines qsb_build_commit (version.h): the commit SOURCE_DIR is
# checked out at, with "-dirty" after it when tracked files differ from it; GIVEN instead
# when set (a source tree without git, e.g. a release tarball); else "unknown". The file is
# rewritten only when its text changes, so a build at the same commit recompiles nothing.
#   cmake -DSOURCE_DIR=DIR -DOUTPUT=FILE [-DGIVEN=TEXT] -P build_commit.cmake
set(commit "unknown")
if(GIVEN)
  set(commit "${GIVEN}")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --verify -q HEAD
                  OUTPUT_VARIABLE head RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(status EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
    set(commit "${head}")
    execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND NOT changes STREQUAL "")
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
string(REPLACE "\\" "\\\\" commit "${commit}")
string(REPLACE "\"" "\\\"" commit "${commit}")
set(text "/* Generated at build time by build_commit.cmake. */\n#include \"version.h\"\n\nconst char qsb_build_commit[] = \"${commit}\";\n")
file(WRITE "${OUTPUT}.new" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
file(REMOVE "${OUTPUT}.new")
