# Test registration helpers (included when STU_BUILD_TESTS is ON).

# stu_test_paths(<target>): let a test find the data files of the source tree and of the build.
function(stu_test_paths target)
  target_compile_definitions(${target} PRIVATE
    STU_SOURCE_DIR="${CMAKE_SOURCE_DIR}" STU_BINARY_DIR="${CMAKE_BINARY_DIR}")
endfunction()

# stu_discover_tests(<gtest target> <label>): one CTest test per GoogleTest case, labelled
# <label>. Cases whose name starts with `Long` (TEST(Suite, LongRandomSeeds)) are labelled
# `long` instead, so the default suite (ctest -LE long) leaves them out. Further arguments are
# more test properties (e.g. ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1).
function(stu_discover_tests target label)
  gtest_discover_tests(${target}
    TEST_FILTER "-*.Long*"
    TEST_LIST ${target}_TESTS
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS ${label} ${ARGN})
  gtest_discover_tests(${target}
    TEST_FILTER "*.Long*"
    TEST_LIST ${target}_LONG_TESTS
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS long ${ARGN})
endfunction()
