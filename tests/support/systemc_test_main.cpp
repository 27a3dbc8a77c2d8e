// One main for every SystemC test binary: sc_main runs the GoogleTest cases, and SystemC warnings
// and errors become test failures instead of scrolling past. ctest starts each case in its own
// process (gtest_discover_tests), because SystemC cannot elaborate twice in one process.
#include <gtest/gtest.h>

#include <cstdlib>

#include <systemc>

namespace {

void fail_on_systemc_report(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() >= sc_core::SC_WARNING) {
    ADD_FAILURE() << "SystemC "
                  << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << " ["
                  << report.get_msg_type() << "]: " << report.get_msg();
  }
  // Keep SystemC's own handling (stop on errors) apart from its printing.
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_handler(fail_on_systemc_report);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
