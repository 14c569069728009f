#!/usr/bin/env bash
# The sanitizer runs of CI (.ci/run, after utils/test.sh): msledger built with
# AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/, running the
# unit tests and the runtime lit suite; and with ThreadSanitizer into
# build-tsan/, running the ledger's threaded unit tests and the 8-thread
# stress test. Each ends with its own "N passed, M failed" line; the script
# exits non-zero if either found anything. Running it again only rebuilds
# what changed.
#
#   utils/sanitize.sh [asan|tsan]...   (both by default)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/utils/setup.sh" > /dev/null

# build DIR FLAGS: a RelWithDebInfo build of everything with FLAGS.
build() {
  local dir="$1" flags="$2"
  if [[ ! -f "$dir/CMakeCache.txt" ]]; then
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
      "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" > /dev/null
  fi
  cmake --build "$dir" > "$dir.build.log" 2>&1 || { cat "$dir.build.log"; return 1; }
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
    *)
      echo "sanitize.sh: asan or tsan, not '$run'" >&2
      exit 2
      ;;
    esac
  done
done
exit "$status"
