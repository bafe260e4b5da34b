#!/usr/bin/env bash
# Prepares a machine to build and test Kernel Lab: a Vulkan driver Dawn accepts, then the npm
# dependencies. Usage: bash scripts/setup.sh [--editor]
#
# Without a GPU, Dawn needs Mesa's software Vulkan driver lavapipe, version 25 or newer; Debian 12
# has it only in bookworm-backports (docs/ENVIRONMENT.md §1). The suite is added to the
# first `Suites:` line of /etc/apt/sources.list.d/debian.sources, so no host name is written.
# Idempotent: when everything is in place a second run only checks (about a second).
# --editor also runs scripts/setup-editor.sh (code-server and Chromium for the editor tests).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

editor=0
for arg in "$@"; do
  case "$arg" in
    --editor) editor=1 ;;
    -h | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "setup: unknown option $arg (use --editor or --help)" >&2
      exit 2
      ;;
  esac
done

started=$SECONDS
say() { echo "setup: $* ($((SECONDS - started)) s)"; }

installed_version() { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null | sed -n 's/^install ok installed //p'; }

# A Vulkan driver for real hardware: NVIDIA's ICD, or a render node with a Mesa hardware ICD.
has_gpu_vulkan_driver() {
  local dirs=(/usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d)
  if ls "${dirs[@]}" 2>/dev/null | grep -qi nvidia; then return 0; fi
  if ls /dev/dri/renderD* >/dev/null 2>&1 && ls "${dirs[@]}" 2>/dev/null | grep -Eq '^(radeon|intel)_icd'; then
    [[ -n $(installed_version libvulkan1) ]] && return 0
  fi
  return 1
}

# lavapipe from Mesa 25 or newer, with the Vulkan loader.
has_new_lavapipe() {
  local mesa
  mesa=$(installed_version mesa-vulkan-drivers)
  [[ -n $mesa && -n $(installed_version libvulkan1) ]] || return 1
  [[ ${mesa%%.*} =~ ^[0-9]+$ ]] && ((${mesa%%.*} >= 25)) && ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1
}

APT_HINT="add the bookworm-backports suite to your apt sources, then: apt-get install -t bookworm-backports mesa-vulkan-drivers libvulkan1"

add_backports_suite() {
  local deb822=/etc/apt/sources.list.d/debian.sources
  if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then return 0; fi
  if [[ -f $deb822 ]] && grep -q '^Suites:' "$deb822"; then
    say "adding bookworm-backports to the first Suites: line of $deb822"
    sed -i '0,/^Suites:/s/^\(Suites:.*\)$/\1 bookworm-backports/' "$deb822"
  elif [[ -f /etc/apt/sources.list ]] && grep -Eq '^deb [^ ]+ bookworm main' /etc/apt/sources.list; then
    # One-line format: repeat the existing Debian line with the backports suite.
    say "adding bookworm-backports next to the bookworm line of /etc/apt/sources.list"
    sed -i '0,/^deb \([^ ]*\) bookworm main\(.*\)$/s//&\ndeb \1 bookworm-backports main\2/' /etc/apt/sources.list
  else
    echo "setup: found no Debian bookworm apt source to extend; $APT_HINT" >&2
    return 1
  fi
}

# ---- 1. Vulkan driver ----
if has_gpu_vulkan_driver; then
  say "a GPU Vulkan driver is present; no software driver needed"
elif has_new_lavapipe; then
  say "lavapipe from Mesa $(installed_version mesa-vulkan-drivers) is present"
elif [[ $(id -u) -ne 0 ]]; then
  say "no usable Vulkan driver, and not root: skipping apt. As root, run this script again, or $APT_HINT"
elif ! grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
  say "not Debian 12: install your distribution's Mesa 25 (or newer) Vulkan drivers (lavapipe) and the Vulkan loader yourself"
else
  add_backports_suite
  say "apt-get update"
  apt-get update -qq
  say "installing mesa-vulkan-drivers and libvulkan1 from bookworm-backports"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers libvulkan1 >/dev/null
  has_new_lavapipe || { echo "setup: lavapipe from Mesa >= 25 still missing after install" >&2; exit 1; }
  say "lavapipe from Mesa $(installed_version mesa-vulkan-drivers) installed"
fi

# ---- 2. npm dependencies ----
# Current when `npm ls` finds every dependency at its version and the lock has not changed since
# this script last installed (npm ci deletes node_modules and reinstalls everything, ~15 s).
stamp=node_modules/.kernel-lab-setup
lock_hash() { sha256sum package-lock.json | cut -d' ' -f1; }
if [[ -f package-lock.json ]]; then
  if [[ -d node_modules ]] && npm ls --depth=0 >/dev/null 2>&1 && { [[ ! -f $stamp ]] || [[ $(cat "$stamp") == "$(lock_hash)" ]]; }; then
    say "node_modules matches package.json and package-lock.json"
  else
    say "npm ci"
    npm ci --no-audit --no-fund
  fi
  lock_hash >"$stamp"
else
  say "npm install (no package-lock.json)"
  npm install --no-audit --no-fund
fi

# ---- 3. editor test tools ----
if ((editor)); then
  if [[ -f scripts/setup-editor.sh ]]; then
    bash scripts/setup-editor.sh
  else
    say "--editor: scripts/setup-editor.sh does not exist yet; nothing to do"
  fi
fi
say "done"
