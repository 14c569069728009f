#!/usr/bin/env bash
# The demo: the leak hunt on the example application (utils/examples/vector_add)
# and the simulated CANN device. npu-smi shows the process still holding
# device memory after every release it makes; step 1, msledger's device-level
# check, confirms a leak at the driver level; step 2, the ACL-level check,
# shows it is the application's own aclrtMalloc.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

# On a new machine this installs packages and builds everything: minutes.
# Its output goes to a log; the demo shows where it is.
echo "== Setting up: the Debian packages msledger needs, then its build (minutes on a new machine; log: $build.setup.log)"
set +o pipefail
"$root/utils/setup.sh" 2>&1 | tee "$build.setup.log" | awk '
  /^setup:/ { print "   " $0; fflush() }
  /^Setting up / { print "   installing " $3; fflush() }
  /^\[[0-9]+\/[0-9]+\]/ { gsub(/[][]/, "", $1); split($1, n, "/"); step = int(10 * n[1] / n[2]);
                          if (step > shown) { shown = step; print "   building: " n[1] " of " n[2] " steps"; fflush() } }'
status=${PIPESTATUS[0]}
set -o pipefail
if [[ $status -ne 0 ]]; then
  echo "setup failed (status $status); its log: $build.setup.log" >&2
  exit 1
fi
rm -f "$build.setup.log"
echo "   done"

simcann="$build/simcann"
app_build="$build/examples/vector_add"
npu_smi="$build/bin/npu-smi"

echo "== Building utils/examples/vector_add against the simulated toolkit (ASCEND_HOME_PATH=$simcann)"
ASCEND_HOME_PATH="$simcann" cmake -S "$root/utils/examples/vector_add" -B "$app_build" -G Ninja > /dev/null
cmake --build "$app_build" > /dev/null
echo "   built $app_build/vector_add (compile database: $app_build/compile_commands.json)"

# Only this demo's processes show up in its npu-smi.
MSSIM_RUN_DIR="$(mktemp -d)"
export MSSIM_RUN_DIR
trap 'rm -rf "$MSSIM_RUN_DIR"' EXIT

wait_until_stopped() { # pid
  for _ in $(seq 300); do
    if [[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" == "T" ]]; then return 0; fi
    if ! kill -0 "$1" 2>/dev/null; then return 1; fi
    sleep 0.05
  done
  return 1
}

echo
echo "== Running vector_add on simulated device 0"
"$app_build/vector_add" --pause &
pid=$!
wait_until_stopped "$pid"
echo
echo "== npu-smi info, at the peak of vector_add:"
"$npu_smi" info
kill -CONT "$pid"
wait_until_stopped "$pid"
echo
echo "== npu-smi info --bytes, after vector_add freed its buffers, reset the device and finalized:"
"$npu_smi" info --bytes
kill -CONT "$pid"
status=0
wait "$pid" || status=$?
echo
if [[ $status -ne 0 ]]; then
  echo "vector_add failed with status $status" >&2
  exit "$status"
fi
echo "vector_add still held device memory after releasing everything it meant to: 33280 bytes"
echo "on device 0 (the driver's 512-byte units). A leak -- but where?"

msledger="$build/bin/msledger"
run_step() { # title, msledger arguments...
  local title="$1"
  shift
  echo
  echo "== $title"
  echo "\$ msledger $* $app_build/vector_add"
  local status=0
  "$msledger" "$@" "$app_build/vector_add" > /dev/null || status=$?
  echo "(exit status $status: 23 means msledger found leaks)"
}
run_step "Step 1: is anything leaked at the driver level?" --check-device-heap=yes --leak-check=yes
run_step "Step 2: is it the application's ACL calls?" --check-cann-heap=yes --leak-check=yes
echo
echo "32800 bytes at the driver are the application's 32768-byte aclrtMalloc, padded by ACL"
echo "to (32768 + 32 + 31) / 32 * 32. Both read <unknown>:0 -- so, step 3: rewrite the sources."

# Step 3 works on a copy of the example, so the checkout stays as it is.
work="$build/examples/vector_add-instrumented"
rm -rf "$work"
mkdir -p "$work"
cp "$root/utils/examples/vector_add/"* "$work/"
echo
echo "== Step 3: which line? Rewrite the calls, rebuild, run again (in a copy: $work)"
flags="$("$build/bin/msrewrite" --print-build-flags)"
ASCEND_HOME_PATH="$simcann" cmake -S "$work" -B "$work/build" -G Ninja > /dev/null
echo "\$ msrewrite -p build -i main.cpp"
(cd "$work" && "$build/bin/msrewrite" -p build -i main.cpp)
echo "\$ cmake --build build   (with the flags of msrewrite --print-build-flags)"
ASCEND_HOME_PATH="$simcann" cmake -S "$work" -B "$work/build" -G Ninja \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" > /dev/null
cmake --build "$work/build" > /dev/null
app_build="$work/build"
run_step "Step 3, ACL level: the line of the leak" --check-cann-heap=yes --leak-check=yes
run_step "Step 3, device level: the driver's 32800 bytes, attributed to the same line" \
  --check-device-heap=yes --leak-check=yes
echo
echo "main.cpp:55 it is, called from main.cpp:111: the scratch buffer that is never freed. (msrewrite --revert undoes the rewrite.)"
