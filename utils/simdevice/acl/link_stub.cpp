//===- link_stub.cpp - A toolkit's link stub refuses to run ---------------===//
//
// lib64/stub/ and runtime/lib64/stub/ of a toolkit hold libraries to link
// against, not to run: a program that finds them at run time (an rpath to
// the stub folder, no set_env.sh) does not work on a real toolkit either. The
// simulated stubs export the same functions as the release's libraries, so
// that linking succeeds or fails as it would there, and stop a program that
// loads them with a message saying why.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <unistd.h>

namespace {

__attribute__((constructor)) void refuseToRun() {
  static const char message[] =
      "simulated CANN toolkit: a link stub (lib64/stub) was loaded at run "
      "time; source the toolkit's set_env.sh so that lib64/ comes first\n";
  (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
  _exit(1);
}

} // namespace
