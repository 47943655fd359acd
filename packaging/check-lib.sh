# shellcheck shell=bash
# What packaging/check-*.sh share: a scratch directory, failures counted rather than fatal, and
# weft run as on a server without a display. Sourced, not run.

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# Runs a command with no display and no Qt platform chosen.
headless() {
    env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$@"
}

# The first words of the lines of a --help section: `help_section Commands: weft` lists the commands.
help_section() {
    local section="$1"
    shift
    headless "$@" --help | sed -n "/^$section\$/,/^\$/p" | awk 'NR > 1 && NF { print $1 }'
}

# Exits 1 with NAME's count of failures, or prints the summary and exits 0.
finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures failure(s)" >&2
        exit 1
    fi
    echo "$1: $2"
}
