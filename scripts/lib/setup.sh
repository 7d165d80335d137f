# shellcheck shell=bash
# Sourced by scripts/*.sh. Moves to the repository root and provides
#   stu_install_packages          install the Debian packages stu needs, if any is missing
#   stu_build DIR [CMAKE_ARGS...] configure and build into DIR (Ninja when available)

STU_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$STU_ROOT" || exit 1

STU_PACKAGES=(verilator libsystemc-dev libgtest-dev libbenchmark-dev zlib1g-dev liblzma-dev
              libzstd-dev libcli11-dev nlohmann-json3-dev gnuplot-nox cmake g++ make pkg-config
              python3 yosys)

stu_install_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: not a Debian system; install by hand: ${STU_PACKAGES[*]}" >&2
    return 0
  fi
  local missing=() pkg
  for pkg in "${STU_PACKAGES[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
      missing+=("$pkg")
    fi
  done
  ((${#missing[@]} == 0)) && return 0

  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: missing packages (${missing[*]}) and no sudo to install them" >&2
      return 1
    fi
  fi
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

stu_build() {
  local dir=$1
  shift
  local generator=()
  # Keep whatever generator an existing build folder was made with.
  if [[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  local start=$SECONDS
  cmake -S "$STU_ROOT" -B "$dir" "${generator[@]}" "$@"
  cmake --build "$dir" -j"$(nproc)"
  echo "setup: configure + build of $dir took $((SECONDS - start)) s"
}
