#!/usr/bin/env bash
# The example after step 3 of the leak hunt, in DIR/src: a copy of
# utils/examples/vector_add rewritten by msrewrite and built with its flags
# against the simulated toolkit (DIR/src/build/vector_add).
#   rewritten-example.sh DIR EXAMPLES SIMCANN MSREWRITE CMAKE
set -euo pipefail
dir="$1" examples="$2" simcann="$3" msrewrite="$4" cmake="$5"
rm -rf "$dir/src"
mkdir -p "$dir/src"
cp "$examples/vector_add/"* "$dir/src/"
ASCEND_HOME_PATH="$simcann" "$cmake" -S "$dir/src" -B "$dir/src/build" -G Ninja > /dev/null
(cd "$dir/src" && "$msrewrite" -p build -i main.cpp 2> /dev/null)
flags="$("$msrewrite" --print-build-flags)"
ASCEND_HOME_PATH="$simcann" "$cmake" -S "$dir/src" -B "$dir/src/build" -G Ninja \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" > /dev/null
"$cmake" --build "$dir/src/build" > /dev/null
