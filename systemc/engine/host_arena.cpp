#include "host_arena.h"

#include <sys/mman.h>

#include <new>

namespace stu::sim {

namespace {
std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }
}  // namespace

HostArena::HostArena(std::size_t block_bytes) : block_bytes_(round_up(block_bytes, kPage)) {}

HostArena::~HostArena() {
  for (const Block& b : blocks_) munmap(b.base, b.bytes);
}

void* HostArena::do_allocate(std::size_t bytes, std::size_t alignment) {
  const std::size_t align = alignment > 64 ? alignment : 64;
  if (align > kPage || (align & (align - 1))) throw std::bad_alloc();
  bytes = round_up(bytes ? bytes : 1, 64);
  used_ = round_up(used_, align);  // blocks start on a page: aligned within one is aligned
  if (blocks_.empty() || used_ + bytes > blocks_.back().bytes) {
    const std::size_t size = round_up(bytes > block_bytes_ ? bytes : block_bytes_, kPage);
    // Reserve one page more and start at a 2 MiB boundary, so that every page of the block
    // can be a huge page. MAP_NORESERVE: address space only until touched.
    const std::size_t span = size + kPage;
    void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    char* const raw = static_cast<char*>(p);
    char* const base = reinterpret_cast<char*>(round_up(reinterpret_cast<std::size_t>(raw), kPage));
    // Give back the unaligned head and the tail beyond the block.
    if (base != raw) munmap(raw, std::size_t(base - raw));
    const std::size_t tail = span - std::size_t(base - raw) - size;
    if (tail) munmap(base + size, tail);
#ifdef MADV_HUGEPAGE
    madvise(base, size, MADV_HUGEPAGE);  // a hint: without transparent huge pages, 4 KiB pages
#endif
    blocks_.push_back({base, size});
    reserved_ += size;
    used_ = 0;
  }
  char* const p = blocks_.back().base + used_;
  used_ += bytes;
  used_total_ += bytes;
  return p;
}

}  // namespace stu::sim
