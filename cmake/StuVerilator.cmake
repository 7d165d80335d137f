# Helpers around Verilator's verilate() (find_package(verilator) must have run).
#
#   stu_verilate(<lib> TOP <module> [PREFIX <class>] [VERILATOR_ARGS ...])
#     Verilates rtl/<module>.sv (other modules are found with -y rtl) as class V<module> (or
#     <class>: a variant of the same module, e.g. with a -D define) into
#     the static library <lib>, creating <lib> on first use. All --cc models share one library
#     (and one copy of the Verilator runtime); never link a --cc and a --sc model library into
#     one executable.
#
# Fixes applied here (see shared/notes/toolchain.md, "Pitfalls"):
#   - VERILATOR_CFLAGS (Verilator's -Wno-* list) are applied PRIVATE to the model library, and
#     the Verilator include folders are SYSTEM includes, so -Wall -Wextra stays quiet;
#   - VM_SC / VM_TRACE* / VM_COVERAGE are re-exported to consumers (verilate() sets them
#     PRIVATE only);
#   - each model's generated sources form one unity group (never two models in one TU), except
#     under STU_SANITIZE, where each file compiles on its own at -O1 (see below);
#   - Verilator re-runs at configure time when an RTL file the model was made from changed or
#     disappeared (verilate() alone re-runs it there only when its arguments change), so that a
#     configure (scripts/test.sh always runs one) repairs the file list after an RTL edit adds
#     or removes a non-inlined module, instead of a failed link or a "missing and no known
#     rule to make it" from the generator.
# Note: verilate() runs Verilator at configure time, so an RTL lint warning (-Wall) fails
# the configure step.

set(STU_RTL_DIR ${CMAKE_SOURCE_DIR}/rtl)
# Mutation testing (scripts/mutate.py): the models named in STU_RTL_MUTANT_MODELS (class names,
# e.g. Vstu_sector_mask) are Verilated from STU_RTL_MUTANT_DIR, a copy of rtl/ with one file
# changed, and every other model from STU_RTL_SNAPSHOT_DIR (rtl/ as the run started; rtl/
# itself when empty), so a mutant rebuilds only the models it is in, and edits to rtl/ during a
# run reach none of its models.
set(STU_RTL_MUTANT_DIR "" CACHE PATH "mutation testing: a copy of rtl/ for STU_RTL_MUTANT_MODELS")
set(STU_RTL_MUTANT_MODELS "" CACHE STRING "mutation testing: models Verilated from the copy")
set(STU_RTL_SNAPSHOT_DIR "" CACHE PATH "mutation testing: rtl/ as the run started, for the others")
# Mutation testing of the store path: its models (19 MB of generated C++) compile file by file
# at -O1 instead of as one unity TU at -O3 (about 46 s on 2 cores instead of 110 s on one,
# per model; the regression then runs about 1.4x slower). Only the STU_RTL_MUTANT_MODELS.
option(STU_RTL_MUTANT_QUICK "mutation testing: compile the mutant models file by file at -O1" OFF)
# The verilator flags that both the models and the lint_<module> tests use.
set(STU_VERILATOR_LINT_ARGS -Wall --assert)
set(STU_VERILATOR_ARGS ${STU_VERILATOR_LINT_ARGS} --x-assign unique --x-initial unique -O3)

