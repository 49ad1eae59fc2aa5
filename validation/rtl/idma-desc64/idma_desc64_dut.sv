// idma_desc64_dut.sv - dmasim validation wrapper (our code, not iDMA's).
//
// iDMA's desc64 front end (idma_desc64_top) and its AXI read / AXI write
// backend (generated idma_backend_rw_axi), joined the way iDMA's own bench
// test/frontend/tb_idma_desc64_bench.sv joins them: the backend's read and
// write ports merged by axi_rw_join, then the front end (descriptor reads,
// completion write-backs) and the backend (data) muxed by axi_mux onto one
// AXI4 master port. That port and the register bus are flattened here so a
// C++ Verilator harness can drive them. Instance parameters are those of
// tb_idma_desc64_bench.sv unless overridden with -G.

`include "axi/typedef.svh"
`include "register_interface/typedef.svh"
`include "idma/typedef.svh"

module idma_desc64_dut #(
  parameter int unsigned DataWidth        = 64,
  parameter int unsigned AddrWidth        = 64,
  parameter int unsigned InputFifoDepth   = 8,
  parameter int unsigned PendingFifoDepth = 8,
  parameter int unsigned NSpeculation     = 4,
  parameter int unsigned BufferDepth      = 3,
  parameter int unsigned NumAxInFlight    = (NSpeculation > 3) ? NSpeculation : 3,
  parameter int unsigned MaxAxInFlight    = 64,
  localparam int unsigned StrbWidth       = DataWidth / 8,
  localparam int unsigned AxiIdWidth      = 3,
  localparam int unsigned MemIdWidth      = AxiIdWidth + 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // register bus (REG_BUS, 64-bit data)
  input  logic [AddrWidth-1:0]  reg_addr_i,
  input  logic                  reg_write_i,
  input  logic [63:0]           reg_wdata_i,
  input  logic [7:0]            reg_wstrb_i,
  input  logic                  reg_valid_i,
  output logic [63:0]           reg_rdata_o,
  output logic                  reg_error_o,
  output logic                  reg_ready_o,
  // AXI4 master towards the memory (after the mux)
  output logic [MemIdWidth-1:0] aw_id_o,
  output logic [AddrWidth-1:0]  aw_addr_o,
  output logic [7:0]            aw_len_o,
  output logic [2:0]            aw_size_o,
  output logic [1:0]            aw_burst_o,
  output logic                  aw_valid_o,
  input  logic                  aw_ready_i,
  output logic [DataWidth-1:0]  w_data_o,
  output logic [StrbWidth-1:0]  w_strb_o,
  output logic                  w_last_o,
  output logic                  w_valid_o,
  input  logic                  w_ready_i,
  input  logic [MemIdWidth-1:0] b_id_i,
  input  logic [1:0]            b_resp_i,
  input  logic                  b_valid_i,
  output logic                  b_ready_o,
  output logic [MemIdWidth-1:0] ar_id_o,
  output logic [AddrWidth-1:0]  ar_addr_o,
  output logic [7:0]            ar_len_o,
  output logic [2:0]            ar_size_o,
  output logic [1:0]            ar_burst_o,
  output logic                  ar_valid_o,
  input  logic                  ar_ready_i,
  input  logic [MemIdWidth-1:0] r_id_i,
  input  logic [DataWidth-1:0]  r_data_i,
  input  logic [1:0]            r_resp_i,
  input  logic                  r_last_i,
  input  logic                  r_valid_i,
  output logic                  r_ready_o,
  // events
  output logic                  irq_o,
  output logic                  be_busy_o
);

  typedef logic [AddrWidth-1:0]  addr_t;
  typedef logic [DataWidth-1:0]  data_t;
  typedef logic [StrbWidth-1:0]  strb_t;
  typedef logic [AxiIdWidth-1:0] id_t;
  typedef logic [MemIdWidth-1:0] mem_id_t;
  typedef logic [0:0]            user_t;
  typedef logic [31:0]           tf_len_t;

  `REG_BUS_TYPEDEF_ALL(reg, addr_t, logic [63:0], logic [7:0])
  `AXI_TYPEDEF_ALL(axi, addr_t, id_t, data_t, strb_t, user_t)
  `AXI_TYPEDEF_ALL(mem_axi, addr_t, mem_id_t, data_t, strb_t, user_t)
  `IDMA_TYPEDEF_FULL_REQ_T(idma_req_t, id_t, addr_t, tf_len_t)
  `IDMA_TYPEDEF_FULL_RSP_T(idma_rsp_t, addr_t)

  typedef struct packed { axi_ar_chan_t ar_chan; } axi_read_meta_channel_t;
  typedef struct packed { axi_read_meta_channel_t axi; } read_meta_channel_t;
  typedef struct packed { axi_aw_chan_t aw_chan; } axi_write_meta_channel_t;
  typedef struct packed { axi_write_meta_channel_t axi; } write_meta_channel_t;

  reg_req_t reg_req;
  reg_rsp_t reg_rsp;
  assign reg_req.addr  = reg_addr_i;
  assign reg_req.write = reg_write_i;
  assign reg_req.wdata = reg_wdata_i;
  assign reg_req.wstrb = reg_wstrb_i;
  assign reg_req.valid = reg_valid_i;
  assign reg_rdata_o   = reg_rsp.rdata;
  assign reg_error_o   = reg_rsp.error;
  assign reg_ready_o   = reg_rsp.ready;

  idma_req_t           be_req;
  idma_rsp_t           be_rsp;
  logic                be_req_valid, be_req_ready, be_rsp_valid, be_rsp_ready;
  idma_pkg::idma_busy_t busy;
  axi_req_t            fe_axi_req, be_read_req, be_write_req, be_axi_req;
  axi_resp_t           fe_axi_rsp, be_read_rsp, be_write_rsp, be_axi_rsp;
  mem_axi_req_t        mem_req;
  mem_axi_resp_t       mem_rsp;

  idma_desc64_top #(
    .AddrWidth       (AddrWidth),
    .DataWidth       (DataWidth),
    .AxiIdWidth      (AxiIdWidth),
    .idma_req_t      (idma_req_t),
    .idma_rsp_t      (idma_rsp_t),
    .axi_rsp_t       (axi_resp_t),
    .axi_req_t       (axi_req_t),
    .axi_ar_chan_t   (axi_ar_chan_t),
    .axi_r_chan_t    (axi_r_chan_t),
    .reg_rsp_t       (reg_rsp_t),
    .reg_req_t       (reg_req_t),
    .InputFifoDepth  (InputFifoDepth),
    .PendingFifoDepth(PendingFifoDepth),
    .BackendDepth    (NumAxInFlight + BufferDepth),
    .NSpeculation    (NSpeculation)
  ) i_desc64 (
    .clk_i,
    .rst_ni,
    .master_req_o    (fe_axi_req),
    .master_rsp_i    (fe_axi_rsp),
    .axi_ar_id_i     (3'b111),
    .axi_aw_id_i     (3'b111),
    .slave_req_i     (reg_req),
    .slave_rsp_o     (reg_rsp),
    .idma_req_o      (be_req),
    .idma_req_valid_o(be_req_valid),
    .idma_req_ready_i(be_req_ready),
    .idma_rsp_i      ('0),
    .idma_rsp_valid_i(be_rsp_valid),
    .idma_rsp_ready_o(be_rsp_ready),
    .idma_busy_i     (|busy),
    .irq_o
  );

  idma_backend_rw_axi #(
    .DataWidth           (DataWidth),
    .AddrWidth           (AddrWidth),
    .AxiIdWidth          (AxiIdWidth),
    .UserWidth           (1),
    .TFLenWidth          (32),
    .MaskInvalidData     (1'b1),
    .BufferDepth         (BufferDepth),
    .RAWCouplingAvail    (1'b1),
    .HardwareLegalizer   (1'b1),
    .RejectZeroTransfers (1'b1),
    .ErrorCap            (idma_pkg::NO_ERROR_HANDLING),
    .CombinedShifter     (1'b0),
    .PrintFifoInfo       (1'b0),
    .NumAxInFlight       (NumAxInFlight),
    .MemSysDepth         (32'd0),
    .idma_req_t          (idma_req_t),
    .idma_rsp_t          (idma_rsp_t),
    .idma_eh_req_t       (idma_pkg::idma_eh_req_t),
    .idma_busy_t         (idma_pkg::idma_busy_t),
    .axi_req_t           (axi_req_t),
    .axi_rsp_t           (axi_resp_t),
    .write_meta_channel_t(write_meta_channel_t),
    .read_meta_channel_t (read_meta_channel_t)
  ) i_backend (
    .clk_i,
    .rst_ni,
    .testmode_i     (1'b0),
    .idma_req_i     (be_req),
    .req_valid_i    (be_req_valid),
    .req_ready_o    (be_req_ready),
    .idma_rsp_o     (be_rsp),
    .rsp_valid_o    (be_rsp_valid),
    .rsp_ready_i    (be_rsp_ready),
    .idma_eh_req_i  ('0),
    .eh_req_valid_i (1'b1),
    .eh_req_ready_o (),
    .axi_read_req_o (be_read_req),
    .axi_read_rsp_i (be_read_rsp),
    .axi_write_req_o(be_write_req),
    .axi_write_rsp_i(be_write_rsp),
    .busy_o         (busy)
  );
  assign be_busy_o = |busy;

  axi_rw_join #(
    .axi_req_t (axi_req_t),
    .axi_resp_t(axi_resp_t)
  ) i_rw_join (
    .clk_i,
    .rst_ni,
    .slv_read_req_i  (be_read_req),
    .slv_read_resp_o (be_read_rsp),
    .slv_write_req_i (be_write_req),
    .slv_write_resp_o(be_write_rsp),
    .mst_req_o       (be_axi_req),
    .mst_resp_i      (be_axi_rsp)
  );

  axi_mux #(
    .SlvAxiIDWidth(AxiIdWidth),
    .slv_aw_chan_t(axi_aw_chan_t),
    .mst_aw_chan_t(mem_axi_aw_chan_t),
    .w_chan_t     (axi_w_chan_t),
    .slv_b_chan_t (axi_b_chan_t),
    .mst_b_chan_t (mem_axi_b_chan_t),
    .slv_ar_chan_t(axi_ar_chan_t),
    .mst_ar_chan_t(mem_axi_ar_chan_t),
    .slv_r_chan_t (axi_r_chan_t),
    .mst_r_chan_t (mem_axi_r_chan_t),
    .slv_req_t    (axi_req_t),
    .slv_resp_t   (axi_resp_t),
    .mst_req_t    (mem_axi_req_t),
    .mst_resp_t   (mem_axi_resp_t),
    .NoSlvPorts   (2),
    .MaxWTrans    (MaxAxInFlight),
    .FallThrough  (1'b0),
    .SpillAw      (1'b0),
    .SpillW       (1'b0),
    .SpillB       (1'b0),
    .SpillAr      (1'b0),
    .SpillR       (1'b0)
  ) i_mux (
    .clk_i,
    .rst_ni,
    .test_i     (1'b0),
    .slv_reqs_i ({be_axi_req, fe_axi_req}),
    .slv_resps_o({be_axi_rsp, fe_axi_rsp}),
    .mst_req_o  (mem_req),
    .mst_resp_i (mem_rsp)
  );

  assign aw_id_o    = mem_req.aw.id;
  assign aw_addr_o  = mem_req.aw.addr;
  assign aw_len_o   = mem_req.aw.len;
  assign aw_size_o  = mem_req.aw.size;
  assign aw_burst_o = mem_req.aw.burst;
  assign aw_valid_o = mem_req.aw_valid;
  assign w_data_o   = mem_req.w.data;
  assign w_strb_o   = mem_req.w.strb;
  assign w_last_o   = mem_req.w.last;
  assign w_valid_o  = mem_req.w_valid;
  assign b_ready_o  = mem_req.b_ready;
  assign ar_id_o    = mem_req.ar.id;
  assign ar_addr_o  = mem_req.ar.addr;
  assign ar_len_o   = mem_req.ar.len;
  assign ar_size_o  = mem_req.ar.size;
  assign ar_burst_o = mem_req.ar.burst;
  assign ar_valid_o = mem_req.ar_valid;
  assign r_ready_o  = mem_req.r_ready;

  always_comb begin
    mem_rsp          = '0;
    mem_rsp.aw_ready = aw_ready_i;
    mem_rsp.w_ready  = w_ready_i;
    mem_rsp.b.id     = b_id_i;
    mem_rsp.b.resp   = b_resp_i;
    mem_rsp.b_valid  = b_valid_i;
    mem_rsp.ar_ready = ar_ready_i;
    mem_rsp.r.id     = r_id_i;
    mem_rsp.r.data   = r_data_i;
    mem_rsp.r.resp   = r_resp_i;
    mem_rsp.r.last   = r_last_i;
    mem_rsp.r_valid  = r_valid_i;
  end

endmodule
