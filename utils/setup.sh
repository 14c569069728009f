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
  libgtest-dev libgmock-dev libbenchmark-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build"
