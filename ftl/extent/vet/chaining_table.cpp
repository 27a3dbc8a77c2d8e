#include "ftl/extent/vet/chaining_table.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "ftl/core/grouped_stores.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/core/types.h"
#include "ftl/extent/vet/vet_hash.h"

namespace ssd::ftl {

namespace {

// Primes roughly doubling, each far from a power of two (the list Clark's table also grows by).
constexpr uint32_t kPrimes[] = {
    53,       97,       193,      389,       769,       1543,      3079,      6151,      12289,
    24593,    49157,    98317,    196613,    393241,    786433,    1572869,   3145739,   6291469,
    12582917, 25165843, 50331653, 100663319, 201326611, 402653189, 805306457, 1610612741};
constexpr uint32_t kPrimeCount = sizeof(kPrimes) / sizeof(kPrimes[0]);

// ceil(2^64 / buckets), for bucket_in().
uint64_t fastmod_of(uint32_t buckets) { return ~uint64_t{0} / buckets + 1; }

// hash % buckets without a division (Lemire's fastmod; exact for 32-bit operands).
uint32_t bucket_in(uint32_t hash, uint64_t fastmod, uint32_t buckets) {
  const uint64_t low = fastmod * hash;
  return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * buckets) >> 64);
}

// The table grows when an insertion would take it past this many entries.
uint64_t load_limit(uint32_t prime_index) {
  return static_cast<uint64_t>(std::ceil(kPrimes[prime_index] * ChainingTable::kMaxLoad));
}

// Bucket heads a piece of PopulateAhead covers.
constexpr uint64_t kBucketsPerPiece = PopulateAhead::kPieceBytes / sizeof(uint32_t);

// Loading in bulk sorts items `hash << 32 | entry` by bucket.
uint32_t hash_of(uint64_t item) { return static_cast<uint32_t>(item >> 32); }
uint32_t entry_of(uint64_t item) { return static_cast<uint32_t>(item); }

// Sorts by bucket (hash % buckets) the `count` items item_at(0), item_at(1), ..., keeping the
// order of items of the same bucket. A least-significant-digit radix sort of at most 10 bits a
// pass, so that a pass writes to at most 1024 places at once; every pass's counts come from one
// read of the items. The passes go back and forth between the two buffers of `count` items;
// returns the one that holds the sorted items. (The limit was 9 bits, to keep the pages written
// at once within the TLB's reach; VET's aged 512 GiB device then took four passes of its 29-bit
// bucket numbers instead of three, and longer: docs/performance.md.)
template <typename ItemAt>
uint64_t* stable_sort_by_bucket(uint64_t count, ItemAt&& item_at, uint32_t buckets, uint64_t* first,
                                uint64_t* second) {
  constexpr uint32_t kMostDigitBits = 10;
  uint32_t bits = 1;
  while (bits < 32 && (uint64_t{1} << bits) < buckets) ++bits;
  const uint32_t passes = (bits + kMostDigitBits - 1) / kMostDigitBits;
  const uint32_t digit_bits = (bits + passes - 1) / passes;
  const uint32_t digit_mask = (1u << digit_bits) - 1;
  const uint64_t fastmod = fastmod_of(buckets);
  const auto bucket = [&](uint64_t item) { return bucket_in(hash_of(item), fastmod, buckets); };
  // counts[pass << digit_bits | digit]: first how many items have that digit, then where the next
  // of them goes.
  std::vector<uint64_t> counts(size_t{passes} << digit_bits);
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t b = bucket(item_at(i));
    for (uint32_t pass = 0; pass < passes; ++pass) {
      ++counts[(size_t{pass} << digit_bits) | ((b >> (pass * digit_bits)) & digit_mask)];
    }
  }
  for (uint32_t pass = 0; pass < passes; ++pass) {
    uint64_t at = 0;
    for (size_t d = size_t{pass} << digit_bits; d < (size_t{pass} + 1) << digit_bits; ++d) {
      const uint64_t here = counts[d];
      counts[d] = at;
      at += here;
    }
  }
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t item = item_at(i);
    first[counts[bucket(item) & digit_mask]++] = item;
  }
  uint64_t* from = first;
  uint64_t* to = second;
  for (uint32_t pass = 1; pass < passes; ++pass) {
    const uint32_t shift = pass * digit_bits;
    uint64_t* next = &counts[size_t{pass} << digit_bits];
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t item = from[i];
      to[next[(bucket(item) >> shift) & digit_mask]++] = item;
    }
    std::swap(from, to);
  }
  return from;
}

}  // namespace

