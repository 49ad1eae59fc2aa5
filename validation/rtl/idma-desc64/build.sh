#!/bin/sh
# build.sh RTL_DIR DATA_WIDTH [OUT_DIR] - verilate idma_desc64_dut at one
# data width. RTL_DIR holds idma/, common_cells/, axi/, register_interface/
# exported at the commits listed in README.md (never committed here).
set -eu
RTL=${1:?RTL_DIR}; DW=${2:?DATA_WIDTH}; OUT=${3:-obj_dw$DW}
HERE=$(cd "$(dirname "$0")" && pwd)
# TRACE=1: a --trace build (VCD=file.vcd ./harness ... writes a waveform)
EXTRA=""; [ "${TRACE:-0}" = 1 ] && EXTRA="--trace"
exec nice verilator --cc --exe --build -j 2 -O2 $EXTRA \
  -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT -Wno-UNSIGNED \
  --top-module idma_desc64_dut -GDataWidth=$DW \
  -CFLAGS "-O2 -std=c++17 -DDATA_WIDTH=$DW" \
  +incdir+$RTL/common_cells/include +incdir+$RTL/axi/include \
  +incdir+$RTL/register_interface/include +incdir+$RTL/idma/src/include \
  +incdir+$RTL/idma/target/rtl/include \
  -y $RTL/common_cells/src -y $RTL/axi/src -y $RTL/idma/src/backend \
  -y $RTL/idma/src/frontend/desc64 -y $RTL/idma/target/rtl -y $RTL/idma/src/frontend \
  -y $RTL/register_interface/vendor/lowrisc_opentitan/src \
  $RTL/common_cells/src/cf_math_pkg.sv $RTL/axi/src/axi_pkg.sv \
  $RTL/idma/src/idma_pkg.sv $RTL/idma/target/rtl/idma_desc64_reg_pkg.sv \
  "$HERE/idma_desc64_dut.sv" "$HERE/harness.cc" \
  --Mdir "$OUT" -o harness
