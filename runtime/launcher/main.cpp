//===- main.cpp - msledger, the launcher ----------------------------------===//
//
// msledger [options] [--] app [args...]   runs app under the ledger (run.cpp)
// msledger COMMAND [options] FILES...     reads what a run left (commands.h)
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include <cstring>

int main(int argc, char **argv) {
  if (argc > 1)
    for (const msledger::Subcommand &command : msledger::kSubcommands)
      if (strcmp(argv[1], command.name) == 0)
        return command.main(argc - 1, argv + 1);
  return msledger::runCommand(argc, argv);
}
