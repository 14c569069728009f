#!/usr/bin/env python3
"""%expect-exit STATUS COMMAND [ARGS...]: runs COMMAND and succeeds only if it
exits with exactly STATUS, a number from 1 to 255, or is killed by the signal
STATUS names (SIGSEGV, ...).

lit's `not` accepts any non-zero status, so a RUN line expecting a failure
(msledger's 23, a usage error's 2) would also pass on a segmentation fault
(the launcher's 128 + 11) or on a sanitizer's report (exit 1 by default).
Here a command killed by a signal, or exiting with any other status, fails
the line with a message on stderr naming what happened.

The sanitizers' exit status is set to RESERVED for everything COMMAND runs
(ASAN_OPTIONS, UBSAN_OPTIONS, TSAN_OPTIONS, LSAN_OPTIONS, MSAN_OPTIONS gain
exitcode=RESERVED), so a sanitizer report can never be mistaken for an
expected status; RESERVED itself cannot be expected.

Standard input, output and error are the command's own. Exit status: 0 when
COMMAND did as expected, 1 when it did not, 2 on bad usage or when COMMAND
cannot be run (each with a message on stderr), so that a test of this
wrapper can tell its verdict from its errors.
"""
import os
import signal
import subprocess
import sys

RESERVED = 86
SANITIZERS = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "MSAN_OPTIONS")


def describe(status):
    if status < 0:
        try:
            return "was killed by " + signal.Signals(-status).name
        except ValueError:
            return "was killed by signal %d" % -status
    if status == RESERVED:
        return "exited with %d, the sanitizers' status here (a sanitizer's report?)" % status
    if 128 < status < 128 + 65:
        try:
            # The launcher's status for an application a signal killed.
            return "exited with %d (128 + %s)" % (status, signal.Signals(status - 128).name)
        except ValueError:
            pass
    return "exited with %d" % status


def fail(message, status=1):
    sys.stderr.write("expect-exit: %s\n" % message)
    sys.exit(status)


def usage(message):
    fail(message, 2)


def main():
    if len(sys.argv) < 3:
        usage("usage: expect_exit.py STATUS COMMAND [ARGS...]")
    if sys.argv[1].startswith("SIG"):
        try:
            expected = -signal.Signals[sys.argv[1]].value
        except KeyError:
            usage("'%s' is not a signal's name" % sys.argv[1])
    else:
        try:
            expected = int(sys.argv[1])
        except ValueError:
            usage("the expected status '%s' is neither a number nor a signal" % sys.argv[1])
        if not 1 <= expected <= 255:
            usage("the expected status must be 1 to 255 (0 is a plain RUN line), not %d" % expected)
        if expected == RESERVED:
            usage("%d is the sanitizers' status here: it cannot be expected" % RESERVED)
    command = sys.argv[2:]
    environment = dict(os.environ)
    for variable in SANITIZERS:
        options = environment.get(variable, "")
        environment[variable] = (options + ":" if options else "") + "exitcode=%d" % RESERVED
    try:
        status = subprocess.call(command, env=environment)
    except OSError as error:
        usage("cannot run %s: %s" % (command[0], error.strerror))
    if status == expected:
        return 0
    wanted = ("to be killed by " + sys.argv[1]) if expected < 0 else ("exit status %d" % expected)
    fail("%s %s; expected %s" % (command[0], describe(status), wanted))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 -- never mistaken for a verdict
        usage("internal error: %r" % error)
