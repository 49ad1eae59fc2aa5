#!/bin/sh
# build.sh - Verilate ZipCPU/wb2axip rtl/axisgdma.v with harness.cpp, one
# model per AXI data width.
#
#   build.sh RTL_DIR OUT_DIR [WIDTH ...]        (default widths: 32 64 128)
#
# RTL_DIR holds axisgdma.v and what it instantiates (axidma.v, axisgfsm.v,
# axilfetch.v, sfifo.v, skidbuffer.v), e.g. exported from a wb2axip clone
# (README.md). Nothing is written into the repository: the RTL is copied to
# OUT_DIR/rtl-<variant>, and each model is
# OUT_DIR/<variant>/a<ADDR>/w<WIDTH>/Vaxisgdma.
#
# ADDR=30 (default) or 32 sets C_AXI_ADDR_WIDTH: 30 gives the table's
# three-word entries, 32 (the RTL's default) its five-word entries, whose
# jump entries do not work (README.md).
#
# PATCH=fix (default) or PATCH=none chooses the variant:
#   none: the RTL as fetched.
#   fix:  one character changed in axisgdma.v, the sub-DMA's status read
#         strobe `.S_AXIL_ARVALID(!S_AXI_ARESETN)` -> `(S_AXI_ARESETN)`;
#         without it the scatter/gather FSM never sees the DMA busy and
#         neither waits for a descriptor's transfer nor raises the
#         interrupt (README.md, "The RTL as fetched").
# TRACE=1 adds --trace (VCD with --vcd FILE).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 RTL_DIR OUT_DIR [WIDTH ...]" >&2; exit 2; }
RTL=$(cd "$1" && pwd)
OUT=$2
shift 2
WIDTHS=${*:-32 64 128}
PATCH=${PATCH:-fix}
ADDR=${ADDR:-30}
HERE=$(cd "$(dirname "$0")" && pwd)
FILES="axisgdma.v axidma.v axisgfsm.v axilfetch.v sfifo.v skidbuffer.v"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SRC=$OUT/rtl-$PATCH
mkdir -p "$SRC"
for f in $FILES; do cp "$RTL/$f" "$SRC/$f"; done
case $PATCH in
none) ;;
fix)
    grep -q '\.S_AXIL_ARVALID(!S_AXI_ARESETN)' "$SRC/axisgdma.v" || {
        echo "build.sh: the line PATCH=fix changes is not in $RTL/axisgdma.v" >&2; exit 1; }
    sed -i 's/\.S_AXIL_ARVALID(!S_AXI_ARESETN)/.S_AXIL_ARVALID(S_AXI_ARESETN)/' "$SRC/axisgdma.v"
    ;;
*) echo "build.sh: PATCH must be fix or none" >&2; exit 2 ;;
esac
TRACEFLAG=
[ "${TRACE:-0}" = 1 ] && TRACEFLAG=--trace
for w in $WIDTHS; do
    d=$OUT/$PATCH/a$ADDR/w$w
    mkdir -p "$d"
    nice verilator --cc --exe --build -j 1 -O3 -Wno-fatal -Wno-lint -Wno-style \
        $TRACEFLAG --top-module axisgdma -GC_AXI_DATA_WIDTH=$w -GC_AXI_ADDR_WIDTH=$ADDR \
        -CFLAGS "-O2 -DDW=$w -DAW=$ADDR" -Mdir "$d/obj" -o ../Vaxisgdma \
        -y "$SRC" "$SRC/axisgdma.v" "$HERE/harness.cpp" >"$d/build.log" 2>&1 || {
        tail -30 "$d/build.log" >&2; exit 1; }
    echo "built $d/Vaxisgdma"
done
