#!/bin/sh
# run_installed.sh BUILD_DIR WORK_DIR - installs BUILD_DIR to WORK_DIR/prefix,
# then builds, runs and tests every example against that prefix alone, as a
# user of the installed package would (ctest: examples_from_install).
set -eu
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
# Installed libraries are plain objects: a user's link never re-optimises
# them (a Release build compiles fat LTO objects; the install strips them).
if find "$prefix" -name '*.a' -o -name '*.o' | xargs objdump -h | grep -q '\.gnu\.lto_'; then
    echo "installed libraries carry LTO sections"
    exit 1
fi

# sglist-c: plain C with pkg-config.
pcdir=$(dirname "$(find "$prefix" -name sglist.pc)")
cp "$here/sglist-c/chain_and_map.c" "$here/sglist-c/Makefile" "$work/"
PKG_CONFIG_PATH=$pcdir make -s -C "$work" chain_and_map \
    CFLAGS="-O2 -Wall -Wextra -Werror -std=c11 ${EXAMPLE_SANITIZE:-}" \
    LDFLAGS="${EXAMPLE_SANITIZE:-}"
"$work/chain_and_map"

# embed-systemc: find_package(dmasim) from the prefix only.
cmake -S "$here/embed-systemc" -B "$work/embed" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="${EXAMPLE_SANITIZE:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${EXAMPLE_SANITIZE:-}" >/dev/null
cmake --build "$work/embed" >/dev/null
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/embed/embed_systemc"
# Against a memory that answers at once, interrupts of the two channels
# rise while the handler runs: a CPU that waited for edges would fail here.
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/embed/embed_systemc" 0 0

# embed-stream-device: the controller with a StreamDevice of the user's own.
cmake -S "$here/embed-stream-device" -B "$work/stream" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="${EXAMPLE_SANITIZE:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${EXAMPLE_SANITIZE:-}" >/dev/null
cmake --build "$work/stream" >/dev/null
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/stream/embed_stream_device"

# out-of-tree-scenario: a user's dmasim with a scenario of its own, built
# from a copy (the edit below touches it).
cp -r "$here/out-of-tree-scenario" "$work/scenario-src"
cmake -S "$work/scenario-src" -B "$work/scenario" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="${EXAMPLE_SANITIZE:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${EXAMPLE_SANITIZE:-}" >/dev/null
cmake --build "$work/scenario" >/dev/null
"$work/scenario/my_dmasim" run --quiet --set workload.scenario=ping_pong \
    --set scenario.ping_pong.rounds=3
"$work/scenario/my_dmasim" run --quiet   # the installed default config
# The test program runs directly, every case in a process of its own ...
"$work/scenario/my_dmasim_tests"
# ... and under ctest, one test per case.
ctest --test-dir "$work/scenario" --output-on-failure >/dev/null
# An edit to the scenario recompiles that one file, then relinks.
touch "$work/scenario-src/ping_pong.cc"
compiled=$(cmake --build "$work/scenario" | grep -c 'Building CXX object')
[ "$compiled" -eq 1 ] || { echo "an edit to ping_pong.cc recompiled $compiled files"; exit 1; }
