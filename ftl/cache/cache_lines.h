// Lines of data held in controller DRAM, least recently used first out: the store under both the
// host-side data cache (data_cache.h: a line is `units_per_line` mapping units, a slot per unit)
// and the sector layer's write buffer (ftl/sector_log/: a line is one mapping unit, a slot per
// sector). Each line keeps which of its slots hold data (valid), which of those are newer than
// the flash (dirty), and a content token per slot (content_token.h). Dirty lines are also kept
// in their own least-recently-used order, so write-back finds the oldest dirty line at once
// however many clean lines are older.
//
// A line lives in a frame (a line-sized slice of the cache's DRAM), numbered from 0 and reused
// once its line leaves: the timing keeps, per frame, when the data it last held is safe elsewhere
// (its write-back done), and new data may not land in the frame before that (data_cache.h). With
// a frame budget, fresh frames are used first; then an evicted line's frame (the least recently
// used data) before the frames freed otherwise, oldest first, so a frame whose write-back may
// still be in flight is taken last.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "ftl/cache/frame_clock.h"
#include "ftl/core/token_pool.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class CacheLines {
 public:
  // What a line held, handed out when it leaves the store or is written back.
  struct Victim {
    uint64_t line = 0;
    uint32_t frame = 0;
    uint64_t valid = 0;
    uint64_t dirty = 0;
    std::vector<Token> tokens;  // per slot (meaningful where valid)
  };

  // `frames`: how many frames the store may use (0 = as many as it holds lines).
  explicit CacheLines(uint32_t slots_per_line, uint64_t frames = 0);

  // Puts `tokens[s]` into each slot s of `slots` of `line` (dirty, or clean: the flash holds the
  // same); the line becomes the most recently used. True when the line was held already (a hit).
  bool write(uint64_t line, uint64_t slots, const Token* tokens, bool dirty);
  // Makes `line` the most recently used (a read hit).
  void touch(uint64_t line);
  // Marks `slots` of `line` that it holds (the data cache's read-ahead: brought in, not asked for
  // yet). A write of a slot, or forgetting it, takes its mark off.
  void mark(uint64_t line, uint64_t slots);
  // Takes the marks off `slots` of `line`, returning which of them were marked.
  uint64_t take_marks(uint64_t line, uint64_t slots);
  // Slots of `line` holding data, and those newer than the flash (0 when the line is not held).
  uint64_t valid(uint64_t line) const;
  uint64_t dirty(uint64_t line) const;
  // The line's tokens (nullptr when not held) and its frame.
  const Token* tokens(uint64_t line) const;
  uint32_t frame(uint64_t line) const;

  // Takes the least recently used line out into `victim` (its token storage reused, so an
  // eviction allocates nothing once `victim` has held a line). The store must not be empty.
  void evict_oldest(Victim& victim);
  // Copies the least recently used dirty line into `victim` and marks it clean, keeping it
  // (a write-back). False when no line is dirty.
  bool clean_oldest_dirty(Victim& victim);
  // Copies `line` into `victim` and marks it clean (a write-back of that line). False when the
  // line holds nothing dirty.
  bool clean(uint64_t line, Victim& victim);
  // Moves `line` into another frame (a free one if any, else a fresh one within the budget, else
  // its own), freeing the one it held: new data for a line whose old data is still being written
  // back from its frame goes elsewhere. Returns the line's frame.
  uint32_t rehome(uint64_t line);
  // Forgets `slots` of `line` (trimmed); the line goes once it holds nothing.
  void forget(uint64_t line, uint64_t slots);
  // Drops `line` whole.
  void drop(uint64_t line) { forget(line, ~uint64_t{0}); }

  // Frames freed are reused in the order `clock` says they free (the first of the oldest
  // kFramesCompared); without one, oldest freed first.
  void set_frame_clock(const FrameClock* clock) { m_clock = clock; }
  static constexpr size_t kFramesCompared = 64;

  // When the frame a new line would take frees: 0 for a fresh frame (or without a clock),
  // kNever when no frame is free.
  static constexpr Picoseconds kNever = ~Picoseconds{0};
  Picoseconds next_free_at() const;
  // The least recently used line, its frame, and whether it holds dirty data (the store must not
  // be empty).
  uint64_t oldest_line() const { return m_entries[m_all.oldest].line; }
  uint32_t oldest_frame() const { return m_all.oldest; }
  bool oldest_is_dirty() const { return m_entries[m_all.oldest].dirty != 0; }

  uint64_t lines() const { return m_index.size(); }
  uint64_t dirty_lines() const { return m_dirty_count; }
  bool empty() const { return m_index.empty(); }
  // Frames ever used (the largest frame number + 1).
  uint32_t frames() const { return static_cast<uint32_t>(m_entries.size()); }

  // Host memory one line takes at most, for an estimate made before the run: its entry, its
  // tokens, its index node (a hash node with key and value, and its bucket) and a free-list slot.
  static constexpr uint64_t bytes_per_line(uint32_t slots_per_line) {
    return sizeof(Entry) + uint64_t{slots_per_line} * sizeof(Token) + 48 + sizeof(uint32_t);
  }

 private:
  // Two intrusive least-recently-used lists run through the entries: every line, and the dirty
  // lines alone.
  struct Links {
    uint32_t older = kNone;
    uint32_t newer = kNone;
  };
  struct List {
    uint32_t oldest = kNone;
    uint32_t newest = kNone;
  };
  struct Entry {
    uint64_t line;
    uint64_t valid;
    uint64_t dirty;
    uint32_t tokens;  // TokenPool index
    Links all;
    Links dirty_links;
    uint64_t marked = 0;  // mark()
  };
  static Links Entry::*const kAll;
  static Links Entry::*const kDirty;

  void unlink(List& list, Links Entry::*links, uint32_t entry);
  void push_newest(List& list, Links Entry::*links, uint32_t entry);
  // Sets the entry's dirty slots, moving it on or off the dirty list.
  void set_dirty(uint32_t entry, uint64_t dirty);
  void copy_out(uint32_t entry, Victim& victim) const;
  // Frees the entry's frame: taken before other free frames when `reuse_first` (an evicted
  // line's), else after them (a trimmed line's, or one a rehomed line left: its write-back may
  // still be in flight).
  void release(uint32_t entry, bool reuse_first);
  // An entry for a new line: a fresh frame while the budget allows, else the free one that frees
  // first.
  uint32_t take_entry();
  // The free frame that frees first among those compared.
  std::deque<uint32_t>::const_iterator best_free() const;

  uint32_t m_slots_per_line;
  TokenPool m_pool;
  std::vector<Entry> m_entries;
  uint64_t m_frames;  // budget (0: none)
  const FrameClock* m_clock = nullptr;
  std::deque<uint32_t> m_free;  // freed frames, oldest first
  std::unordered_map<uint64_t, uint32_t> m_index;
  List m_all;
  List m_dirty;
  uint64_t m_dirty_count = 0;
};

}  // namespace ssd::ftl
