#!/usr/bin/env bash
# `weft --version`, `--help`, `help` and every command must run on a server without a display:
# only the GUI needs one, and without one it says so instead of aborting.
#   packaging/check-headless.sh WEFT_BINARY VERSION
set -euo pipefail

weft="$1"
version="$2"
# shellcheck source=check-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-lib.sh"

# Runs weft without a display: stdout in $work/out, stderr in $work/err, fails unless it exits WANT.
expect() {
    local want="$1" status=0
    shift
    headless "$weft" "$@" >"$work/out" 2>"$work/err" || status=$?
    [ "$status" -eq "$want" ] || fail "weft $* exited $status, expected $want: $(head -3 "$work/err")"
}

for option in --version -v; do
    expect 0 "$option"
    grep -qx "weft $version" "$work/out" || fail "weft $option printed '$(cat "$work/out")', expected 'weft $version'"
done

expect 0 --help
cp "$work/out" "$work/usage"
commands=$(help_section Commands: "$weft")
[ "$(echo "$commands" | wc -w)" -ge 10 ] || fail "weft --help lists too few commands: $commands"
for alias in help -h; do
    expect 0 "$alias"
    cmp -s "$work/out" "$work/usage" || fail "weft $alias differs from weft --help"
done

for command in $commands; do
    expect 0 "$command" --help
    grep -q '^Usage:' "$work/out" || fail "weft $command --help prints no usage"
    cp "$work/out" "$work/command-help"
    expect 0 help "$command"
    cmp -s "$work/out" "$work/command-help" || fail "weft help $command differs from weft $command --help"
done
expect 2 help no-such-command

benchmarks=$(help_section Benchmarks: "$weft" bench)
[ -n "$benchmarks" ] || fail "weft bench --help lists no benchmarks"
for benchmark in $benchmarks; do
    expect 0 bench "$benchmark" --help
done

# The pipeline on a small generated fabric, start to end, without a display.
topology="$work/fabric.topo"
expect 0 gen --kary 4 --levels 2 -o "$topology"
expect 0 info "$topology"
grep -qi 'switch' "$work/out" || fail "weft info printed no switches: $(cat "$work/out")"
expect 0 info --json "$topology"
expect 0 route --engine ftree --topology "$topology" --out "$work/ftree.lfts"
expect 0 route --engine minhop --topology "$topology" --out "$work/minhop.lfts"
expect 0 metrics --topology "$topology" --lfts "$work/ftree.lfts"
expect 0 diff --topology "$topology" --from "$work/ftree.lfts" --to "$work/minhop.lfts"
expect 0 convert --to ibsim -o "$work/fabric.net" "$topology"

# The GUI without a display: a plain message and exit 1, not Qt's abort.
for args in "" "$topology" "--lang nb"; do
    # shellcheck disable=SC2086
    expect 1 $args
    grep -q 'needs a display' "$work/err" || fail "weft $args without a display: $(head -3 "$work/err")"
done
expect 2 --lang
expect 2 --no-such-option

finish check-headless "--version, --help, help, $(wc -w <<<"$commands") commands and the pipeline ran without a display"
