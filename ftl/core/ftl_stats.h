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
  // How GC falls into host commands, counted by FtlDevice (schemes leave them 0): the victims
  // run while serving a host command, and the sum over commands of the square of that count.
  // Their ratio is the mean, over victims, of how many victims ran in the same command: 1 when
  // each command runs at most one, more when GC comes in bursts within commands.
  uint64_t gc_victims_in_commands = 0;
  uint64_t gc_victims_squared_by_command = 0;

  FtlStats& operator+=(const FtlStats& other) {
    gc_invocations += other.gc_invocations;
    gc_units_copied += other.gc_units_copied;
    gc_erases += other.gc_erases;
    gc_victims_in_commands += other.gc_victims_in_commands;
    gc_victims_squared_by_command += other.gc_victims_squared_by_command;
    return *this;
  }
};

}  // namespace ssd::ftl