function(_stu_verilated_library lib)
  if(TARGET ${lib})
    return()
  endif()
  add_library(${lib} STATIC)
  target_compile_options(${lib} PRIVATE ${VERILATOR_CFLAGS})
  target_include_directories(${lib} SYSTEM PUBLIC
    ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  foreach(def SYSTEMC TRACE TRACE_VCD TRACE_FST COVERAGE)
    set(name ${def})
    if(def STREQUAL "SYSTEMC")
      set(name SC)
    endif()
    target_compile_definitions(${lib} INTERFACE
      VM_${name}=$<BOOL:$<TARGET_PROPERTY:${lib},VERILATOR_${def}>>)
  endforeach()
  set_target_properties(${lib} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  if(STU_SANITIZE)
    # ASan/UBSan at -O2 -g on one unity TU of the store path (19 MB of generated C++) ran for
    # over 40 minutes per model. Each generated file on its own, at -O1 (the level ASan's
    # documentation recommends) and without debug information (function names stay in the
    # symbol table for reports), takes 27 s instead of 69 s for the largest; every check stays on.
    set_target_properties(${lib} PROPERTIES UNITY_BUILD OFF)
    target_compile_options(${lib} PRIVATE -O1 -g0)
  endif()
endfunction()

# Makes verilate() re-run Verilator at configure time (by removing its record of the last
# command) when a dependency of the previous run is newer than its output or has gone.
function(_stu_verilator_refresh vdir prefix)
  set(vcmake "${vdir}/${prefix}.cmake")
  set(vcmake_copy "${vdir}/${prefix}_copy.cmake")
  set(vargs "${vdir}/verilator_args.txt")
  if(NOT EXISTS "${vcmake}" OR NOT EXISTS "${vcmake_copy}" OR NOT EXISTS "${vargs}")
    return()  # verilate() runs Verilator anyway
  endif()
  include("${vcmake_copy}")  # the previous run's ${prefix}_DEPS
  foreach(dep IN LISTS ${prefix}_DEPS)
    if(NOT EXISTS "${dep}" OR "${dep}" IS_NEWER_THAN "${vcmake}")
      file(REMOVE "${vargs}")
      return()
    endif()
  endforeach()
endfunction()

function(stu_verilate lib)
  cmake_parse_arguments(ARG "" "TOP;PREFIX" "VERILATOR_ARGS" ${ARGN})
  if(NOT ARG_TOP)
    message(FATAL_ERROR "stu_verilate(${lib}): TOP <module> is required")
  endif()
  _stu_verilated_library(${lib})
  set(prefix V${ARG_TOP})
  if(ARG_PREFIX)
    set(prefix ${ARG_PREFIX})
  endif()
  set(vdir ${CMAKE_CURRENT_BINARY_DIR}/${prefix})
  set(rtl_dir ${STU_RTL_DIR})
  if(STU_RTL_MUTANT_DIR AND prefix IN_LIST STU_RTL_MUTANT_MODELS)
    set(rtl_dir ${STU_RTL_MUTANT_DIR})
  elseif(STU_RTL_SNAPSHOT_DIR)
    set(rtl_dir ${STU_RTL_SNAPSHOT_DIR})
  endif()
  _stu_verilator_refresh(${vdir} ${prefix})
  set(coverage)
  if(STU_RTL_COVERAGE AND prefix MATCHES "store_path")
    # The store path's models (the top with its caches): line points only. Its toggle points
    # (every bit of its per-lane and per-byte vectors) would grow the generated C++ several
    # times over; with line points alone it grows from 27 to 35 MB (docs/verification.md).
    set(coverage --coverage-line)
  elseif(STU_RTL_COVERAGE AND NOT prefix MATCHES "_max$")
    # Line and toggle points in every block's own model (not the caches at their maxima, which
    # only the TLM model's RTL core uses).
    set(coverage --coverage-line --coverage-toggle)
  endif()
  verilate(${lib}
    PREFIX ${prefix}
    TOP_MODULE ${ARG_TOP}
    DIRECTORY ${vdir}
    SOURCES ${rtl_dir}/${ARG_TOP}.sv
    INCLUDE_DIRS ${rtl_dir}
    TRACE_FST
    VERILATOR_ARGS ${STU_VERILATOR_ARGS} ${ARG_VERILATOR_ARGS} ${coverage})
  # The generated folder holds the model's headers: SYSTEM for consumers, too.
  target_include_directories(${lib} SYSTEM PUBLIC ${vdir})
  # One unity group per model: its generated .cpp files, all in ${vdir}.
  get_target_property(sources ${lib} SOURCES)
  foreach(src IN LISTS sources)
    cmake_path(IS_PREFIX vdir "${src}" NORMALIZE in_vdir)
    if(in_vdir AND src MATCHES "\\.cpp$")
      set_source_files_properties(${src} PROPERTIES UNITY_GROUP ${prefix})
      if(STU_RTL_MUTANT_QUICK AND prefix IN_LIST STU_RTL_MUTANT_MODELS)
        set_source_files_properties(${src} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON
                                                      COMPILE_OPTIONS -O1)
      endif()
    endif()
  endforeach()
endfunction()
