// What a scheme's garbage collection (or merging) did, counted the same way by every scheme so
// GC cost compares across schemes. Units written, by class, are counted by the backend
// (FlashBackend::written()), not here.
#pragma once

#include <cstdint>

namespace ssd::ftl {

struct FtlStats {
  uint64_t gc_invocations = 0;   // victim blocks reclaimed (merges, folds)
  uint64_t gc_units_copied = 0;  // valid units GC moved
  uint64_t gc_erases = 0;        // erases GC issued

  FtlStats& operator+=(const FtlStats& other) {
    gc_invocations += other.gc_invocations;
    gc_units_copied += other.gc_units_copied;
    gc_erases += other.gc_erases;
    return *this;
  }
};

}  // namespace ssd::ftl
