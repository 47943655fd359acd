#!/usr/bin/env bash
# Builds the Debian package from a build directory and checks what it holds: the files, the
# dependencies, a man page and completion that know every command, a desktop entry and AppStream
# metadata that validate, weft serve's systemd unit (installed disabled) and its configuration, and
# a `weft` that runs from the unpacked package without the build tree.
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
    /usr/share/bash-completion/completions/weft \
    /usr/lib/systemd/system/weft-serve.service \
    /usr/lib/sysusers.d/weft.conf \
    /usr/lib/udev/rules.d/60-weft-umad.rules \
    /usr/libexec/weft/weft-prolog-slurmctld \
    /usr/libexec/weft/weft-epilog-slurmctld \
    /etc/weft/serve.conf \
    /etc/weft/slurm.conf; do
    grep -qx -- "$path" "$work/contents" || fail "the package has no $path"
done
grep -qE '^/usr/share/metainfo/[^/]+\.metainfo\.xml$' "$work/contents" || fail "the package has no AppStream metainfo"
# OpenSM's plugin, where the dynamic linker finds it by name (event_plugin_name weftosm).
multiarch="$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)"
grep -qx -- "/usr/lib/$multiarch/libweftosm.so" "$work/contents" || fail "the package has no /usr/lib/$multiarch/libweftosm.so"
outside="$(grep -vE '^/(usr/?)?$|^/usr/(bin|share)(/|$)|^/usr/lib/?$|^/usr/lib/'"$multiarch"'(/|/libweftosm\.so)?$|^/usr/lib/systemd(/|/system/?|/system/weft-serve\.service)?$|^/usr/lib/sysusers\.d(/|/weft\.conf)?$|^/usr/lib/udev(/|/rules\.d/?|/rules\.d/60-weft-umad\.rules)?$|^/usr/libexec(/|/weft/?|/weft/weft-(prolog|epilog)-slurmctld)?$|^/etc(/|/weft/?|/weft/(serve|slurm)\.conf)?$' "$work/contents" || true)"
[ -z "$outside" ] || fail "the package installs outside /usr/bin, /usr/share, OpenSM's plugin, the unit, its user, its device rule, Slurm's prolog and epilog and their configuration: $(head -3 <<<"$outside")"


# weft serve's unit, installed disabled: no enablement link (any *.wants/ or *.requires/, the
# /etc/systemd/system/*.wants/ that `systemctl enable` makes above all) and no maintainer script
# that enables or starts it; its configuration a conffile, so that upgrades keep the operator's.
links="$(grep -E '\.(wants|requires)/|^/etc/systemd(/|$)' "$work/contents" || true)"
[ -z "$links" ] || fail "the package enables a unit: $(head -3 <<<"$links")"
dpkg-deb -e "$deb" "$work/control"
for script in preinst postinst prerm postrm; do
    starts='(systemctl|deb-systemd-(helper|invoke)|(update|invoke)-rc\.d).*\<(enable|reenable|start|restart|defaults)\>'
    if [ -f "$work/control/$script" ] && grep -qE "$starts" "$work/control/$script"; then
        fail "the $script script enables or starts a service: $(grep -E "$starts" "$work/control/$script" | head -1)"
    fi
done
while read -r path; do
    grep -qx -- "$path" "$work/control/conffiles" 2>/dev/null || fail "$path is not a conffile"
done < <(grep -E '^/etc/.*[^/]$' "$work/contents")

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

# The unit: it runs the packaged weft serve with the options of the packaged configuration,
# whose every line is a comment (the service starts only once the operator says how) and which
# describes every option of weft serve and no other. systemd-analyze, where there is one (a
# container may have no systemd), checks the unit's syntax with the packaged weft in it.
unit="$root/usr/lib/systemd/system/weft-serve.service"
serve_conf="$root/etc/weft/serve.conf"
exec_start="$(sed -n 's/^ExecStart=[-@:+!]*//p' "$unit")"
binary="${exec_start%% *}"
[ "$binary" = /usr/bin/weft ] || fail "the unit's ExecStart runs '$binary', not /usr/bin/weft"
[ -x "$root$binary" ] || fail "the unit's ExecStart names $binary, which the package does not hold"
# shellcheck disable=SC2016 # the unit's own text, not expanded
[ "${exec_start#"$binary"}" = ' serve $WEFT_SERVE_OPTIONS' ] || fail "the unit's ExecStart is '$exec_start'"
[ "$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit")" = /etc/weft/serve.conf ] \
    || fail "the unit's EnvironmentFile is '$(sed -n 's/^EnvironmentFile=//p' "$unit")', not /etc/weft/serve.conf"