ChainingTable::ChainingTable(CpuWork& cpu) : m_cpu(cpu) { clear(); }

void ChainingTable::clear() {
  m_populate.reset();  // before the pool it works on goes
  m_entries.clear();
  m_free = kNone;
  m_size = 0;
  m_buckets.clear();
  resize(0);
}

void ChainingTable::set_prime(uint32_t prime_index) {
  use_prime(prime_index);
  m_buckets.assign(kPrimes[prime_index], kNone);
}

void ChainingTable::use_prime(uint32_t prime_index) {
  m_prime_index = prime_index;
  m_fastmod = fastmod_of(kPrimes[prime_index]);
  m_load_limit = load_limit(prime_index);
}

uint32_t ChainingTable::bucket_of(uint32_t hash) const {
  return bucket_in(hash, m_fastmod, static_cast<uint32_t>(m_buckets.size()));
}

void ChainingTable::resize(uint32_t prime_index) {
  std::vector<uint32_t> old;
  old.swap(m_buckets);
  set_prime(prime_index);
  // Relink every entry by the hash it keeps: growing never recomputes a hash.
  for (uint32_t head : old) {
    while (head != kNone) {
      Entry& e = m_entries[head];
      const uint32_t next = e.next;
      uint32_t& bucket = m_buckets[bucket_of(e.hash)];
      e.next = bucket;
      bucket = head;
      head = next;
      ++m_cpu.hash_probes;
    }
  }
}

uint32_t ChainingTable::locate(uint64_t key, uint32_t hash, uint32_t** link) {
  uint32_t* at = &m_buckets[bucket_of(hash)];
  uint32_t examined = 0;
  while (*at != kNone) {
    const Entry& e = m_entries[*at];
    ++examined;
    if (e.hash == hash && e.key == key) break;
    at = &m_entries[*at].next;
  }
  m_cpu.hash_probes += examined > 1 ? examined : 1;
  *link = at;
  return *at;
}

bool ChainingTable::find(uint64_t key, NodeValue& value) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) return false;
  value = m_entries[entry].value;
  return true;
}

void ChainingTable::link_new(uint64_t key, const NodeValue& value, uint32_t hash) {
  // Grow first (as Clark's table does) so the new entry is linked once.
  if (m_size + 1 > m_load_limit && m_prime_index + 1 < kPrimeCount) resize(m_prime_index + 1);
  uint32_t entry = m_free;
  if (entry != kNone) {
    m_free = m_entries[entry].next;
  } else {
    if (m_entries.size() >= kNone) throw std::length_error("VET chaining table: pool full");
    entry = static_cast<uint32_t>(m_entries.size());
    m_entries.emplace_back();
  }
  uint32_t& bucket = m_buckets[bucket_of(hash)];
  m_entries[entry] = Entry{key, value, hash, bucket};
  bucket = entry;
  ++m_size;
}

void ChainingTable::unlink(uint32_t entry, uint32_t* link) {
  *link = m_entries[entry].next;
  m_entries[entry].next = m_free;
  m_free = entry;
  --m_size;
}

void ChainingTable::insert(uint64_t key, const NodeValue& value) {
  ++m_cpu.hash_probes;
  link_new(key, value, vet_hash(key));
}

uint32_t ChainingTable::adjust_count(uint64_t key, int32_t delta) {
  const uint32_t hash = vet_hash(key);
  uint32_t* link;
  const uint32_t entry = locate(key, hash, &link);
  if (entry == kNone) {
    if (delta <= 0) throw std::logic_error("VET chaining table: count of an absent key");
    link_new(key, NodeValue{static_cast<uint32_t>(delta), 0, 0}, hash);
    return static_cast<uint32_t>(delta);
  }
  NodeValue& v = m_entries[entry].value;
  if (v.w1 != 0) throw std::logic_error("VET chaining table: count of a leaf");
  if (delta < 0 && v.w0 < static_cast<uint32_t>(-delta)) {
    throw std::logic_error("VET chaining table: count below zero");
  }
  v.w0 += static_cast<uint32_t>(delta);
  const uint32_t count = v.w0;
  if (count == 0) unlink(entry, link);
  return count;
}

