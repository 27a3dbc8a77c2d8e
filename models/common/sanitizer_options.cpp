// Compiled into every SystemC program (models/CMakeLists.txt adds it to each target that links
// ssd_models), only in sanitizer builds. LeakSanitizer's stop-the-world tracer crashes now and then
// at the exit of a SystemC process ("Tracer caught signal 11", then "LeakSanitizer has
// encountered a fatal error"), after every test has passed: SystemC runs its processes on
// coroutine stacks it maps itself, with guard pages, which the tracer does not expect. So
// SystemC programs run with leak checks off; AddressSanitizer's other checks and UBSan stay on,
// and the plain C++ suites (FTL, VET, EMT, config, report, workload, RTL) keep leak checks.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
