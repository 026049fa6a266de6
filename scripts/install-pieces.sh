# Sourced by scripts/install-libreoffice.sh and scripts/install-chromium.sh: checks what a group of tests
# needs piece by piece (each piece provided by one of some Debian packages), prints one line per piece, and
# installs the missing ones with apt-get, so a partial install is completed rather than taken as whole.

# Prints the first of the given Debian packages that is installed; fails when none is.
installed_package() {
  local pkg
  for pkg in "$@"; do
    if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ]; then
      echo "$pkg"
      return 0
    fi
  done
  return 1
}

# install_pieces NAME CHECK_ONLY CONSEQUENCE "label|package alternative..."...
# Returns 1 with CHECK_ONLY=1 when a piece is missing; otherwise 0, warning (with CONSEQUENCE) when it cannot
# install, so the caller's other tests still run.
install_pieces() {
  local name=$1 check_only=$2 consequence=$3
  shift 3
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "$name: WARNING: no dpkg here, the pieces cannot be checked or installed; $consequence where one is missing" >&2
    [ "$check_only" = 1 ] && return 1
    return 0
  fi
  local piece label packages found missing=()
  for piece in "$@"; do
    label=${piece%%|*}
    packages=${piece#*|}
    # shellcheck disable=SC2086 # the alternatives are words
    if found=$(installed_package $packages); then
      echo "$name: ok      $label: $found"
    else
      echo "$name: missing $label: ${packages%% *}"
      missing+=("${packages%% *}")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$check_only" = 1 ]; then
    echo "$name: would install ${missing[*]}"
    return 1
  fi
  local sudo=""
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name: WARNING: apt-get not available, cannot install ${missing[*]}; $consequence" >&2
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo -n"
    else
      echo "$name: WARNING: not root and no sudo, cannot install ${missing[*]}; $consequence" >&2
      return 0
    fi
  fi
  echo "$name: installing ${missing[*]}"
  # DPkg::Lock::Timeout: another install running beside this one (a second test run's, an operator's) is waited
  # for, not taken as a failure.
  # One update per run only; a stale or absent package list is the usual reason an install fails.
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq ||
    ! DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"; then
    echo "$name: WARNING: apt-get could not install ${missing[*]}; $consequence" >&2
    return 0
  fi
  for piece in "$@"; do
    # shellcheck disable=SC2086
    installed_package ${piece#*|} >/dev/null ||
      echo "$name: WARNING: ${piece%%|*} still missing after the install; $consequence" >&2
  done
  return 0
}
