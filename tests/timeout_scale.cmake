# Read by ctest (a TEST_INCLUDE_FILES script of tests/CMakeLists.txt, included before the tests are
# declared): when CUZK_TEST_TIMEOUT_SCALE is set to a number above 1 in ctest's environment, every test's
# TIMEOUT property is multiplied by it, at run time, with no reconfigure. scripts/test.sh sets it from the
# load it finds; tests/cli/common.sh and tests/timing.hpp stretch the scripts' and the C++ tests' own
# waits by the same factor. Tests without a TIMEOUT (the Google Test cases) get ctest's --timeout.
set(_cuzk_scale "$ENV{CUZK_TEST_TIMEOUT_SCALE}")
if(_cuzk_scale MATCHES "^[0-9]+(\\.[0-9]+)?$" AND _cuzk_scale GREATER 1)
  # Integer arithmetic only in math(): the scale in hundredths, rounded up.
  string(REGEX MATCH "^[0-9]+" _cuzk_int "${_cuzk_scale}")
  string(REGEX MATCH "\\.[0-9]+$" _cuzk_frac "${_cuzk_scale}")
  string(SUBSTRING "${_cuzk_frac}00" 1 2 _cuzk_frac)
  math(EXPR CUZK_TIMEOUT_SCALE_PERCENT "${_cuzk_int} * 100 + ${_cuzk_frac}")
  # ctest's own set_tests_properties, with each TIMEOUT value scaled. Arguments are passed on one by one
  # (ARGVn, bracket-quoted): a value such as ENVIRONMENT's "A=1;B=2" must stay one argument.
  function(set_tests_properties)
    set(code "_set_tests_properties(")
    set(next_is_timeout FALSE)
    math(EXPR last "${ARGC} - 1")
    foreach(i RANGE ${last})
      set(a "${ARGV${i}}")
      if(next_is_timeout AND a MATCHES "^[0-9]+$")
        math(EXPR a "(${a} * ${CUZK_TIMEOUT_SCALE_PERCENT} + 99) / 100")
      endif()
      if(a STREQUAL "TIMEOUT")
        set(next_is_timeout TRUE)
      else()
        set(next_is_timeout FALSE)
      endif()
      string(APPEND code " [==[${a}]==]")
    endforeach()
    string(APPEND code ")")
    cmake_language(EVAL CODE "${code}")
  endfunction()
endif()
