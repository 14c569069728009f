"""stop_launcher.py SIGNAL LOG -- MSLEDGER ARGS...: runs the launcher with its
stderr in LOG, waits (up to 60 s, never a fixed delay) until it says it is
waiting for what the application left running, sends it SIGNAL, and prints
"status N" with the launcher's exit status, then LOG."""
import os
import signal
import subprocess
import sys
import time

name, log = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
with open(log, "wb") as err:
    # A session of its own: whatever happens, nothing it started outlives
    # the test.
    launcher = subprocess.Popen(command, stderr=err, start_new_session=True)


def give_up(why):
    os.killpg(launcher.pid, signal.SIGKILL)
    sys.exit("stop_launcher: " + why)


deadline = time.monotonic() + 60
while b"left running" not in open(log, "rb").read():
    if launcher.poll() is not None or time.monotonic() > deadline:
        give_up("the launcher never said it was waiting")
    time.sleep(0.01)  # polls for the line; the outcome does not hang on it
launcher.send_signal(getattr(signal, name))
try:
    status = launcher.wait(timeout=60)
except subprocess.TimeoutExpired:
    give_up("%s did not stop the launcher" % name)
# A process that ignores the signal (SIGINT is ignored in processes a
# non-interactive shell starts in the background) outlives the launcher:
# the test's session ends with it.
try:
    os.killpg(launcher.pid, signal.SIGKILL)
except ProcessLookupError:
    pass
print("status %d" % status)
sys.stdout.write(open(log).read())
