#include "ftl/extent/emt/extent_tree.h"

#include <algorithm>
#include <stdexcept>

#include "ftl/core/prefaulted_allocator.h"

// The red-black algorithms are the textbook ones (Cormen et al., 3rd ed., ch. 13: insertion
// fix-up, transplant-based deletion that moves the successor node itself into the deleted
// node's place, deletion fix-up), over pool indices with node 0 as the nil sentinel.
//
// Counting (docs/emt.md, "Cost counting"): a node is counted when the operation reaches it, once
// per step that reaches it. Descents count every node compared; successor / predecessor every
// node moved to; insertion the new node, and per fix-up iteration the uncle; deletion the
// deleted node's parent, the nodes stepped to its replacement, every node whose parent link is
// rewritten; deletion fix-up the sibling and the nephews whose colour it reads, and every move up
// to a parent; each rotation the subtree it hands across. The nil sentinel is never counted.

namespace ssd::ftl {

ExtentTree::ExtentTree(CpuWork& cpu) : m_cpu(cpu) {
  m_links.reserve(1024);
  m_data.reserve(1024);
  m_links.emplace_back();  // the nil sentinel: black, never counted
  m_data.emplace_back();
}

void ExtentTree::reserve_more(uint64_t nodes) {
  const uint64_t room = std::min<uint64_t>(m_links.size() + nodes, uint64_t{kIndexMask} + 1);
  reserve_room(m_links, room);
  reserve_room(m_data, room);
}

uint32_t ExtentTree::allocate() {
  if (m_free != kNil) {
    const uint32_t n = m_free;
    m_free = m_links[n].parent_red;
    return n;
  }
  if (m_links.size() > kIndexMask) throw std::length_error("extent tree: node pool exhausted");
  m_links.emplace_back();
  m_data.emplace_back();
  return static_cast<uint32_t>(m_links.size() - 1);
}

void ExtentTree::release(uint32_t n) {
  m_links[n] = Links{};
  m_links[n].parent_red = m_free;
  m_data[n] = Data{};
  m_free = n;
}

uint32_t ExtentTree::find(Lun key) {
  uint32_t n = m_root;
  while (n != kNil) {
    visit(n);
    const Links& node = m_links[n];
    if (key == node.start) return n;
    n = key < node.start ? node.left : node.right;
  }
  return kNil;
}

ExtentTree::Bracket ExtentTree::bracket(Lun key) {
  Bracket b;
  uint32_t n = m_root;
  while (n != kNil) {
    visit(n);
    const Links& node = m_links[n];
    if (node.start <= key) {  // node.start < key + 0.001
      b.at_or_below = n;
      n = node.right;
    } else {
      b.above = n;
      n = node.left;
    }
  }
  return b;
}

uint32_t ExtentTree::successor(uint32_t n) {
  if (right(n) != kNil) {
    n = right(n);
    visit(n);
    while (left(n) != kNil) {
      n = left(n);
      visit(n);
    }
    return n;
  }
  uint32_t p = parent(n);
  while (p != kNil) {
    visit(p);
    if (left(p) == n) return p;
    n = p;
    p = parent(p);
  }
  return kNil;
}

uint32_t ExtentTree::predecessor(uint32_t n) {
  if (left(n) != kNil) {
    n = left(n);
    visit(n);
    while (right(n) != kNil) {
      n = right(n);
      visit(n);
    }
    return n;
  }
  uint32_t p = parent(n);
  while (p != kNil) {
    visit(p);
    if (right(p) == n) return p;
    n = p;
    p = parent(p);
  }
  return kNil;
}

uint32_t ExtentTree::first() {
  uint32_t n = m_root;
  if (n == kNil) return kNil;
  visit(n);
  while (left(n) != kNil) {
    n = left(n);
    visit(n);
  }
  return n;
}

uint32_t ExtentTree::last() {
  uint32_t n = m_root;
  if (n == kNil) return kNil;
  visit(n);
  while (right(n) != kNil) {
    n = right(n);
    visit(n);
  }
  return n;
}

// x's right child y takes x's place; y's left subtree (counted: its parent link is rewritten)
// becomes x's right. x, y and x's parent are on the path the caller already counted.
void ExtentTree::rotate_left(uint32_t x) {
  const uint32_t y = right(x);
  const uint32_t beta = left(y);
  m_links[x].right = beta;
  if (beta != kNil) {
    visit(beta);
    set_parent(beta, x);
  }
  const uint32_t p = parent(x);
  set_parent(y, p);
  if (p == kNil) {
    m_root = y;
  } else if (left(p) == x) {
    m_links[p].left = y;
  } else {
    m_links[p].right = y;
  }
  m_links[y].left = x;
  set_parent(x, y);
}

void ExtentTree::rotate_right(uint32_t x) {
  const uint32_t y = left(x);
  const uint32_t beta = right(y);
  m_links[x].left = beta;
  if (beta != kNil) {
    visit(beta);
    set_parent(beta, x);
  }
  const uint32_t p = parent(x);
  set_parent(y, p);
  if (p == kNil) {
    m_root = y;
  } else if (right(p) == x) {
    m_links[p].right = y;
  } else {
    m_links[p].left = y;
  }
  m_links[y].right = x;
  set_parent(x, y);
}

uint32_t ExtentTree::insert(Lun start, uint32_t length, SlotId slot) {
  uint32_t p = kNil;
  uint32_t n = m_root;
  bool go_left = false;
  while (n != kNil) {
    visit(n);
    const Links& node = m_links[n];
    if (start == node.start) throw std::logic_error("extent tree: duplicate start");
    p = n;
    go_left = start < node.start;
    n = go_left ? node.left : node.right;
  }
  const uint32_t z = allocate();  // may move the pools: no references held across it
  visit(z);
  m_links[z] = Links{start, kNil, kNil, p | kRedBit};
  m_data[z] = Data{length, slot};
  if (p == kNil) {
    m_root = z;
  } else if (go_left) {
    m_links[p].left = z;
  } else {
    m_links[p].right = z;
  }
  if (p == kNil || (!go_left && p == m_last)) m_last = z;
  ++m_size;
  insert_fixup(z);
  return z;
}

uint32_t ExtentTree::append(Lun start, uint32_t length, SlotId slot) {
  if (m_deferring) {
    if (m_last != kNil && start <= m_links[m_last].start) {
      throw std::logic_error("extent tree: a deferred append at or below the largest start");
    }
    // Room was made for the fill (reserve_more); if it runs out, the pools move.
    if (m_links.size() == m_links.capacity() || m_data.size() == m_data.capacity()) {
      m_populate->settle();
    }
    m_populate->before_append(m_links);
    m_populate->before_append(m_data);
    const uint32_t z = allocate();  // no node was ever freed: z is one past the last
    m_links[z] = Links{start, kNil, kNil, kNil};
    m_data[z] = Data{length, slot};
    m_last = z;
    ++m_size;
    return z;
  }
  if (m_last == kNil && m_root != kNil) {
    const uint64_t counted = m_cpu.tree_nodes;
    m_last = last();
    m_cpu.tree_nodes = counted;
  }
  if (m_last == kNil || start <= m_links[m_last].start) return insert(start, length, slot);
  const uint32_t p = m_last;
  const uint32_t z = allocate();  // may move the pools: no references held across it
  m_links[z] = Links{start, kNil, kNil, p | kRedBit};
  m_data[z] = Data{length, slot};
  m_links[p].right = z;  // the largest node has no right child
  m_last = z;
  ++m_size;
  insert_fixup(z);
  return z;
}

void ExtentTree::begin_appends() {
  m_deferring = m_root == kNil && m_free == kNil && m_links.size() == 1;
  if (m_deferring) m_populate = std::make_unique<PopulateAhead>();
}

void ExtentTree::end_appends() {
  if (!m_deferring) return;
  m_deferring = false;
  m_populate.reset();  // done with the pools' pages: they may move from now on
  link_ascending();
}

namespace {

// tree(n) below: the number of j >= 0 with 5 * 2^j - 2 <= n; its root's left subtree has
// 2^k - 1 nodes.
uint32_t spine_order(uint64_t n) {
  uint32_t k = 0;
  while (5 * (uint64_t{1} << k) - 2 <= n) ++k;
  return k;
}

// tree(n) with n < 3 * 2^k - 2: its root's two children are red.
bool red_children(uint64_t n, uint32_t k) { return n < 3 * (uint64_t{1} << k) - 2; }

// Black nodes on each path from tree(n)'s (black) root down, nil not counted.
uint32_t black_height(uint64_t n) {
  if (n == 0) return 0;
  const uint32_t k = spine_order(n);
  return red_children(n, k) ? k : k + 1;
}

}  // namespace

// Inserting n ascending starts into an empty tree (insert() or append(), CLRS's fix-up) leaves a
// shape with a closed form, tree(n), found by running the insertion and checked against it for
// every n up to 3,000 and for larger ones sampled (extent_tree_test.cpp checks it on every run):
//  - With k = spine_order(n), the root is the (2^k)th node; its left subtree is the perfect tree
//    of the 2^k - 1 nodes before it, its right subtree tree(n - 2^k) of the nodes after it. So
//    the right spine is the roots of tree(n), tree(n - 2^k), ..., each with a perfect tree on
//    its left.
//  - Every node is black but these: when red_children(n, k), the roots of both subtrees;
//    otherwise the right subtree's root when its black height is k + 1, one more than the left
//    subtree's (it is k or k + 1).
// The nodes are 1 .. n in start order (appended to a fresh pool), so each link is computed, not
// searched for, and every node is written once.
void ExtentTree::link_ascending() {
  uint64_t n = m_size;
  uint32_t first = 1;  // the first node of tree(n)
  uint32_t parent = kNil;
  bool red = false;  // tree(n)'s root
  m_root = kNil;
  while (n > 0) {
    const uint32_t k = spine_order(n);
    const uint64_t half = uint64_t{1} << k;
    const uint32_t root = first + static_cast<uint32_t>(half - 1);
    const bool red_pair = red_children(n, k);
    const uint64_t rest = n - half;
    Links& node = m_links[root];
    node.left = k == 0 ? kNil : first + static_cast<uint32_t>((half >> 1) - 1);
    node.right = kNil;  // set when its subtree's root is linked
    node.parent_red = parent | (red ? kRedBit : 0);
    if (parent == kNil) {
      m_root = root;
    } else {
      m_links[parent].right = root;
    }
    link_perfect(first, k, root, red_pair);
    red = rest > 0 && (red_pair || black_height(rest) == k + 1);
    parent = root;
    first = root + 1;
    n = rest;
  }
}

// The perfect tree of the 2^height - 1 nodes from `first`, black but for its root when red_top,
// hung under `parent`. In-order position x (1-based) has height j where 2^j is x's lowest set
// bit; its children are x -/+ 2^(j - 1), its parent x - 2^j when bit j + 1 of x is set (it is a
// right child), x + 2^j otherwise.
void ExtentTree::link_perfect(uint32_t first, uint32_t height, uint32_t parent, bool red_top) {
  if (height == 0) return;
  const uint64_t top = uint64_t{1} << (height - 1);
  const uint64_t count = 2 * top - 1;
  const uint64_t before = first - 1;  // node of position x: before + x
  for (uint64_t x = 1; x <= count; ++x) {
    const uint64_t low = x & (~x + 1);
    Links& node = m_links[before + x];
    node.left = low == 1 ? kNil : static_cast<uint32_t>(before + x - low / 2);
    node.right = low == 1 ? kNil : static_cast<uint32_t>(before + x + low / 2);
    if (x == top) {
      node.parent_red = parent | (red_top ? kRedBit : 0);
    } else {
      node.parent_red = static_cast<uint32_t>(before + ((x & (low << 1)) != 0 ? x - low : x + low));
    }
  }
}

// Parent and grandparent are on the insertion's descent path; the uncle is the node it adds.
void ExtentTree::insert_fixup(uint32_t z) {
  while (red(parent(z))) {
    uint32_t p = parent(z);
    const uint32_t g = parent(p);  // p is red, so not the root: g is real
    if (p == left(g)) {
      const uint32_t u = right(g);
      visit(u);
      if (red(u)) {
        set_red(p, false);
        set_red(u, false);
        set_red(g, true);
        z = g;
        continue;
      }
      if (z == right(p)) {
        z = p;
        rotate_left(z);
        p = parent(z);
      }
      set_red(p, false);
      set_red(g, true);
      rotate_right(g);
    } else {
      const uint32_t u = left(g);
      visit(u);
      if (red(u)) {
        set_red(p, false);
        set_red(u, false);
        set_red(g, true);
        z = g;
        continue;
      }
      if (z == left(p)) {
        z = p;
        rotate_right(z);
        p = parent(z);
      }
      set_red(p, false);
      set_red(g, true);
      rotate_left(g);
    }
  }
  set_red(m_root, false);
}

// Puts v (possibly nil) where u was under u's parent. The sentinel's parent is written when v is
// nil: the deletion fix-up starts from there.
void ExtentTree::transplant(uint32_t u, uint32_t v) {
  const uint32_t p = parent(u);
  if (p == kNil) {
    m_root = v;
  } else if (left(p) == u) {
    m_links[p].left = v;
  } else {
    m_links[p].right = v;
  }
  set_parent(v, p);
}

void ExtentTree::erase(uint32_t z) {
  if (z == m_last) m_last = kNil;
  visit(parent(z));  // its child link changes; z itself is in the caller's hand
  bool removed_black = !red(z);
  uint32_t x;
  if (left(z) == kNil) {
    x = right(z);
    visit(x);
    transplant(z, x);
  } else if (right(z) == kNil) {
    x = left(z);
    visit(x);
    transplant(z, x);
  } else {
    // The in-order successor y (no left child) takes z's place and colour.
    uint32_t y = right(z);
    visit(y);
    while (left(y) != kNil) {
      y = left(y);
      visit(y);
    }
    removed_black = !red(y);
    x = right(y);
    visit(x);
    if (parent(y) == z) {
      set_parent(x, y);  // also when x is nil: the fix-up starts from it
    } else {
      transplant(y, x);
      m_links[y].right = right(z);
      set_parent(right(y), y);  // z's right child: counted on the way down
    }
    transplant(z, y);
    m_links[y].left = left(z);
    visit(left(y));
    set_parent(left(y), y);
    set_red(y, red(z));
  }
  if (removed_black) erase_fixup(x);
  release(z);
  --m_size;
}

// x carries an extra black. Its parent is held (counted by erase or by the move up); the
// sibling and the nephews whose colour is read are counted here.
void ExtentTree::erase_fixup(uint32_t x) {
  while (x != m_root && !red(x)) {
    const uint32_t p = parent(x);
    if (x == left(p)) {
      uint32_t w = right(p);  // real: x's side is a black short of it
      visit(w);
      if (red(w)) {
        set_red(w, false);
        set_red(p, true);
        rotate_left(p);
        w = right(p);
        visit(w);
      }
      const uint32_t wl = left(w);
      const uint32_t wr = right(w);
      visit(wl);
      visit(wr);
      if (!red(wl) && !red(wr)) {
        set_red(w, true);
        x = p;
        if (x != m_root && !red(x)) visit(parent(x));  // moves up
        continue;
      }
      if (!red(wr)) {
        set_red(wl, false);
        set_red(w, true);
        rotate_right(w);
        w = right(p);
      }
      set_red(w, red(p));
      set_red(p, false);
      set_red(right(w), false);
      rotate_left(p);
      x = m_root;
    } else {
      uint32_t w = left(p);
      visit(w);
      if (red(w)) {
        set_red(w, false);
        set_red(p, true);
        rotate_right(p);
        w = left(p);
        visit(w);
      }
      const uint32_t wl = left(w);
      const uint32_t wr = right(w);
      visit(wl);
      visit(wr);
      if (!red(wl) && !red(wr)) {
        set_red(w, true);
        x = p;
        if (x != m_root && !red(x)) visit(parent(x));
        continue;
      }
      if (!red(wl)) {
        set_red(wr, false);
        set_red(w, true);
        rotate_left(w);
        w = left(p);
      }
      set_red(w, red(p));
      set_red(p, false);
      set_red(left(w), false);
      rotate_right(p);
      x = m_root;
    }
  }
  set_red(x, false);
}

uint32_t ExtentTree::height() const {
  // Iterative, so a broken (deep) tree cannot overflow the stack.
  uint32_t best = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  if (m_root != kNil) stack.emplace_back(m_root, 1);
  while (!stack.empty()) {
    const auto [n, depth] = stack.back();
    stack.pop_back();
    best = std::max(best, depth);
    if (left(n) != kNil) stack.emplace_back(left(n), depth + 1);
    if (right(n) != kNil) stack.emplace_back(right(n), depth + 1);
  }
  return best;
}

std::string ExtentTree::check() const {
  if (red(kNil)) return "the nil sentinel is red";
  if (m_root == kNil) return m_size == 0 ? "" : "empty tree with a non-zero size";
  if (red(m_root)) return "red root";
  if (parent(m_root) != kNil) return "the root has a parent";
  // Depth-first with key bounds and the black count of the path so far.
  struct Item {
    uint32_t n;
    uint64_t low;   // keys must be >= low
    uint64_t high;  // keys must be < high
    uint32_t blacks;
  };
  std::vector<Item> stack{{m_root, 0, uint64_t{1} << 32, 0}};
  uint32_t count = 0;
  int64_t nil_blacks = -1;
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    if (it.n == kNil) {
      if (nil_blacks < 0) nil_blacks = it.blacks;
      if (nil_blacks != it.blacks) return "paths with different black counts";
      continue;
    }
    if (++count > m_size) return "more nodes reachable than the size says (or a cycle)";
    const Links& node = m_links[it.n];
    if (node.start < it.low || node.start >= it.high) return "search order broken";
    if (m_data[it.n].length == 0) return "empty extent";
    if (red(it.n) && (red(node.left) || red(node.right))) return "red-red edge";
    if (node.left != kNil && parent(node.left) != it.n) return "bad parent link";
    if (node.right != kNil && parent(node.right) != it.n) return "bad parent link";
    const uint32_t blacks = it.blacks + (red(it.n) ? 0 : 1);
    stack.push_back({node.left, it.low, node.start, blacks});
    stack.push_back({node.right, uint64_t{node.start} + 1, it.high, blacks});
  }
  if (count != m_size) return "fewer nodes reachable than the size says";
  return "";
}

}  // namespace ssd::ftl
