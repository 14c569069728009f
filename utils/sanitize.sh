#!/usr/bin/env bash
# The sanitizer runs of CI (.ci/run, after utils/test.sh): msledger built with
# AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/, running the
# unit tests and the runtime lit suite; with ThreadSanitizer into
# build-tsan/, running the ledger's threaded unit tests and the 8-thread
# stress test; and with clang-19's libFuzzer (+ ASan, UBSan) into
# build-fuzz/, running each reader of msledger's inputs
# (unittests/fuzz/fuzz_targets.h) for MSLEDGER_FUZZ_SECONDS (60) from its
# seed corpus. Each ends with its own "N passed, M failed" line; the script
# exits non-zero if any found anything. Running it again only rebuilds what
# changed. A fuzzer's crash is kept as build-fuzz/crash-<target>-*: add it
# to unittests/fuzz/corpus/<target>/ with the fix, and the unit test
# FuzzCorpusTests replays it in every build.
#
#   utils/sanitize.sh [asan|tsan|fuzz]...   (asan and tsan by default)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/utils/setup.sh" > /dev/null

# build DIR FLAGS [CMAKE_ARGS... --] [TARGET]: a RelWithDebInfo build with
# FLAGS, of everything or of TARGET.
build() {
  local dir="$1" flags="$2" target=""
  shift 2
  local extra=()
  while (($#)) && [[ "$1" != "--" ]]; do extra+=("$1"); shift; done
  (($#)) && shift && target="${1:-}"
  if [[ ! -f "$dir/CMakeCache.txt" ]]; then
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
      "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
      "${extra[@]}" > /dev/null
  fi
  cmake --build "$dir" ${target:+--target "$target"} > "$dir.build.log" 2>&1 ||
    { cat "$dir.build.log"; return 1; }
}

# fuzz: each fuzzer for MSLEDGER_FUZZ_SECONDS from a copy of its corpus.
fuzz() {
  local dir="$root/build-fuzz" seconds="${MSLEDGER_FUZZ_SECONDS:-60}"
  build "$dir" "-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DMSLEDGER_FUZZ=ON -- msledger-fuzzers || return 1
  local passed=0 failed=0 target
  for target in mergeinput snapshot jobstatus suppressions baseline; do
    local work="$dir/corpus-$target"
    rm -rf "$work" && mkdir -p "$work"
    cp "$root/unittests/fuzz/corpus/$target/"* "$work/"
    echo "-- fuzz-$target, ${seconds} s"
    if (cd "$dir" && ASAN_OPTIONS=detect_leaks=1 "$dir/bin/fuzz/fuzz-$target" \
          -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
          -artifact_prefix="$dir/crash-$target-" -print_final_stats=1 "$work" \
          > "$dir/fuzz-$target.log" 2>&1); then
      passed=$((passed + 1))
      grep -E '^stat::number_of_executed_units|^Done' "$dir/fuzz-$target.log" || true
    else
      failed=$((failed + 1))
      tail -n 60 "$dir/fuzz-$target.log"
    fi
  done
  echo "$passed passed, $failed failed"
  ((failed == 0))
}

status=0
for kind in "${@:-asan tsan}"; do
  for run in $kind; do
    case "$run" in
    asan)
      echo "== AddressSanitizer + UndefinedBehaviorSanitizer: unit tests and the runtime suite"
      build "$root/build-asan" "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
      # Leaks are the product's own subject (its tests leak on purpose); a
      # SIGSEGV a test expects must stay a signal; the launcher preloads the
      # ledger ahead of the ASan runtime.
      ASAN_OPTIONS=detect_leaks=0:handle_segv=0:verify_asan_link_order=0 \
        UBSAN_OPTIONS=print_stacktrace=1 \
        python3 "$root/utils/run_tests.py" "$root/build-asan" --filter 'msledger-unit|msledger :: runtime/' || status=1
      ;;
    tsan)
      echo "== ThreadSanitizer: the ledger's threaded unit tests and the 8-thread stress test"
      build "$root/build-tsan" "-fsanitize=thread"
      # The simulated devices' default addresses lie in TSan's shadow: one
      # device, moved into its low application range.
      MSSIM_GM_BASE=0x1000000000 MSSIM_DEVICE_COUNT=1 TSAN_OPTIONS=halt_on_error=1 \
        python3 "$root/utils/run_tests.py" "$root/build-tsan" --filter 'RuntimeTests|RecordTable|stress-threads' || status=1
      ;;
    fuzz)
      echo "== libFuzzer (clang-19, AddressSanitizer + UndefinedBehaviorSanitizer): the readers of msledger's inputs"
      fuzz || status=1
      ;;
    *)
      echo "sanitize.sh: asan, tsan or fuzz, not '$run'" >&2
      exit 2
      ;;
    esac
  done
done
exit "$status"
