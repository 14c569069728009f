#!/usr/bin/env bash
# Runs every test: sets the machine up (utils/setup.sh), then the lit suites
# and the unit tests in one lit run. Ends with one line "N passed, M failed"
# (", K skipped" when some were) and exits non-zero if anything failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/utils/setup.sh"
exec python3 "$root/utils/run_tests.py" "$build"
