#!/usr/bin/env bash
# Installs what the editor tests need on Debian 12, as root: Debian's Chromium and ripgrep, and
# code-server 4.100.3 (VS Code 1.100.3, the last line for Node 20) from npm into a cache folder
# outside the project (~/.cache/kernel-lab/code-server-4.100.3, or $KERNEL_LAB_CODE_SERVER_HOME),
# so every clone of the repository on a machine shares one install (about 300 MB, a minute).
# Idempotent: a second run only checks, in well under a second.
# code-server's own install scripts download prebuilt binaries, which cannot be fetched here, so its
# postinstall is replayed by hand in the order that works (docs/ENVIRONMENT.md §5).
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
CODE_SERVER_HOME=${KERNEL_LAB_CODE_SERVER_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/kernel-lab/code-server-$CODE_SERVER_VERSION}
CODE_SERVER_DIR=$CODE_SERVER_HOME/node_modules/code-server
DONE_MARK=$CODE_SERVER_HOME/.installed-$CODE_SERVER_VERSION

# npm refuses to run install scripts as root without this.
export npm_config_unsafe_perm=true
export npm_config_yes=true
export npm_config_fund=false
export npm_config_audit=false
export npm_config_update_notifier=false

started=$SECONDS
step() { echo "setup-editor: $* ($((SECONDS - started)) s)"; }

# --- Debian packages: the browser, ripgrep (VS Code's search), and what argon2/kerberos build with.
apt_packages=(chromium ripgrep libkrb5-dev pkg-config)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  step "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ -f $DONE_MARK && -f $CODE_SERVER_DIR/out/node/entry.js ]]; then
  step "code-server $CODE_SERVER_VERSION already in $CODE_SERVER_HOME"
  exit 0
fi

# --- code-server itself, without its install scripts.
step "npm install code-server@$CODE_SERVER_VERSION into $CODE_SERVER_HOME"
rm -rf "$CODE_SERVER_HOME"
mkdir -p "$CODE_SERVER_HOME"
# A package.json of its own, so npm never walks up into the project's.
echo '{ "name": "kernel-lab-code-server", "private": true }' >"$CODE_SERVER_HOME/package.json"
(cd "$CODE_SERVER_HOME" && npm install --no-save --ignore-scripts --loglevel=error "code-server@$CODE_SERVER_VERSION")

step "npm rebuild argon2"
(cd "$CODE_SERVER_HOME" && npm rebuild argon2 --loglevel=error)

# --- VS Code's server modules; ripgrep's postinstall skips its download when the binary is there.
step "lib/vscode: npm install --omit=dev"
(
  cd "$CODE_SERVER_DIR/lib/vscode"
  npm install --omit=dev --ignore-scripts --loglevel=error
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  step "lib/vscode: npm rebuild"
  npm rebuild --loglevel=error
)

# --- The rest of code-server's postinstall.
step "links and built-in extensions"
(
  cd "$CODE_SERVER_DIR/lib/vscode"
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
  (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
  cd extensions
  npm install --omit=dev --loglevel=error
)

step "code-server --version: $(XDG_CONFIG_HOME=$(mktemp -d) node "$CODE_SERVER_DIR/out/node/entry.js" --version | tail -1)"
touch "$DONE_MARK"
step "code-server $CODE_SERVER_VERSION installed ($(du -sh "$CODE_SERVER_HOME" | cut -f1))"
