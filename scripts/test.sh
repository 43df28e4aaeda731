#!/usr/bin/env bash
# `npm test`: everything, from a fresh clone (before npm install) to the UI check.
#   setup -> build -> checks (typecheck, lint, knip, format) -> package -> unit, conformance, browser, real agents (CLI), host suite,
#   npm start smoke, UI check and history, UI tour, polish tour, recovery, real agents through the chat panel [, fresh host install]
# Every stage runs even when an earlier one failed, so one run shows all problems. Each stage's counts come
# from node:test's `ℹ pass N` / `ℹ fail N` lines or a `N passed, N failed` line; a stage without counts counts
# as one check (1 failed when it exited non-zero). The last line is the total: `N passed, N failed`.
#   STAGE_TIMEOUT=600 (seconds per stage)   logs: test-results/logs/<stage>.log
#   FRESH_HOST=1: also install the VS Code host into an empty cache through npm (~90 s; CI sets it)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
logs=test-results/logs
mkdir -p "$logs"
stage_timeout=${STAGE_TIMEOUT:-600}
t_all=$(date +%s%N)
total_pass=0
total_fail=0
summary=()
failed_logs=()

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
secs() { printf '%d.%01d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

# count_from LOG -> "PASS FAIL" or nothing when the log has no counts
count_from() {
  local p f line
  p=$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$1" | tail -n1)
  f=$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$1" | tail -n1)
  if [[ -n $p && -n $f ]]; then echo "$p $f"; return; fi
  line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
  [[ -n $line ]] && sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' <<<"$line"
}

# stage NAME COMMAND...: run it with a time limit, show and log its output, add its counts to the totals.
stage() {
  local name=$1; shift
  local log="$logs/$name.log" t0 rc
  echo
  echo "=== $name: $* ($(secs "$(ms_since "$t_all")") s into the run)"
  t0=$(date +%s%N)
  # -k: a stage that ignores SIGTERM is killed 15 s later; our node runners stop their code-servers on SIGTERM.
  local limit=${STAGE_LIMIT:-$stage_timeout} # STAGE_LIMIT=N stage ...: one stage's own limit
  timeout -k 15 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  [[ $rc -eq 124 ]] && echo "$name: timed out after $limit s" | tee -a "$log"
  tally "$name" "$log" "$rc" "$(ms_since "$t0")"
}

# tally NAME LOG RC MS: a finished stage's counts into the totals and the summary.
tally() {
  local name=$1 log=$2 rc=$3 ms=$4 counts p f
  counts=$(count_from "$log")
  if [[ -n $counts ]]; then
    read -r p f <<<"$counts"
    # A non-zero exit with no failure counted (crash after the count, or "0 passed") is still a failure.
    if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi
  elif [[ $rc -eq 0 ]]; then p=1; f=0
  else p=0; f=1
  fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  [[ $f -ne 0 ]] && failed_logs+=("$name")
  summary+=("$(printf '  %-12s %-4s %4d passed %4d failed %8s s' "$name" "$([[ $f -eq 0 ]] && echo ok || echo FAIL)" "$p" "$f" "$(secs "$ms")")")
}

# stage_bg NAME COMMAND...: start a stage in the background (its output only in its log, shown when it is
# collected); stage_wait NAME: wait for it, show its log and tally it. For two stages that each leave most of
# a core idle (a UI walk waits on the workbench most of the time), so the pair takes little more than the
# longer one.
declare -A bg_pid bg_t0
stage_bg() {
  local name=$1; shift
  local log="$logs/$name.log" limit=${STAGE_LIMIT:-$stage_timeout}
  echo
  echo "=== $name: $* (in the background, $(secs "$(ms_since "$t_all")") s into the run)"
  bg_t0[$name]=$(date +%s%N)
  (
    timeout -k 15 "$limit" "$@" >"$log" 2>&1
    rc=$?
    [[ $rc -eq 124 ]] && echo "$name: timed out after $limit s" >>"$log"
    echo "$rc" >"$log.rc"
  ) &
  bg_pid[$name]=$!
}
stage_wait() {
  local name=$1 log="$logs/$1.log"
  echo
  echo "=== $name: collecting the background stage ($(secs "$(ms_since "$t_all")") s into the run)"
  wait "${bg_pid[$name]}"
  cat "$log"
  tally "$name" "$log" "$(cat "$log.rc" 2>/dev/null || echo 1)" "$(ms_since "${bg_t0[$name]}")"
  rm -f "$log.rc"
}

skip() {
  echo
  echo "=== $1: skipped ($2)"
  summary+=("$(printf '  %-12s skipped (%s)' "$1" "$2")")
}

stage setup bash scripts/setup.sh
stage build node scripts/build.mjs
# typecheck, lint (typescript-eslint, the layer rules and the 400-line warning: eslint.config.mjs), knip
# (unused files, exports and dependencies: knip.json) and the format check, two at a time (scripts/checks.mjs).
stage checks node scripts/checks.mjs
rm -f dist/acp-chat.vsix # never UI-check a stale package
stage package node scripts/package.mjs

# A fresh machine: the host installed into an empty cache by `npm run install-host`, so the outer npm's
# npm_config_* variables reach the install the way they do under `npm start` / `npm test` on a new clone.
# It runs in the background from here, at the lowest CPU priority, and is collected at the end: it is
# mostly downloads and native builds that the stages' idle moments can take (one after another it cost
# ~90 s idle, ~180 s on a shared machine). It installs into its own cache and links nothing, so the stages
# keep using the host setup installed.
if [[ ${FRESH_HOST:-} == 1 ]]; then
  fresh_cache=$(mktemp -d)
  fresh_log="$logs/fresh-host.log"
  fresh_limit=$((stage_timeout > 1200 ? stage_timeout : 1200))
  fresh_t0=$(date +%s%N)
  echo
  echo "=== fresh-host: npm run -s install-host into an empty cache, in the background ($(secs "$(ms_since "$t_all")") s into the run)"
  (
    nice -n 19 timeout -k 15 "$fresh_limit" env VSCODE_HOST_CACHE="$fresh_cache" VSCODE_HOST_NO_LINK=1 npm run -s install-host >"$fresh_log" 2>&1
    rc=$?
    [[ $rc -eq 124 ]] && echo "fresh-host: timed out after $fresh_limit s" >>"$fresh_log"
    echo "$rc" >"$fresh_log.rc"
  ) &
  fresh_pid=$!
fi
stage unit node scripts/test-unit.mjs

# The conformance checker lives in the sibling checkout of shared material (../shared), not in this repo.
if [[ -f ../shared/conformance/check.mjs ]]; then
  vectors=()
  [[ -d test/conformance/vectors ]] && vectors=(test/conformance/vectors) # else: check.mjs's own vectors
  stage conformance node ../shared/conformance/check.mjs --cli "node dist/cli.js reduce" "${vectors[@]}"
else
  skip conformance "../shared/conformance/check.mjs not found"
fi

if [[ -f test/browser/run.mjs ]]; then stage browser node test/browser/run.mjs; else skip browser "no test/browser/run.mjs"; fi
if [[ -f test/agents/run-real-agents.mjs ]]; then
  stage real-agents node test/agents/run-real-agents.mjs
else
  skip real-agents "no test/agents/run-real-agents.mjs"
fi
stage host-suite node test/e2e/run-host-tests.mjs
# The main job (npm start) end to end: starts, answers HTTP 200 with the workbench, stops. A free port, so a
# server the user left running on 8080 does not matter.
free_port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
stage start-smoke env START_SMOKE=1 PORT="$free_port" bash scripts/start.sh
# History at scale: 1,000 generated chats (written before the window opens) listed, searched, filtered,
# bulk-archived and reopened at a match in the side bar's History view (test-results/history/*.png),
# beside the UI check (see stage_bg).
stage_bg ui-history node test/e2e/ui-history.mjs
stage ui-check node test/e2e/ui-check.mjs
stage_wait ui-history
# The tour twice, side by side (see stage_bg): with the demo agent speaking ACP v1, and v2 (`-v2` screenshots).
stage_bg ui-tour-v2 env ACP_TOUR_PROTOCOL=2 node test/e2e/ui-tour.mjs
stage ui-tour node test/e2e/ui-tour.mjs
stage_wait ui-tour-v2
# ui-polish: one session over what a new user tripped over in their first hour, a check and a screenshot
# per fixed item (test-results/polish/item-NN-*.png). ui-recovery: one chat whose demo agent misbehaves as
# told (silent, crashes, ignores Cancel, reload mid-turn), the recovery notices' buttons clicked in VS Code,
# a screenshot per case (test-results/recovery/*.png). One after the other: side by side, two of three
# full runs failed a wait in one of them (a second window's restored tabs, a picker row left inert).
stage ui-polish node test/e2e/ui-polish.mjs
stage ui-recovery node test/e2e/ui-recovery.mjs
if [[ -f test/agents/run-real-panel.mjs ]]; then
  # One code-server per agent, two agents at a time (run-real-panel.mjs): its own, longer limit.
  STAGE_LIMIT=$((stage_timeout > 1500 ? stage_timeout : 1500)) stage real-panel node test/agents/run-real-panel.mjs
else
  skip real-panel "no test/agents/run-real-panel.mjs"
fi
if [[ ${FRESH_HOST:-} == 1 ]]; then
  echo
  echo "=== fresh-host: waiting for the background install ($(secs "$(ms_since "$t_all")") s into the run)"
  wait "$fresh_pid"
  cat "$fresh_log"
  tally fresh-host "$fresh_log" "$(cat "$fresh_log.rc" 2>/dev/null || echo 1)" "$(ms_since "$fresh_t0")"
  rm -rf "$fresh_cache" "$fresh_log.rc"
else
  skip fresh-host "FRESH_HOST=1 runs it (CI does): the VS Code host installed into an empty cache through npm"
fi

# Failed checks again, next to the summary: CI may keep only the end of the output, and a failure named
# only in the middle of a long run is a failure nobody can find afterwards.
for name in "${failed_logs[@]}"; do
  echo
  echo "=== failed in $name (from $logs/$name.log)"
  grep -aE -A4 '✘|✖|^not ok|^ *not ok|FAIL|timed out after' "$logs/$name.log" | head -n 40
done

echo
echo "=== summary (logs in $logs/)"
printf '%s\n' "${summary[@]}"
echo "  total $(secs "$(ms_since "$t_all")") s"
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 && $total_pass -gt 0 ]]
