// Preloaded into a test's commands: when a program named vector_add exits,
// an exit handler kills it with SIGKILL -- before the ledger's report at
// exit, which runs from its library's destructor, after every exit handler.
// What a kill -9 at the last moment leaves: the journal alone. Any other
// program (the launcher, the test's own tools) is left alone.
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void killNow(void) { raise(SIGKILL); }

__attribute__((constructor)) static void install(void) {
  char path[4096];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0)
    return;
  path[length] = '\0';
  const char *name = strrchr(path, '/');
  if (strcmp(name ? name + 1 : path, "vector_add") == 0)
    atexit(killNow);
}