void ChainingTable::update(uint64_t key, const NodeValue& value) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) throw std::logic_error("VET chaining table: update of an absent key");
  m_entries[entry].value = value;
}

bool ChainingTable::erase(uint64_t key) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) return false;
  unlink(entry, link);
  return true;
}

bool ChainingTable::begin_load(uint64_t expected) {
  // A pool that was ever used may hold freed entries, which inserts would take first.
  if (!m_entries.empty()) return false;
  reserve_room(m_entries, std::min<uint64_t>(expected, kNone));
  // Huge pages for the pool, which lookups then reach at random: the pages are populated ahead
  // on the second thread, and the end of the load stores links into random entries, piece by
  // piece (docs/performance.md).
  prefer_huge_pages(m_entries.data(), m_entries.capacity() * sizeof(Entry));
  m_populate = std::make_unique<PopulateAhead>();
  m_loading = true;
  return true;
}

uint32_t ChainingTable::load(uint64_t key, const NodeValue& value) {
  if (!m_loading) throw std::logic_error("VET chaining table: load() without begin_load()");
  if (m_entries.size() >= kNone) throw std::length_error("VET chaining table: pool full");
  // The pool's room was made for the whole load; if it runs out, the pool moves.
  if (m_entries.size() == m_entries.capacity()) m_populate->settle();
  m_populate->before_append(m_entries);
  m_entries.push_back(Entry{key, value, vet_hash(key), kNone});
  return static_cast<uint32_t>(m_entries.size() - 1);
}

