#!/usr/bin/env bash
# Builds the Debian package from a build directory and checks what it holds: the files, the
# dependencies, a man page and completion that know every command, a desktop entry and AppStream
# metadata that validate, and a `weft` that runs from the unpacked package without the build tree.
#   packaging/check-deb.sh BUILD_DIR             check the package of a finished build (any user)
#   packaging/check-deb.sh BUILD_DIR --install   also apt-get install it, use it, and remove it (root)
set -euo pipefail

build="$(cd "$1" && pwd)"
install_check="${2:-}"
# shellcheck source=check-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-lib.sh"

# Packages what the build holds (cpack builds nothing; a test must not relink what others run).
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 || {
    cat "$work/cpack.log" >&2
    exit 1
}
version="$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")"
deb="$work/out/weft_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || {
    echo "FAIL: cpack made no $(basename "$deb"): $(ls "$work/out")" >&2
    exit 1
}

# The files.
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$work/contents"
for path in /usr/bin/weft \
    /usr/share/applications/weft.desktop \
    /usr/share/icons/hicolor/scalable/apps/weft.svg \
    /usr/share/man/man1/weft.1.gz \
    /usr/share/bash-completion/completions/weft; do
    grep -qx -- "$path" "$work/contents" || fail "the package has no $path"
done
grep -qE '^/usr/share/metainfo/[^/]+\.metainfo\.xml$' "$work/contents" || fail "the package has no AppStream metainfo"
# OpenSM's plugin, where the dynamic linker finds it by name (event_plugin_name weftosm).
multiarch="$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)"
grep -qx -- "/usr/lib/$multiarch/libweftosm.so" "$work/contents" || fail "the package has no /usr/lib/$multiarch/libweftosm.so"
outside="$(grep -vE '^/(usr/?)?$|^/usr/(bin|share)(/|$)|^/usr/lib/?$|^/usr/lib/'"$multiarch"'(/|/libweftosm\.so)?$' "$work/contents" || true)"
[ -z "$outside" ] || fail "the package installs outside /usr/bin, /usr/share and OpenSM's plugin: $(head -3 <<<"$outside")"


# The dependencies: the shared libraries weft links (dpkg-shlibdeps), the lab's tools recommended.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = weft ] || fail "package name '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "package version '$(field Version)', expected $version"
for library in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqcustomplot2.1-qt6 libibnetdisc5 libibmad5 libibumad3; do
    field Depends | tr ',' '\n' | grep -q "^ *$library\b" || fail "Depends lacks $library: $(field Depends)"
done
for tool in opensm ibsim-utils libumad2sim0; do
    field Recommends | tr ',' '\n' | grep -qx " *$tool" || fail "Recommends lacks $tool: $(field Recommends)"
done
field Suggests | tr ',' '\n' | grep -qx " *infiniband-diags" || fail "Suggests lacks infiniband-diags: $(field Suggests)"
# Every dependency can be met from the archive (a simulation: nothing is installed).
apt-get install -s -q "$deb" >"$work/simulate" 2>&1 || fail "apt-get cannot install the package: $(tail -5 "$work/simulate")"

# The unpacked package on its own: no build tree, no display.
root="$work/root"
dpkg-deb -x "$deb" "$root"
weft="$root/usr/bin/weft"
readelf -d "$weft" | grep -qE 'RPATH|RUNPATH' && fail "the packaged weft carries an RPATH: $(readelf -d "$weft" | grep -E 'RPATH|RUNPATH')"
[ "$(headless "$weft" --version)" = "weft $version" ] || fail "weft --version from the package: $(headless "$weft" --version 2>&1)"
headless "$weft" gen --kary 4 --levels 2 -o "$work/fabric.topo" >/dev/null 2>&1 || fail "weft gen from the package"
headless "$weft" info "$work/fabric.topo" >"$work/info" 2>&1 || fail "weft info from the package: $(cat "$work/info")"
grep -qx 'hosts: 16' "$work/info" || fail "weft info on a 4-ary 2-tree: $(cat "$work/info")"
commands=$(help_section Commands: "$weft")

