#!/bin/sh
# Takes screenshots of the Weft main window on a virtual X display, for the manual and for
# looking at the GUI on a machine without a screen. Builds nothing.
#
# Usage: scripts/screenshots.sh WEFT_BINARY [OUTPUT_DIR] [TOPOLOGY_FILE...]
#   Every picture at 1366x768, a laptop's screen. Always shoots the desk with every dock open (desk-1366x768.png), the demo fabric
#   (demo.png, and demo-nb.png in Norwegian Bokmål), the pictures of docs/screenshots.md
#   (demo-partitions.png: coloured by partition; demo-load.png: by load under a
#   previewed ftree routing; demo-preview.png: the routing preview and diff review;
#   demo-preview-pftree.png: the same for pftree; vm-migration.png: a generated hypervisor
#   fabric with a VM migration planned; studio.png and whatif.png: a link failure planned in the
#   Reconfiguration Studio, the dock and the map; health.png: the Health dock; director-*.png and
#   sharp-fat-tree-map.png: generated SHArP fabrics, a director's and discrete switches', written by
#   the weft_director_topology test tool built beside WEFT_BINARY), docs/tutorial.md's pictures (tutorial-*.png:
#   each a fresh `weft lab --gui`, so ibsim and OpenSM must be installed, with the tutorial's
#   steps done up to one), then one picture per topology file given (named after the file).
#   Needs xvfb-run.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 WEFT_BINARY [OUTPUT_DIR] [TOPOLOGY_FILE...]" >&2
    exit 2
fi
weft=$1
out=${2:-screenshots}
[ $# -ge 2 ] && shift 2 || shift 1

if [ ! -x "$weft" ]; then
    echo "$0: $weft is not an executable" >&2
    exit 2
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "$0: xvfb-run is not installed (Debian: apt-get install xvfb xauth)" >&2
    exit 2
fi
mkdir -p "$out"

# A private settings directory: saved window geometry or a language setting of the person
# running this must not change the pictures, and the pictures must not change their settings.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT INT TERM

shoot() {
    target=$1
    shift
    XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1366x768x24" \
        "$weft" --screenshot "$target" "$@"
    echo "$target"
}

# The desk on a small screen: every dock open at 1366x768.
XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1366x768x24" "$weft" --screenshot "$out/desk-1366x768.png" --lang en \
    --screenshot-view small-screen
echo "$out/desk-1366x768.png"
shoot "$out/demo.png" --lang en
shoot "$out/demo-nb.png" --lang nb
shoot "$out/demo-partitions.png" --lang en --screenshot-view partitions
shoot "$out/demo-load.png" --lang en --screenshot-view load
shoot "$out/demo-preview.png" --lang en --screenshot-view preview
shoot "$out/demo-preview-pftree.png" --lang en --screenshot-view preview-pftree
shoot "$out/vm-migration.png" --lang en --screenshot-view vms
shoot "$out/studio.png" --lang en --screenshot-view studio
shoot "$out/whatif.png" --lang en --screenshot-view whatif
shoot "$out/lft-inspector.png" --lang en --screenshot-view lft
# The Autopilot dock after a hot-spot rule fired in approve mode on synthetic ticks.
shoot "$out/autopilot.png" --lang en --screenshot-view autopilot
# Measured load and the Telemetry dock's last hour of the busiest cable, from a history.
shoot "$out/telemetry.png" --lang en --screenshot-view telemetry
# The Health dock: the demo checked against a cabling list with cables moved, pulled and narrowed.
shoot "$out/health.png" --lang en --screenshot-view health
# Real shapes on generated fabrics (tests/fixtures/DirectorFabric.h): the 174-switch director
# fabric (18 spines and 18 two-ASIC line cards in one chassis, 120 leaves, 1,470 hosts, an
# Aggregation Node on every switch), the map alone and the desk as it opens; a small director up
# close; a SHArP fat-tree of 180 discrete switches.
generator=$(dirname "$weft")/tests/weft_director_topology
if [ -x "$generator" ]; then
    mkdir -p "$config/fabrics"
    for kind in director small-director sharp; do
        "$generator" "$kind" "$config/fabrics/$kind.topo"
    done
    shoot "$out/director-sharp-map.png" --lang en --screenshot-view map "$config/fabrics/director.topo"
    shoot "$out/director-sharp.png" --lang en "$config/fabrics/director.topo"
    shoot "$out/director-small-map.png" --lang en --screenshot-view map "$config/fabrics/small-director.topo"
    shoot "$out/sharp-fat-tree-map.png" --lang en --screenshot-view map "$config/fabrics/sharp.topo"
else
    echo "$0: $generator is not built (target weft_director_topology): no director or SHArP pictures" >&2
fi
# The docks that have no picture of their own, each in front over a previewed pftree routing.
for dock in summaryDock historyDock policyDock weightDock fabricChangesDock pathTraceDock openSmPanel routingKeysDock; do
    shoot "$out/dock-$dock.png" --lang en --screenshot-view "dock:$dock"
done
# The tutorial's steps, each in a lab of its own (its GUI takes the arguments after --).
shoot_lab() {
    target=$1
    view=$2
    XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1366x768x24" \
        "$weft" lab --gui -- --lang en --screenshot "$target" --screenshot-view "$view" >/dev/null
    echo "$target"
}
for step in discovered tenants preview-ftree preview-pftree diff approve journal; do
    shoot_lab "$out/tutorial-$step.png" "tutorial-$step"
done
for topology in "$@"; do
    name=$(basename "$topology")
    shoot "$out/${name%.*}.png" --lang en "$topology"
done
