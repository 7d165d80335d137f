// Workload readers: streaming sources of warp store records for the performance model.
//
// A StoreSource yields one StoreRecord per warp-level store instruction (SASS STG, STS, STL,
// ST), in file order, and counts every other instruction it passes over by opcode. Readers:
//
//   open_traceg()      Accel-Sim / NVBit `kernel-N.traceg` text (tracer versions 3 and 4),
//                      plain or xz-compressed (`.xz`, streamed through liblzma)
//   open_tracez()      Accel-Sim 2.0 `kernel-N.tracez` (zstd sub-chunks per warp, read one
//                      sub-chunk at a time through Debian's libzstd)
//   open_kernelslist() a `kernelslist.g`: its kernel traces one after another
//   open_stut()        stu's compact binary trace (docs/trace-formats.md)
//
// Every reader streams through fixed-size buffers: memory is bounded by the buffers and the
// longest accepted line, never by the trace length. Malformed input stops the source with one
// diagnostic (`FILE:LINE: error: message`, see error_text()); nothing is thrown.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stu/diag.h"

namespace stu::workload {

// The state space a store writes, from its opcode: STG global, STS shared, STL local, ST
// generic.
enum class StoreSpace : uint8_t { Global = 0, Shared = 1, Local = 2, Generic = 3 };
const char* to_string(StoreSpace s);

// The space of a SASS opcode (`STG.E.64` -> Global), or false when it is not a store of the
// four forms (STSM, STTM, STAS, ... are not).
bool store_space_of(const std::string& opcode, StoreSpace& space);

// A record is a store, or a memory barrier (MEMBAR), which the models take as a fence.
enum class RecordKind : uint8_t { Store = 0, Fence = 1 };
// A MEMBAR's scope: .CTA, .GPU (.GL on older parts) or .SYS.
enum class FenceScope : uint8_t { Cta = 0, Gpu = 1, Sys = 2 };
const char* to_string(FenceScope s);
// The scope of a MEMBAR opcode (`MEMBAR.SC.GPU`, `MEMBAR.ALL.CTA`, `MEMBAR.SYS`), or false when
// the opcode is no MEMBAR or names no scope it knows.
bool fence_scope_of(const std::string& opcode, FenceScope& scope);

constexpr unsigned kWarpSize = 32;

struct StoreRecord {
  RecordKind kind = RecordKind::Store;
  FenceScope scope = FenceScope::Gpu;  // a Fence's (a store's is unused)
  uint32_t kernel_id = 0;              // `-kernel id`, else the kernel's 1-based position
  std::array<uint32_t, 3> cta{};       // `thread block = x,y,z`
  uint32_t warp = 0;                   // `warp = n` (warp within the CTA)
  uint64_t pc = 0;                     // the instruction's PC (hex in the trace)
  std::string opcode;                  // full SASS opcode, e.g. STG.E.128
  StoreSpace space = StoreSpace::Global;
  // Instructions the warp issued since its previous record, this one included (the issue
  // model's input); 0 where the format does not say (.stut).
  uint32_t issued = 0;
  uint32_t mask = 0;                       // active (and predicate-true) lanes
  uint32_t width = 0;                      // bytes per lane (the trace's mem_width); a fence: 0
  std::array<uint64_t, kWarpSize> addr{};  // per-lane address; 0 for inactive lanes
};

// Instructions passed over, by full opcode. At most kMaxOpcodes distinct opcodes are kept;
// the rest are counted under "(other)" so a hostile trace cannot grow the map without bound.
struct SkipCounts {
  static constexpr size_t kMaxOpcodes = 1024;
  std::map<std::string, uint64_t> by_opcode;
  uint64_t total = 0;
  void add(const std::string& opcode, uint64_t n = 1);
};

// Per-kernel facts from a `.traceg` header.
struct KernelInfo {
  uint32_t id = 0;
  std::string name;
  std::array<uint32_t, 3> grid{}, block{};
  uint32_t shmem = 0, nregs = 0, binary_version = 0;
  uint64_t stream = 0, shmem_base = 0, local_base = 0;
  std::string nvbit_version;
  uint32_t tracer_version = 0;  // `-accelsim tracer version`; 0 when absent
  bool lineinfo = false;        // `-enable lineinfo = 1`: each line starts with a line number
};

class StoreSource {
 public:
  virtual ~StoreSource() = default;
  // The next store, or false at the end of the input or at the first error (then ok() is
  // false and error_text() says why).
  virtual bool next(StoreRecord& r) = 0;
  bool ok() const { return !diags_.has_errors(); }
  const Diagnostics& diagnostics() const { return diags_; }
  // `FILE:LINE: error: message` lines (empty when ok()).
  std::string error_text() const;
  const SkipCounts& skipped() const { return skipped_; }
  uint64_t instructions() const { return instructions_; }  // stores + passed over
  // The kernel being read (the last one when at the end).
  const KernelInfo& kernel() const { return kernel_; }

