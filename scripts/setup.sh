#!/usr/bin/env bash
# Installs everything the build, the tests and `npm start` need on a Debian machine that has only Node 20 + npm.
# Idempotent and cheap when nothing is missing, so every entry point (test.sh, start.sh) runs it first.
#   1. apt: chromium (the headless workbench client for Playwright), libkrb5-dev (code-server's kerberos
#      addon is compiled by node-gyp), fonts-noto-color-emoji and fonts-wqy-microhei (agents write emoji and
#      CJK text; without fonts the screenshots show empty boxes; WenQuanYi Micro Hei covers Chinese, Japanese
#      and Korean in 1.6 MB where Noto CJK takes 56 MB), libxml2-utils (xmllint, the XSD validator the unit
#      tests check `check --junit` reports with), plus python3/make/g++ for node-gyp; apt-get update only
#      when something is missing.
#   2. npm ci, when node_modules is missing or older than package-lock.json.
#   3. The offline VS Code host (code-server + Node 24 from npm), cached by lockfile hash (scripts/install-host.sh).
#      `--no-host` skips it, for commands that need no VS Code (npm run package).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
host=1
for arg in "$@"; do
  case $arg in
    --no-host) host= ;;
    *) echo "setup: unknown option $arg (use --no-host)" >&2; exit 2 ;;
  esac
done

need=()
for p in chromium libkrb5-dev fonts-noto-color-emoji fonts-wqy-microhei libxml2-utils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
for c in python3 make g++; do command -v "$c" >/dev/null || need+=("$c"); done
if ((${#need[@]})); then
  echo "setup: installing system packages: ${need[*]}"
  SUDO=
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to apt-get install ${need[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# npm ci writes node_modules/.package-lock.json; a lockfile newer than that means the tree is stale.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
else
  echo "setup: node_modules is up to date"
fi

if [[ -n $host ]]; then bash scripts/install-host.sh; fi
