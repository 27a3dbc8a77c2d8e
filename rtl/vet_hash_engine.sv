// The VET node-table engine: a set-associative hash table (2^BUCKET_BITS buckets x WAYS ways) of
// VET keys (key = prefix << 6 | level, ftl/vet/canonical_extent.h) and 96-bit node values
// ({w2, w1, w0}; w1 == 0 is an internal node), with the commands of the software node table
// (ftl/vet/node_table.h) plus a multi-level lookup that runs VET's binary search on levels
// (paper sec. 3.2) for one logical address in one command. Interface, timing, hazards and limits:
// rtl/README.md. The C++ model rtl/model/vet_hash_model.h has exactly this behaviour.
//
// Pipeline: S0 accept -> S1 hash, read all ways of the bucket -> S2 compare, decide, write ->
// response register. Every single-key command takes 3 cycles and one is accepted per cycle;
// a write in S2 is forwarded to the command right behind it, so back-to-back commands on one key
// see each other in order. A multi-level lookup recirculates S1-S2 once per probe and holds
// cmd_ready low until it ends (latency 2 x probes + 1).
module vet_hash_engine #(
    parameter int BUCKET_BITS = 10,  // 2^BUCKET_BITS buckets (1..13)
    parameter int WAYS = 4,  // entries per bucket (1..16)
    localparam int WayW = (WAYS > 1) ? $clog2(WAYS) : 1
) (
    input logic clk,
    input logic rst,  // synchronous, active high: empties the table and the pipeline

    // Command: taken on a rising edge where cmd_valid && cmd_ready.
    input  logic        cmd_valid,
    output logic        cmd_ready,
    input  logic [ 2:0] cmd_op,     // OP_* below
    input  logic [63:0] cmd_key,    // the key; MLOOKUP: the logical address
    input  logic [95:0] cmd_value,  // INSERT, UPDATE: {w2, w1, w0}
    input  logic [ 5:0] cmd_bits,   // MLOOKUP: B, the address bits of the universe (<= 58)

    // Response: one per command, in command order, valid for one cycle (no back-pressure).
    output logic            rsp_valid,
    output logic [     2:0] rsp_status,  // ST_* below
    output logic [    63:0] rsp_key,     // the command's key; MLOOKUP: the node returned
    output logic [    95:0] rsp_value,
    output logic [WayW-1:0] rsp_way,
    output logic [     2:0] rsp_probes   // table probes made (MLOOKUP: 1..7)
);
  localparam int Buckets = 1 << BUCKET_BITS;
  localparam int KeyW = 64;
  localparam int ValueW = 96;
  localparam int EntryW = KeyW + ValueW;

  localparam logic [2:0] OP_FIND = 3'd0;  // value of key
  localparam logic [2:0] OP_INSERT = 3'd1;  // store key (update it when present)
  localparam logic [2:0] OP_UPDATE = 3'd2;  // replace the value of a present key
  localparam logic [2:0] OP_DELETE = 3'd3;  // remove key
  localparam logic [2:0] OP_CLEAR = 3'd4;  // remove every key
  localparam logic [2:0] OP_MLOOKUP = 3'd5;  // VET binary search for the node holding an address

  localparam logic [2:0] ST_MISS = 3'd0;  // key absent (MLOOKUP: no node on the search path)
  localparam logic [2:0] ST_HIT = 3'd1;  // key present (MLOOKUP: a leaf holds the address)
  localparam logic [2:0] ST_DONE = 3'd2;  // INSERT stored a new entry; CLEAR done
  localparam logic [2:0] ST_OVERFLOW = 3'd3;  // INSERT: bucket full, nothing stored
  localparam logic [2:0] ST_INTERNAL = 3'd4;  // MLOOKUP: no leaf; deepest internal node returned
  localparam logic [2:0] ST_BADCMD = 3'd5;  // unknown op code, nothing done

  if (BUCKET_BITS < 1 || BUCKET_BITS > 13) begin : g_check_buckets
    $error("vet_hash_engine: BUCKET_BITS must be 1..13");
  end
  if (WAYS < 1 || WAYS > 16) begin : g_check_ways
    $error("vet_hash_engine: WAYS must be 1..16");
  end

  // The key VET's binary search probes at depth d for address a: level = B - d,
  // key = ((a >> level) << 6) | level.
  function automatic logic [63:0] probe_key(input logic [63:0] addr, input logic [5:0] level);
    probe_key = ((addr >> level) << 6) | {58'd0, level};
  endfunction

  // ---------------------------------------------------------------- state
  // Valid bit of every slot, in flip-flops so that CLEAR empties the table in one cycle.
  logic [Buckets-1:0] valid_q[WAYS];

  logic s1_valid, s2_valid;
  logic [2:0] s1_op, s2_op;
  logic [KeyW-1:0] s1_key, s2_key;
  logic [ValueW-1:0] s1_value, s2_value;
  logic [BUCKET_BITS-1:0] s1_bucket, s2_bucket;

  // The write of the previous cycle, forwarded to the command that read the RAM in that cycle.
  logic fwd_valid;
  logic [BUCKET_BITS-1:0] fwd_bucket;
  logic [WayW-1:0] fwd_way;
  logic [KeyW-1:0] fwd_key;
  logic [ValueW-1:0] fwd_value;

  // Multi-level lookup: one in flight at a time. The probe in S1/S2 is at depth ml_mid; the
  // search interval is lo..hi with ml_hi1 = hi + 1 (so that "hi = -1" fits unsigned).
  logic ml_busy;
  logic [63:0] ml_addr;
  logic [5:0] ml_bits;
  logic [6:0] ml_lo, ml_hi1;
  logic [5:0] ml_mid;
  logic [2:0] ml_probes;
  logic ml_have_int;  // an internal node was seen; ml_int_* is the deepest one
  logic [KeyW-1:0] ml_int_key;
  logic [31:0] ml_int_w0, ml_int_w2;  // its value; w1 is 0 in every internal node
  logic [WayW-1:0] ml_int_way;

  // ---------------------------------------------------------------- S0: accept
  logic accept;
  logic [4:0] first_mid;
  logic [63:0] first_key;
  assign cmd_ready = !rst && !ml_busy;
  assign accept = cmd_valid && cmd_ready;
  assign first_mid = cmd_bits[5:1];  // (0 + B) / 2
  assign first_key = probe_key(cmd_key, cmd_bits - {1'b0, first_mid});

  // ---------------------------------------------------------------- S1: hash, read the bucket
  logic s1_reads;
  vet_key_hash #(.BUCKET_BITS(BUCKET_BITS)) u_hash (
      .key   (s1_key),
      .bucket(s1_bucket)
  );
  assign s1_reads = s1_valid && (s1_op <= OP_DELETE || s1_op == OP_MLOOKUP);

  // ---------------------------------------------------------------- S2: compare, decide, write
  logic wr_en;  // write {s2_key, s2_value} to way wr_way of bucket s2_bucket
  logic [WayW-1:0] wr_way;
  logic set_valid, clr_valid, clear_all;
  logic [EntryW-1:0] rdata[WAYS];

  for (genvar w = 0; w < WAYS; w++) begin : g_way
    vet_ht_sram #(
        .DEPTH_BITS(BUCKET_BITS),
        .WIDTH(EntryW)
    ) u_ram (
        .clk  (clk),
        .re   (s1_reads),
        .raddr(s1_bucket),
        .rdata(rdata[w]),
        .we   (wr_en && wr_way == WayW'(w)),
        .waddr(s2_bucket),
        .wdata({s2_key, s2_value})
    );
  end

  logic [WAYS-1:0] row_valid, match;
  logic [KeyW-1:0] way_key[WAYS];
  logic [ValueW-1:0] way_value[WAYS];
  logic hit, full;
  logic [WayW-1:0] hit_way, free_way;
  logic [ValueW-1:0] hit_value;

  always_comb begin
    for (int w = 0; w < WAYS; w++) begin
      row_valid[w] = valid_q[w][s2_bucket];
      if (fwd_valid && fwd_bucket == s2_bucket && fwd_way == WayW'(w)) begin
        way_key[w]   = fwd_key;
        way_value[w] = fwd_value;
      end else begin
        way_key[w]   = rdata[w][EntryW-1-:KeyW];
        way_value[w] = rdata[w][ValueW-1:0];
      end
      match[w] = row_valid[w] && way_key[w] == s2_key;
    end
    hit = |match;
    full = &row_valid;
    // Lowest matching way (a key is never in two ways) and lowest free way.
    hit_way = '0;
    free_way = '0;
    for (int w = WAYS - 1; w >= 0; w--) begin
      if (match[w]) hit_way = WayW'(w);
      if (!row_valid[w]) free_way = WayW'(w);
    end
    hit_value = way_value[hit_way];
  end

  // Multi-level lookup: the two ways the search can go from the probe in S2, computed from
  // registers only, so that the compare result just selects one.
  logic is_leaf;
  logic [6:0] deeper_lo, deeper_sum, shallower_sum;
  logic [5:0] deeper_mid, shallower_mid;
  logic deeper_more, shallower_more;
  logic [63:0] deeper_key, shallower_key;
  logic s2_ml, ml_again, ml_done;

  assign is_leaf = hit && hit_value[63:32] != 32'd0;
  assign deeper_lo = {1'b0, ml_mid} + 7'd1;  // present, internal: lo = mid + 1
  assign deeper_sum = {1'b0, ml_mid} + ml_hi1;  // (lo + hi) with lo = mid + 1, hi = hi1 - 1
  assign deeper_mid = deeper_sum[6:1];
  assign deeper_more = deeper_lo < ml_hi1;
  assign shallower_sum = ml_lo + {1'b0, ml_mid} - 7'd1;  // absent: hi = mid - 1
  assign shallower_mid = shallower_sum[6:1];
  assign shallower_more = ml_lo < {1'b0, ml_mid};
  assign deeper_key = probe_key(ml_addr, ml_bits - deeper_mid);
  assign shallower_key = probe_key(ml_addr, ml_bits - shallower_mid);
  logic unused_sum_lsb;  // the halving drops bit 0 of both sums
  assign unused_sum_lsb = deeper_sum[0] ^ shallower_sum[0];

  assign s2_ml = s2_valid && s2_op == OP_MLOOKUP;
  assign ml_again = s2_ml && !is_leaf && (hit ? deeper_more : shallower_more);
  assign ml_done = s2_ml && !ml_again;

  // What S2 does and answers.
  logic [2:0] st_d;
  logic [KeyW-1:0] key_d;
  logic [ValueW-1:0] value_d;
  logic [WayW-1:0] way_d;
  logic [2:0] probes_d;

  always_comb begin
    wr_en = 1'b0;
    wr_way = hit_way;
    set_valid = 1'b0;
    clr_valid = 1'b0;
    clear_all = 1'b0;
    st_d = ST_MISS;
    key_d = s2_key;
    value_d = '0;
    way_d = '0;
    probes_d = 3'd1;
    case (s2_op)
      OP_FIND: begin
        if (hit) begin
          st_d = ST_HIT;
          value_d = hit_value;
          way_d = hit_way;
        end
      end
      OP_INSERT: begin
        if (hit) begin
          wr_en = 1'b1;
          st_d = ST_HIT;
          value_d = s2_value;
          way_d = hit_way;
        end else if (!full) begin
          wr_en = 1'b1;
          wr_way = free_way;
          set_valid = 1'b1;
          st_d = ST_DONE;
          value_d = s2_value;
          way_d = free_way;
        end else begin
          st_d = ST_OVERFLOW;
        end
      end
      OP_UPDATE: begin
        if (hit) begin
          wr_en = 1'b1;
          st_d = ST_HIT;
          value_d = s2_value;
          way_d = hit_way;
        end
      end
      OP_DELETE: begin
        if (hit) begin
          clr_valid = 1'b1;
          st_d = ST_HIT;
          value_d = hit_value;
          way_d = hit_way;
        end
      end
      OP_CLEAR: begin
        clear_all = 1'b1;
        st_d = ST_DONE;
        probes_d = 3'd0;
      end
      OP_MLOOKUP: begin
        probes_d = ml_probes;
        if (hit) begin  // a leaf, or the deepest internal node so far
          st_d = is_leaf ? ST_HIT : ST_INTERNAL;
          value_d = hit_value;
          way_d = hit_way;
        end else if (ml_have_int) begin
          st_d = ST_INTERNAL;
          key_d = ml_int_key;
          value_d = {ml_int_w2, 32'd0, ml_int_w0};
          way_d = ml_int_way;
        end else begin
          key_d = '0;
        end
      end
      default: begin
        st_d = ST_BADCMD;
        probes_d = 3'd0;
      end
    endcase
    if (!s2_valid) begin
      wr_en = 1'b0;
      set_valid = 1'b0;
      clr_valid = 1'b0;
      clear_all = 1'b0;
    end
  end

  // ---------------------------------------------------------------- registers
  // Control (reset).
  always_ff @(posedge clk) begin
    if (rst) begin
      s1_valid  <= 1'b0;
      s2_valid  <= 1'b0;
      rsp_valid <= 1'b0;
      fwd_valid <= 1'b0;
      ml_busy   <= 1'b0;
      for (int w = 0; w < WAYS; w++) valid_q[w] <= '0;
    end else begin
      s1_valid  <= accept || ml_again;
      s2_valid  <= s1_valid;
      rsp_valid <= s2_valid && !ml_again;
      fwd_valid <= wr_en;
      if (accept && cmd_op == OP_MLOOKUP) ml_busy <= 1'b1;
      else if (ml_done) ml_busy <= 1'b0;
      if (clear_all) for (int w = 0; w < WAYS; w++) valid_q[w] <= '0;
      else if (set_valid) valid_q[free_way][s2_bucket] <= 1'b1;
      else if (clr_valid) valid_q[hit_way][s2_bucket] <= 1'b0;
    end
  end

  // Datapath (no reset: every register here is qualified by a valid bit above).
  always_ff @(posedge clk) begin
    if (accept) begin
      s1_op    <= cmd_op;
      s1_key   <= cmd_op == OP_MLOOKUP ? first_key : cmd_key;
      s1_value <= cmd_value;
    end else if (ml_again) begin
      s1_key <= hit ? deeper_key : shallower_key;
    end
    if (s1_valid) begin
      s2_op     <= s1_op;
      s2_key    <= s1_key;
      s2_value  <= s1_value;
      s2_bucket <= s1_bucket;
    end
    if (wr_en) begin
      fwd_bucket <= s2_bucket;
      fwd_way    <= wr_way;
      fwd_key    <= s2_key;
      fwd_value  <= s2_value;
    end
    if (s2_valid && !ml_again) begin
      rsp_status <= st_d;
      rsp_key    <= key_d;
      rsp_value  <= value_d;
      rsp_way    <= way_d;
      rsp_probes <= probes_d;
    end

    if (accept && cmd_op == OP_MLOOKUP) begin
      ml_addr     <= cmd_key;
      ml_bits     <= cmd_bits;
      ml_lo       <= 7'd0;
      ml_hi1      <= {1'b0, cmd_bits} + 7'd1;
      ml_mid      <= {1'b0, first_mid};
      ml_probes   <= 3'd1;
      ml_have_int <= 1'b0;
    end else if (s2_ml) begin
      if (hit && !is_leaf) begin
        ml_lo        <= deeper_lo;
        ml_have_int  <= 1'b1;
        ml_int_key   <= s2_key;
        ml_int_w0    <= hit_value[31:0];
        ml_int_w2    <= hit_value[95:64];
        ml_int_way   <= hit_way;
      end else if (!hit) begin
        ml_hi1 <= {1'b0, ml_mid};
      end
      if (ml_again) begin
        ml_mid    <= hit ? deeper_mid : shallower_mid;
        ml_probes <= ml_probes + 3'd1;
      end
    end
  end
endmodule