 protected:
  void fail(const std::string& file, uint32_t line, std::string message);
  Diagnostics diags_;
  std::string diag_file_;
  SkipCounts skipped_;
  uint64_t instructions_ = 0;
  KernelInfo kernel_;
};

// Longest `.traceg` line accepted (a full 32-lane list-all line is about 700 bytes).
constexpr size_t kMaxLineBytes = 64 * 1024;

// A `.traceg` file, plain or `.xz` (chosen by the name's ending). `default_kernel_id` is the
// kernel id when the header has no `-kernel id`. Never null: an unopenable file gives a source
// whose first next() is false with the error.
std::unique_ptr<StoreSource> open_traceg(const std::string& path, uint32_t default_kernel_id = 1);

// An Accel-Sim 2.0 `.tracez` (docs/trace-formats.md): the header text, an optional zstd
// dictionary, per-warp zstd sub-chunks of instruction lines and an index footer. Read in the
// index's order (thread block, then warp), one sub-chunk in memory at a time. Instruction
// lines are those of a `.traceg` of the header's tracer version. Never null, like
// open_traceg().
std::unique_ptr<StoreSource> open_tracez(const std::string& path, uint32_t default_kernel_id = 1);

// A kernel's trace: open_tracez() for a name ending in `.tracez`, else open_traceg().
std::unique_ptr<StoreSource> open_trace(const std::string& path, uint32_t default_kernel_id = 1);

// Any workload trace, by its name: a kernelslist (a name ending in `.g` but not `.traceg`),
// a `.stut`, else a kernel's trace (open_trace).
std::unique_ptr<StoreSource> open_any_trace(const std::string& path);

// One line of a kernelslist.g.
struct KernelListEntry {
  enum class Kind : uint8_t { Kernel, MemcpyHtoD };
  Kind kind = Kind::Kernel;
  std::string path;      // Kernel: the trace file, resolved against the list's directory
  uint64_t address = 0;  // MemcpyHtoD: destination device address
  uint64_t bytes = 0;    // MemcpyHtoD: byte count
  uint32_t line = 0;     // line in the list file
};

// Parse a kernelslist.g. Lines `kernel-*` name traces (relative paths resolved against the
// list's directory), `MemcpyHtoD,0xADDR,COUNT` are copies, blank lines and other lines
// (`MemcpyDtoH...`) are passed over. Errors go to `diags`; false on any.
bool read_kernelslist(const std::string& path, std::vector<KernelListEntry>& out,
                      Diagnostics& diags);

// Every kernel trace of a kernelslist.g in order (kernel ids default to 1, 2, ... by
// position among the kernel lines).
std::unique_ptr<StoreSource> open_kernelslist(const std::string& path);

// --- stu's compact binary trace (`.stut`, docs/trace-formats.md) -----------------------------

constexpr char kStutMagic[8] = {'S', 'T', 'U', 'T', 'R', 'A', 'C', 'E'};
constexpr uint16_t kStutVersion = 2;  // 2: fence records; version 1 files are read too

class StutWriter {
 public:
  // Opens (truncates) `path`; ok() false when it cannot.
  explicit StutWriter(const std::string& path);
  ~StutWriter();
  StutWriter(const StutWriter&) = delete;
  StutWriter& operator=(const StutWriter&) = delete;
  bool ok() const { return ok_; }
  // A kernel record (id and name); write() adds one by itself when the kernel id changes.
  void begin_kernel(uint32_t id, const std::string& name);
  void write(const StoreRecord& r);
  // Appends the passed-over counts and the end record, then closes. False on any I/O error.
  bool finish(const SkipCounts& skipped);

 private:
  void put(const void* p, size_t n);
  std::FILE* f_ = nullptr;
  bool ok_ = false;
  uint64_t records_ = 0;
  bool have_kernel_ = false;
  uint32_t kernel_id_ = 0;
};

std::unique_ptr<StoreSource> open_stut(const std::string& path);

// Writes every record of `src` (and, at the end, its passed-over counts) to the `.stut` file
// `out`, calling `each` (when set) on every record. Errors (the reader's or the writer's) go
// to `error`; false on any.
bool write_stut(StoreSource& src, const std::string& out, std::string& error,
                const std::function<void(const StoreRecord&)>& each = {});

// Convert any trace open_any_trace() reads to a `.stut`. Errors go to `error`; false on any.
bool convert_to_stut(const std::string& in, const std::string& out, std::string& error,
                     uint64_t* stores = nullptr);

}  // namespace stu::workload
