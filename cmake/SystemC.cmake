# Finds SystemC (with TLM-2.0) as the imported target SystemC::systemc and checks at configure time
# that this compiler and C++ standard can link against it. Debian ships no CMake package for
# SystemC, so pkg-config is the fallback; an upstream SystemCLanguage package wins when present.
find_package(SystemCLanguage CONFIG QUIET)
if(SystemCLanguage_FOUND)
  add_library(SystemC::systemc ALIAS SystemC::systemc)
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc)
  add_library(SystemC::systemc INTERFACE IMPORTED)
  target_link_libraries(SystemC::systemc INTERFACE PkgConfig::SYSTEMC)
endif()

# SystemC embeds the C++ standard it was built with in a link-time symbol
# (sc_api_version_2_3_4_cxx201703L on Debian); a mismatch only shows as an undefined reference at
# link time. Catch it here with a message that says what to do.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES SystemC::systemc)
set(CMAKE_REQUIRED_FLAGS "-std=c++${CMAKE_CXX_STANDARD}")
check_cxx_source_compiles("
#include <systemc>
int sc_main(int, char*[]) { return 0; }
" SSD_SYSTEMC_LINKS_WITH_STANDARD)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT SSD_SYSTEMC_LINKS_WITH_STANDARD)
  message(FATAL_ERROR
    "SystemC does not link with C++${CMAKE_CXX_STANDARD}. The installed SystemC was built for another "
    "C++ standard (Debian's libsystemc-dev is C++17): configure with -DCMAKE_CXX_STANDARD=17, or "
    "rebuild SystemC with the standard you need. See CMakeFiles/CMakeConfigureLog.yaml for the error.")
endif()
