// Recovery after a power cut of a page-mapped FTL whose table a sync makes durable
// (ftl.page.map_sync conventional, whole or nvram): the map pages plus the log since the last
// completed sync, instead of page mapping's scan of every page (docs/power-loss.md).
//
// 1. NVRAM: the checkpoint (where each map unit was at the last completed sync, and the program
//    sequence that sync began at) and, with the NVRAM-aware sync, the segment copies.
// 2. Every block: a binary search for its first erased page (spare reads), then its last
//    programmed page's spare. Pages of a block are programmed in sequence order, so a block whose
//    last page is older than the checkpoint's sequence holds nothing newer; a block whose last
//    page is newer (or torn: a program in flight at the cut is newer than any completed sync) is
//    read whole: the log since the checkpoint. A block whose erase the cut tore is erased again.
// 3. Each map unit's newest copy (the log's, else the checkpoint's) is read.
// 4. Each unit: its newest copy in the log, else the durable map's entry (NVRAM's copy of its
//    segment, else the map page's), kept if the page it names still holds it: a page in a block
//    the log does not touch does; in a block the log touches, only a readable page older than
//    the checkpoint whose spare names the unit does (the block may have been erased and written
//    again since). Units with neither read as unmapped, as a trim leaves them: a write the host
//    made durable is always in one or the other.
#pragma once

#include <vector>

#include "ftl/core/flash_backend.h"
#include "ftl/core/page_store.h"
#include "ftl/core/types.h"
#include "ftl/page/map_sync.h"

namespace ssd::ftl {

// Rebuilds the table (returned) on a store and sync just built over the flash and NVRAM a cut
// left; the store adopts it (PageStore::adopt) and the sync learns its map pages (MapSync::adopt).
std::vector<SlotId> recover_synced_map(MapSync& sync, FlashBackend& backend, PageStore& store);

}  // namespace ssd::ftl