// The chains that inserting the loaded entries one by one, in load order, would have made. The
// inserts pass through stages, one bucket count each: an insert links its entry at the head of
// its chain, and before the insert that would pass the load limit the table grows, walking its
// buckets in order and each chain from its head, and links every entry it meets at the head of
// its new chain. So, in a chain after stage s, entry a comes before entry b when
//   - a was inserted in stage s and b before it (the newest first among those of stage s), or
//   - both were there before, and a's bucket of stage s - 1 is the higher (met later by the
//     walk), or it is the same one and b came before a in it after stage s - 1 (reversed).
// The chains are then a sort of the entries by their last bucket, newest first, with the few
// that share a bucket put in that order: one radix sort, then a short insertion sort per chain.
// Nothing follows a chain or writes a random bucket; the inserts and growths took about 4 s of
// random accesses for VET's fill of a 512 GiB device.
void ChainingTable::end_load() {
  if (!m_loading) return;
  m_loading = false;
  m_populate->settle();  // the pool's pages: the pool may move once loaded
  const auto n = static_cast<uint32_t>(m_entries.size());
  // Stage s has kPrimes[s] buckets and takes the entries from stage_begin[s] on. An empty pool
  // starts as clear() left it, at the first prime.
  std::vector<uint32_t> stage_begin{0};
  std::vector<uint64_t> fastmods{fastmod_of(kPrimes[0])};
  uint32_t last = 0;
  while (last + 1 < kPrimeCount && load_limit(last) < n) {
    stage_begin.push_back(static_cast<uint32_t>(load_limit(last)));
    fastmods.push_back(fastmod_of(kPrimes[++last]));
  }
  const auto bucket_at = [&](uint64_t item, uint32_t stage) {
    return bucket_in(hash_of(item), fastmods[stage], kPrimes[stage]);
  };
  const auto before = [&](uint64_t a, uint64_t b) {  // in the chain they share at the end
    bool reversed = false;
    for (uint32_t stage = last;; --stage) {
      const bool new_a = entry_of(a) >= stage_begin[stage];
      const bool new_b = entry_of(b) >= stage_begin[stage];
      if (new_a || new_b) {  // always so at stage 0
        return (new_a && new_b ? entry_of(a) > entry_of(b) : new_a) != reversed;
      }
      const uint32_t bucket_a = bucket_at(a, stage - 1);
      const uint32_t bucket_b = bucket_at(b, stage - 1);
      if (bucket_a != bucket_b) return (bucket_a > bucket_b) != reversed;
      reversed = !reversed;
    }
  };
  // The sort's two buffers are left uninitialised (every item is written before it is read) and
  // their pages populated on the second thread while this one counts the items and scatters
  // them; the one not holding the sorted items is freed there too.
  std::unique_ptr<uint64_t[]> first(new uint64_t[n]);
  std::unique_ptr<uint64_t[]> second(new uint64_t[n]);
  m_populate->populate(first.get(), uint64_t{n} * sizeof(uint64_t));
  m_populate->populate(second.get(), uint64_t{n} * sizeof(uint64_t));
  const auto newest_first = [&](uint64_t i) {
    const uint32_t e = n - 1 - static_cast<uint32_t>(i);
    return uint64_t{m_entries[e].hash} << 32 | e;
  };
  // The chains, bucket by bucket, head to tail.
  uint64_t* const walk =
      stable_sort_by_bucket(n, newest_first, kPrimes[last], first.get(), second.get());
  std::unique_ptr<uint64_t[]> walk_buffer = std::move(walk == first.get() ? first : second);
  m_populate->release(std::move(first ? first : second));
  // The bucket array is written in order, each bucket once (kNone up to the next chain's), its
  // pages populated ahead on the second thread: assigned whole first, its 1.6 GB for VET's aged
  // 512 GiB device took 2.9 s, nearly all of it the kernel clearing pages on this thread.
  use_prime(last);
  m_buckets = std::vector<uint32_t>();
  reserve_room(m_buckets, kPrimes[last]);
  prefer_huge_pages(m_buckets.data(), m_buckets.capacity() * sizeof(uint32_t));
  const auto buckets_up_to = [&](uint64_t end) {
    if (end > m_buckets.capacity()) m_populate->settle();  // no room was made: the array moves
    while (m_buckets.size() < end) {
      m_populate->before_append(m_buckets);
      const uint64_t piece_end = (m_buckets.size() / kBucketsPerPiece + 1) * kBucketsPerPiece;
      m_buckets.resize(std::min(end, piece_end), kNone);
    }
  };
  // The next links are stores to random entries: made grouped by the 2 MiB piece of the pool
  // they land in. Stored into the entries one by one (prefetched 16 ahead), they took 1 s of the
  // 2 s VET's fill of MQSim's device took, nearly all of it waiting on TLB misses (`perf`). Only
  // the links of entries that are not the last of their chain are stored: load() made every link
  // kNone, and at the loads the tables reach (0.33 to 0.65 entries a bucket) most chains hold one
  // entry (VET's aged device: 26 M links of 155 M entries).
  const auto next_of = [](Entry& entry) -> uint32_t& { return entry.next; };
  GroupedStores<uint32_t, Entry, decltype(next_of)> next_stores(m_entries.data(), n,
                                                                uint64_t{1} << 20, next_of);
  for (size_t i = 0; i < n;) {
    const uint32_t bucket = bucket_at(walk[i], last);
    size_t end = i + 1;
    while (end < n && bucket_at(walk[end], last) == bucket) ++end;
    for (size_t k = i + 1; k < end; ++k) {  // insertion sort: chains are short
      const uint64_t item = walk[k];
      size_t at = k;
      for (; at > i && before(item, walk[at - 1]); --at) walk[at] = walk[at - 1];
      walk[at] = item;
    }
    buckets_up_to(bucket);
    m_buckets.push_back(entry_of(walk[i]));
    for (; i + 1 < end; ++i) next_stores.store(entry_of(walk[i]), entry_of(walk[i + 1]));
    i = end;
  }
  buckets_up_to(kPrimes[last]);
  next_stores.flush();
  m_populate->settle();  // the bucket array's pages asked for ahead: it may move from now on
  m_populate->release(std::move(walk_buffer));
  m_size = n;
}

void ChainingTable::for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const {
  for (uint32_t head : m_buckets) {
    for (uint32_t e = head; e != kNone; e = m_entries[e].next)
      visit(m_entries[e].key, m_entries[e].value);
  }
}

uint32_t ChainingTable::longest_chain() const {
  uint32_t longest = 0;
  for (uint32_t head : m_buckets) {
    uint32_t length = 0;
    for (uint32_t e = head; e != kNone; e = m_entries[e].next) ++length;
    if (length > longest) longest = length;
  }
  return longest;
}

}  // namespace ssd::ftl
