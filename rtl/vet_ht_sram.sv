// One way of the table: a simple dual-port (1 read + 1 write) synchronous RAM of 2^DEPTH_BITS
// words, the shape of an on-chip SRAM macro or of inferred block RAM. The read is registered:
// data for the address presented in cycle t appear in cycle t+1. A read and a write of the same
// address in the same cycle return the old word (read-first); the engine forwards the new one.
// Contents are not reset (the engine's valid bits say which words mean something).
module vet_ht_sram #(
    parameter int DEPTH_BITS = 10,
    parameter int WIDTH      = 160
) (
    input  logic                  clk,
    input  logic                  re,
    input  logic [DEPTH_BITS-1:0] raddr,
    output logic [     WIDTH-1:0] rdata,
    input  logic                  we,
    input  logic [DEPTH_BITS-1:0] waddr,
    input  logic [     WIDTH-1:0] wdata
);
  logic [WIDTH-1:0] mem[1 << DEPTH_BITS];

  always_ff @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
    if (re) rdata <= mem[raddr];
  end
endmodule
