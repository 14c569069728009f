#!/usr/bin/env bash
# Installs the Debian packages msledger needs (only the missing ones, without
# prompting), then configures and builds the project into build/.
# Safe to run again: with everything installed and built it takes seconds.
#
#   utils/setup.sh            install, configure, build
#   BUILD_DIR=dir utils/setup.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

packages=(
  cmake ninja-build make g++ python3 ccache bear chromium
  clang-19 libclang-19-dev libclang-cpp19-dev libclang-common-19-dev llvm-19-dev llvm-19-tools
  libboost-json1.81-dev
  # utils/aclnn_examples.py's reference results (Debian's /usr/bin/python3).
  python3-numpy
  libgtest-dev libgmock-dev libbenchmark-dev
  # The JUnit reports the tests write are validated with xmllint.
  libxml2-utils
  # Multi-process jobs: lit-tests/examples/hccl-mpirun.test starts ranks with
  # OpenMPI's mpirun.
  openmpi-bin
  # The peers utils/benchmarks/peers.py measures msledger against.
  valgrind heaptrack libclang-rt-19-dev
)

sudo=""
if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null; then
  sudo="sudo"
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [[ "$(id -u)" != 0 && -z "$sudo" ]]; then
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Microsoft's SARIF validator (npm: @microsoft/sarif-multitool), which the
# tests run on every SARIF log they write. Outside the build directory, so
# every build (utils/sanitize.sh's too) finds it; utils/sarif_validate.sh
# knows where.
sarif_version=5.7.0
sarif_dir="${MSLEDGER_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/msledger}/sarif-multitool-$sarif_version"
sarif_binary="$sarif_dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [[ ! -x "$sarif_binary" ]]; then
  if ! command -v npm >/dev/null; then
    echo "setup: installing npm (for the SARIF validator)"
    ${sudo:-} apt-get install -y -q --no-install-recommends npm
  fi
  echo "setup: installing the SARIF validator @microsoft/sarif-multitool@$sarif_version into $sarif_dir"
  mkdir -p "$sarif_dir"
  npm install --prefix "$sarif_dir" --no-audit --no-fund --loglevel=error \
    "@microsoft/sarif-multitool@$sarif_version" > /dev/null
  # npm no longer runs the package's install script (chmod u+x) unasked.
  chmod u+x "$sarif_binary"
fi

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build"
