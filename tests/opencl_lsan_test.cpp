// LeakSanitizer suppressions for the OpenCL suites, compiled into the test
// binary so that sanitized runs (LIFTCC_SANITIZE=ON, ctest) need no
// ASAN_OPTIONS=detect_leaks=0, which would also hide leaks in liftcc itself.
//
// Why: when PoCL compiles a kernel that is not in its cache yet
// (~/.cache/pocl/kcache or $POCL_CACHE_DIR), it keeps an LLVM context it
// never frees at exit (PoCL 3.1 / LLVM 15: one 16-byte object allocated in
// libpocl.so that holds ~1 MiB of LLVM state). With a warm cache nothing is
// reported. Suppressing a direct leak also hides the indirect leaks
// reachable from it.
//
// Cost: a forgotten clRelease* would leak memory allocated inside libpocl
// and is hidden as well; the RAII handles of tuner/opencl/opencl_handle.h are what
// guard against that. Leaks of liftcc's own allocations stay visible.
//
// The sanitizer runtime calls this hook if it exists; non-sanitized builds
// never do. Only one definition may exist in the test binary. The file holds
// no test cases; it is named *_test.cpp so that every build of the OpenCL
// suites (tests/*.cpp in CMake, tests/opencl_*_test.cpp by hand) links it.

extern "C" const char *__lsan_default_suppressions() {
  return "leak:libpocl.so\n"
         "leak:libLLVM\n";
}