# The desktop entry: valid, its icon installed, and its command opens a file in the GUI.
desktop="$root/usr/share/applications/weft.desktop"
desktop-file-validate "$desktop" >"$work/desktop" 2>&1 || fail "desktop-file-validate: $(cat "$work/desktop")"
[ -s "$work/desktop" ] && fail "desktop-file-validate: $(cat "$work/desktop")"
icon="$(sed -n 's/^Icon=//p' "$desktop")"
[ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "the desktop entry's icon '$icon' is not installed"
exec_line="$(sed -n 's/^Exec=//p' "$desktop")"
[ "$exec_line" = "weft %f" ] || fail "the desktop entry runs '$exec_line'"
QT_QPA_PLATFORM=offscreen timeout 60 "$weft" "$work/fabric.topo" --screenshot "$work/gui.png" >"$work/gui" 2>&1 \
    || fail "the desktop entry's command did not open a file: $(tail -3 "$work/gui")"
[ -s "$work/gui.png" ] || fail "the GUI started from the package drew nothing"

# AppStream metadata: valid, and it names the desktop entry and the binary.
metainfo="$(ls "$root"/usr/share/metainfo/*.metainfo.xml)"
appstreamcli validate --no-net "$metainfo" >"$work/appstream" 2>&1 || fail "appstreamcli validate: $(cat "$work/appstream")"
grep -q '<launchable type="desktop-id">weft.desktop</launchable>' "$metainfo" || fail "the metainfo does not launch weft.desktop"
grep -q "<release version=\"$version\"" "$metainfo" || fail "the metainfo's release is not $version"

# The man page: renders without warnings, names this version and every command.
man_page="$root/usr/share/man/man1/weft.1.gz"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man_page" >"$work/man.txt" 2>"$work/man.err" || fail "man -l weft.1.gz failed"
[ -s "$work/man.err" ] && fail "the man page has warnings: $(head -3 "$work/man.err")"
grep -q "Weft $version" "$work/man.txt" || fail "the man page does not name version $version"
for command in $commands; do
    grep -qE "^       $command( |$)" "$work/man.txt" || fail "the man page does not describe 'weft $command'"
done

# Bash completion: the commands, and each command's options, from the installed weft.
completion="$root/usr/share/bash-completion/completions/weft"
complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _weft; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$completion" "$weft" "$@"
}
complete_words "" >"$work/completed"
for command in $commands; do
    grep -qx "$command" "$work/completed" || fail "completion of 'weft ' lacks $command"
done
for case in "info --json" "route --engine" "route --topology" "commit --accept-violations" "commit --sm-port" \
    "diff --partitions-from" "lab --no-gui" "gen --kary" "bench route --opensm"; do
    read -ra words <<<"$case"
    option="${words[-1]}"
    complete_words "${words[@]:0:${#words[@]}-1}" "${option:0:4}" >"$work/completed"
    grep -qx -- "$option" "$work/completed" || fail "completion of 'weft ${words[*]:0:${#words[@]}-1} ${option:0:4}' lacks $option"
done
complete_words bench "" >"$work/completed"
grep -qx scale "$work/completed" || fail "completion of 'weft bench ' lacks scale"

# Installed for real with apt, used, and removed again.
if [ "$install_check" = --install ]; then
    if dpkg-query -W -f='${Status}' weft 2>/dev/null | grep -q "install ok installed"; then
        fail "weft is installed already; not touching it"
    else
        trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -q weft >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
        cp "$deb" "$work/weft.deb"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$work/weft.deb" >"$work/apt" 2>&1 || fail "apt-get install: $(tail -5 "$work/apt")"
        [ "$(command -v weft)" = /usr/bin/weft ] || fail "weft is not on the PATH after installing"
        [ "$(headless weft --version)" = "weft $version" ] || fail "installed weft --version: $(headless weft --version 2>&1)"
        headless weft info "$work/fabric.topo" | grep -qx 'hosts: 16' || fail "installed weft info"
        man -w weft | grep -q '^/usr/share/man/man1/weft.1.gz$' || fail "man does not find weft(1)"
        desktop-file-validate /usr/share/applications/weft.desktop || fail "installed desktop entry"
        DEBIAN_FRONTEND=noninteractive apt-get remove -y -q weft >"$work/apt" 2>&1 || fail "apt-get remove: $(tail -5 "$work/apt")"
        [ ! -e /usr/bin/weft ] || fail "/usr/bin/weft is still there after removal"
        echo "check-deb: installed with apt-get, ran weft --version and weft info, removed"
    fi
fi

finish check-deb "$(basename "$deb"): $(wc -l <"$work/contents") entries, Depends $(field Depends | tr ',' '\n' | wc -l) packages; files, dependencies, man page, completion, desktop entry and metainfo check out"
