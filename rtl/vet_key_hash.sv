// The bucket of a VET key: the one hash of ftl/vet/vet_hash.h. hash = bits [63:32] of the 64-bit
// product key * 0x9e3779b97f4a7c15 (multiply-shift); a table of 2^BUCKET_BITS buckets takes the
// top BUCKET_BITS bits of that 32-bit hash, i.e. product bits [63 -: BUCKET_BITS].
// Combinational. The multiplier is a constant, so synthesis builds a shift-and-add tree of the
// low 64 bits only; a faster clock would split it over two stages (not done here).
module vet_key_hash #(
    parameter int BUCKET_BITS = 10
) (
    input  logic [          63:0] key,
    output logic [BUCKET_BITS-1:0] bucket
);
  localparam logic [63:0] MULTIPLIER = 64'h9e37_79b9_7f4a_7c15;

  logic [63:0] product;
  assign product = key * MULTIPLIER;  // 64-bit context: the product modulo 2^64
  assign bucket  = product[63-:BUCKET_BITS];

  // The low product bits do not reach the bucket.
  logic unused_low;
  assign unused_low = ^product[63-BUCKET_BITS:0];
endmodule