grep -qE '^Restart=on-failure$' "$unit" || fail "the unit does not restart weft serve on a failure"
active="$(grep -vE '^[[:space:]]*(#|$)' "$serve_conf" || true)"
[ -z "$active" ] || fail "serve.conf sets something as shipped: $(head -1 <<<"$active")"
default="$(sed -n 's/^#WEFT_SERVE_OPTIONS="\(.*\)"$/\1/p' "$serve_conf")"
[ -n "$default" ] || fail "serve.conf has no WEFT_SERVE_OPTIONS line to uncomment"
# Its list (lines "#   --OPTION ...") is weft serve's options, all of them and no others.
help_section Options: "$weft" serve | grep -E '^--' | grep -vxE -- '--help(-all)?' | sort >"$work/serve-options"
sed -n 's/^#[[:space:]]*\(--[a-z][a-z-]*\) .*/\1/p' "$serve_conf" | sort >"$work/conf-options"
cmp -s "$work/serve-options" "$work/conf-options" \
    || fail "serve.conf's options differ from weft serve's: $(diff "$work/serve-options" "$work/conf-options" | grep '^[<>]' | tr '\n' ' ')"
for word in $default; do
    [[ "$word" != --* ]] || grep -qx -- "$word" "$work/serve-options" || fail "serve.conf's WEFT_SERVE_OPTIONS names $word, not an option of weft serve"
done
if command -v systemd-analyze >/dev/null; then
    mkdir "$work/unit"
    sed "s|^ExecStart=/usr/bin/weft |ExecStart=$root/usr/bin/weft |" "$unit" >"$work/unit/weft-serve.service"
    systemd-analyze verify --man=no "$work/unit/weft-serve.service" >"$work/verify" 2>&1 || true
    [ -s "$work/verify" ] && fail "systemd-analyze verify weft-serve.service: $(head -3 "$work/verify")"
else
    echo "check-deb: systemd-analyze is not installed: the unit's syntax is not verified"
fi

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
    "diff --partitions-from" "lab --no-gui" "gen --kary" "bench route --opensm" "serve --tls-cert" "serve --client-ca" \
    "serve token --client-cert"; do
    read -ra words <<<"$case"
    option="${words[-1]}"
    complete_words "${words[@]:0:${#words[@]}-1}" "${option:0:4}" >"$work/completed"
    grep -qx -- "$option" "$work/completed" || fail "completion of 'weft ${words[*]:0:${#words[@]}-1} ${option:0:4}' lacks $option"
done
complete_words bench "" >"$work/completed"
grep -qx scale "$work/completed" || fail "completion of 'weft bench ' lacks scale"
complete_words serve "" >"$work/completed"
grep -qx token "$work/completed" || fail "completion of 'weft serve ' lacks token"
complete_words serve token "" >"$work/completed"
[ "$(sort "$work/completed" | tr '\n' ' ')" = "add list revoke " ] || fail "completion of 'weft serve token ': $(tr '\n' ' ' <"$work/completed")"

# Installed for real with apt, used, and removed again.
if [ "$install_check" = --install ]; then
    if dpkg-query -W -f='${Status}' weft 2>/dev/null | grep -q "install ok installed"; then
        fail "weft is installed already; not touching it"
    else
        # The configuration goes with a purge, unless it was there before (an earlier weft removed).
        purge=purge
        [ -e /etc/weft/serve.conf ] && purge=remove
        trap 'DEBIAN_FRONTEND=noninteractive apt-get "$purge" -y -q weft >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
        cp "$deb" "$work/weft.deb"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$work/weft.deb" >"$work/apt" 2>&1 || fail "apt-get install: $(tail -5 "$work/apt")"
        [ "$(command -v weft)" = /usr/bin/weft ] || fail "weft is not on the PATH after installing"
        [ "$(headless weft --version)" = "weft $version" ] || fail "installed weft --version: $(headless weft --version 2>&1)"
        headless weft info "$work/fabric.topo" | grep -qx 'hosts: 16' || fail "installed weft info"
        man -w weft | grep -q '^/usr/share/man/man1/weft.1.gz$' || fail "man does not find weft(1)"
        desktop-file-validate /usr/share/applications/weft.desktop || fail "installed desktop entry"
        dpkg-query -W -f='${Conffiles}\n' weft | grep -q '^ /etc/weft/serve\.conf ' || fail "dpkg holds no conffile /etc/weft/serve.conf"
        enabled="$(find /etc/systemd/system -name weft-serve.service 2>/dev/null)"
        [ -z "$enabled" ] || fail "installing enabled weft-serve.service: $enabled"
        DEBIAN_FRONTEND=noninteractive apt-get remove -y -q weft >"$work/apt" 2>&1 || fail "apt-get remove: $(tail -5 "$work/apt")"
        [ ! -e /usr/bin/weft ] || fail "/usr/bin/weft is still there after removal"
        [ -e /etc/weft/serve.conf ] || fail "apt-get remove took /etc/weft/serve.conf, which only a purge should"
        if [ "$purge" = purge ]; then
            DEBIAN_FRONTEND=noninteractive apt-get purge -y -q weft >"$work/apt" 2>&1 || fail "apt-get purge: $(tail -5 "$work/apt")"
            [ ! -e /etc/weft/serve.conf ] || fail "/etc/weft/serve.conf is still there after a purge"
        fi
        echo "check-deb: installed with apt-get, ran weft --version and weft info, removed ($purge)"
    fi
fi

finish check-deb "$(basename "$deb"): $(wc -l <"$work/contents") entries, Depends $(field Depends | tr ',' '\n' | wc -l) packages; files, dependencies, man page, completion, desktop entry, metainfo and the service's unit check out"
