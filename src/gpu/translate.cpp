// Passes 1 and 2a of `stu run --on gpu` (gpu.h): the recording of a test and its translation
// into a CUDA C++ program with inline PTX.
#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "stu/golden/address.h"
#include "stu/gpu/gpu.h"
#include "stu/isa/lowering.h"
#include "stu/isa/printer.h"
#include "stu/isa/validator.h"
#include "stu/sts/model.h"

namespace stu::gpu {

std::string_view cuda_error_of(golden::FaultKind k) {
  using F = golden::FaultKind;
  switch (k) {
    case F::None:
      return "cudaSuccess";
    case F::Misaligned:
    case F::MbarMisaligned:
      return "cudaErrorMisalignedAddress";
    case F::OutOfWindow:
    case F::OutOfAllocation:
    case F::ReadOnly:
      return "cudaErrorIllegalAddress";
    case F::IllegalForSpace:
    case F::MbarNotShared:
      return "cudaErrorInvalidAddressSpace";
    case F::IllegalInstruction:
      return "cudaErrorIllegalInstruction";
    default:  // undefined on hardware (mbarrier misuse, st.async on one CTA), or no GPU form
      return {};
  }
}

namespace {

// --- pass 1 -------------------------------------------------------------------------------

// The model of the recording pass: the host's steps apply to a golden-layout image (so the
// runner's set-up checks behave as on every model) and are kept; a store is kept with its
// operand values and does nothing.
class Recorder final : public sts::StoreModel {
 public:
  explicit Recorder(Recording& r) : r_(r), image_(r.cfg) {}
  std::string_view name() const override { return "gpu"; }
  golden::MachineState& image() override { return image_; }
  // Nothing is observed while recording (no store runs): no expectation is checked.
  bool observes(sts::Effect) const override { return false; }
  FaultVerdict fault_seen(golden::FaultKind) const override { return FaultVerdict::Unobservable; }

  bool host_alloc(uint64_t base, uint64_t size) override {
    if (!image_.allocations().add(base, size)) return false;
    Step s;
    s.kind = Step::Kind::Alloc;
    s.base = base;
    s.size = size;
    r_.steps.push_back(s);
    r_.allocations.emplace_back(base, size);
    return true;
  }
  bool host_write(const golden::Dest& d, uint64_t off, const uint8_t* b, size_t n) override {
    if (!image_.write(d, off, b, n)) return false;
    if (d.space == golden::MemSpace::Local) r_.uses_local = true;
    // Consecutive writes of one `write` statement (element by element) become one step.
    if (!r_.steps.empty()) {
      Step& last = r_.steps.back();
      if (last.kind == Step::Kind::Write && last.dest == d &&
          last.offset + last.bytes.size() == off) {
        last.bytes.insert(last.bytes.end(), b, b + n);
        return true;
      }
    }
    Step s;
    s.kind = Step::Kind::Write;
    s.dest = d;
    s.offset = off;
    s.bytes.assign(b, b + n);
    r_.steps.push_back(std::move(s));
    return true;
  }
  golden::FaultKind host_mbarrier(uint32_t cta, uint64_t off, const golden::MbarOp& op) override {
    Step s;
    s.kind = Step::Kind::Mbarrier;
    s.cta = cta;
    s.offset = off;
    s.op = op;
    r_.steps.push_back(s);
    return golden::FaultKind::None;  // the hardware does the barrier's arithmetic
  }

  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override {
    out.clear();
    RecordedStore st;
    st.ins = ins;
    st.ctx = ctx;
    st.ops = ops;
    st.loc = ins.loc;
    st.untranslatable = why_not(ins, ops, ctx);
    add(std::move(st));
  }
  void execute_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile&, golden::StoreResult& out) override {
    out.clear();
    RecordedStore st;
    st.sass = true;
    st.loc = s.loc;
    st.ctx = ctx;
    st.untranslatable = "SASS ST: CUDA issues PTX, never a chosen SASS instruction";
    add(std::move(st));
  }

 private:
  void add(RecordedStore st) {
    Step s;
    s.kind = Step::Kind::Store;
    s.store = r_.stores.size();
    r_.steps.push_back(s);
    r_.stores.push_back(std::move(st));
  }
  // Why a store cannot run from a CUDA program; empty when it can.
  std::string why_not(const isa::Instruction& ins, const golden::WarpOperands& ops,
                      const golden::WarpContext& ctx) {
    if (r_.target.sm < 90) return "the program launches clusters, which need sm_90 or newer";
    if (ins.op == isa::Opcode::Tcgen05St)
      return "tcgen05.st: tensor memory does not persist between kernel launches";
    if (ins.op == isa::Opcode::StBulk) return "st.bulk is not executed by the models";
    if (ins.addr.base == isa::Address::Base::Immediate)
      return "an immediate local address would write the program's own stack frame";
    {
      // nvcc's ptxas must take the store as the program writes it: a register address, PTX
      // ISA 9.0 (the newest it reads), the program's target.
      isa::Instruction as_written = ins;
      as_written.addr.base = isa::Address::Base::Register;
      as_written.guard = isa::Guard{};
      Diagnostics d;
      if (!isa::validate(as_written, isa::CheckContext{r_.target, isa::kPtxasMaxVersion, nullptr},
                         d)) {
        for (const auto& x : d.all())
          if (x.severity == Severity::Error)
            return "ptxas 13.0 does not take it at PTX ISA " + isa::kPtxasMaxVersion.str() + ": " +
                   x.message;
      }
    }
    if (ins.space && (*ins.space == isa::Space::ParamFunc || *ins.space == isa::Space::Param))
      return ".param::func: the program has no call frame to store into";
    for (uint32_t m = ctx.active; m; m &= m - 1) {
      const unsigned l = unsigned(__builtin_ctz(m));
      const uint64_t a = ops.addr[l] + uint64_t(ins.addr.offset);
      if (!ins.space) {
        const golden::Resolved res =
            golden::resolve_generic(r_.cfg, a, golden::ThreadId{ctx.cta, ctx.warp, uint8_t(l)});
        if (!res.fault && res.dest.space == golden::MemSpace::ParamFunc)
          return "a generic address in the .param::func window: the program has no call frame";
        if (!res.fault && res.dest.space == golden::MemSpace::Local) r_.uses_local = true;
      } else if (isa::effective(*ins.space) == isa::Space::Local) {
        r_.uses_local = true;
      }
    }
    return {};
  }

  Recording& r_;
  golden::MachineState image_;
};

// --- pass 2a ------------------------------------------------------------------------------

// Where a lane's address lands in the program: how the kernel rebuilds it (`Reloc` below).
enum RelocKind : unsigned {
  kRaw = 0,
  kGlobal = 1,         // idx: the allocation, off: the offset in it (a generic/global address)
  kSharedGeneric = 2,  // idx: the CTA rank, off: the offset (a generic address)
  kSharedCta = 3,      // off: the offset (a .shared::cta window address)
  kSharedCluster = 4,  // idx: the rank, off: the offset (a .shared::cluster window address)
  kLocalGeneric = 5,   // off: the offset in the thread's local memory (a generic address)
  kLocal = 6,          // off: the offset (a .local window address)
  kUnmapped = 7,       // nothing is there: off keeps the address's low 16 bits (its alignment)
};
struct Reloc {
  unsigned kind = kRaw;
  unsigned idx = 0;
  uint64_t off = 0;
};

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64 "ull", v);
  return b;
}

// The location a store of `size` bytes at `a` names, for lane `lane` of `ctx`.
// Only the first `live` allocations exist when the store runs (the program makes them all at
// start; an address in a later one is, for this store, outside every allocation).
Reloc relocate(const Recording& r, const isa::Instruction& ins, uint64_t a, unsigned size,
               const golden::WarpContext& ctx, unsigned lane, size_t live) {
  auto global = [&](uint64_t at) {
    for (size_t i = 0; i < live && i < r.allocations.size(); ++i) {
      const auto& [base, len] = r.allocations[i];
      if (at >= base && at - base < len && size <= len - (at - base))
        return Reloc{kGlobal, unsigned(i), at - base};
    }
    return Reloc{kUnmapped, 0, at & 0xFFFF};  // outside every allocation: nothing mapped there
  };
  const uint64_t stride = r.cfg.map.shared_cta_stride;
  if (ins.space) {
    switch (isa::effective(*ins.space)) {
      case isa::Space::Global:
        return global(a);
      case isa::Space::SharedCta:
        return Reloc{kSharedCta, 0, a};
      case isa::Space::SharedCluster:
        if (a / stride >= r.cfg.cluster_ctas) return Reloc{kUnmapped, 0, a & 0xFFFF};
        return Reloc{kSharedCluster, unsigned(a / stride), a % stride};
      case isa::Space::Local:
        return Reloc{kLocal, 0, a};
      default:
        return Reloc{kRaw, 0, a};
    }
  }
  const golden::Resolved res =
      golden::resolve_generic(r.cfg, a, golden::ThreadId{ctx.cta, ctx.warp, uint8_t(lane)});
  if (res.fault) return Reloc{kUnmapped, 0, a & 0xFFFF};
  switch (res.dest.space) {
    case golden::MemSpace::Global:
      return global(a);
    case golden::MemSpace::Shared:
      return Reloc{kSharedGeneric, res.dest.cta, res.offset};
    case golden::MemSpace::Local:
      return Reloc{kLocalGeneric, 0, res.offset};
    default:  // kernel .param and .const windows: read-only, nothing the program maps there
      return Reloc{kUnmapped, 0, a & 0xFFFF};
  }
}

// The inline PTX of a store: its opcode and qualifiers as written, operands as placeholders.
// Every source is a register operand (immediates and addends were evaluated by the runner).
struct AsmStore {
  std::string text;
  std::vector<std::string> operands;  // "\"l\"(a)", ...
  bool wide = false;                  // .b128: the source goes through a .b128 register
};

AsmStore asm_store(const isa::Instruction& ins) {
  AsmStore s;
  std::string addr = "[%0";
  if (ins.addr.offset != 0) addr += "+" + std::to_string(ins.addr.offset);
  addr += "]";
  s.operands.push_back("\"l\"(a)");
  const unsigned elems = ins.vec_lanes();
  const unsigned esize = ins.type ? isa::bytes_of(*ins.type) : 4;
  const bool fp = ins.type && isa::kind_of(*ins.type) == isa::TypeKind::Float;
  // st.async takes a register of exactly the element's width: 8-bit elements go through .u8 /
  // .s8 registers declared in the asm (no inline-asm constraint has 8 bits); 16-bit ones use "h"
  // (ptxas 13.0: "Arguments mismatch" for a wider register).
  const bool byte_regs = esize == 1 && ins.op == isa::Opcode::StAsync;
  const bool is_signed = ins.type && isa::kind_of(*ins.type) == isa::TypeKind::Signed;
  std::string prefix;
  std::string src;
  unsigned n = 1;
  if (esize == 16) {  // .b128
    s.wide = true;
    s.operands.push_back("\"l\"(d.src[0].lo)");
    s.operands.push_back("\"l\"(d.src[0].hi)");
    src = "q128";
    n = 3;
  } else {
    if (elems > 1) src += "{";
    for (unsigned e = 0; e < elems; ++e) {
      if (e) src += ", ";
      const bool sink = ins.src.size() == elems && ins.src[e].kind == isa::Operand::Kind::Sink;
      if (sink) {
        src += "_";
        continue;
      }
      const std::string v = "d.src[" + std::to_string(e) + "].lo";
      if (byte_regs) {
        const std::string t = "b" + std::to_string(e);
        prefix += std::string(".reg ") + (is_signed ? ".s8 " : ".u8 ") + t + "; cvt" +
                  (is_signed ? ".s8.s32 " : ".u8.u32 ") + t + ", %" + std::to_string(n++) + "; ";
        src += t;
        s.operands.push_back("\"r\"((unsigned)" + v + ")");
        continue;
      }
      src += "%" + std::to_string(n++);
      if (esize == 2) {
        s.operands.push_back("\"h\"((unsigned short)" + v + ")");
        continue;
      }
      if (esize == 8)
        s.operands.push_back(fp ? "\"d\"(__longlong_as_double((long long)" + v + "))"
                                : "\"l\"(" + v + ")");
      else
        s.operands.push_back(fp && esize == 4 ? "\"f\"(__uint_as_float((unsigned)" + v + "))"
                                              : "\"r\"((unsigned)" + v + ")");
    }
    if (elems > 1) src += "}";
  }
  std::string text = isa::print_opcode(ins) + " " + addr + ", " + src;
  if (ins.policy) {
    text += ", %" + std::to_string(n++);
    s.operands.push_back("\"l\"(d.policy)");
  }
  if (ins.mbar) {
    text += ", [%" + std::to_string(n++);
    if (ins.mbar->offset != 0) text += "+" + std::to_string(ins.mbar->offset);
    text += "]";
    s.operands.push_back("\"l\"(m)");
  }
  text += ";";
  if (s.wide)
    text = "{ .reg .b128 q128; mov.b128 q128, {%1, %2}; " + text + " }";
  else if (!prefix.empty())
    text = "{ " + prefix + text + " }";
  s.text = text;
  return s;
}

const char* kIncludes =
    R"(// Generated by `stu run --on gpu` from .sts tests (docs/sts-format.md, "On a GPU"). Each
// store of a test is one kernel launch of one cluster; shared and local memory persist between
// launches through global buffers. Usage: PROGRAM RESULTS [SKIP...]: writes, store by store, the
// CUDA error that ended the kernel and the memory the test reads next; the stores SKIP are not
// run (one that faulted in an earlier run: a fault ends the CUDA context).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <cuda_runtime.h>

#define STU_LOCAL_BUFFER __align__(32) unsigned char lmem[kLocal ? kLocal : 1]
)";

const char* kPreamble = R"(
struct Reloc { unsigned kind, idx; unsigned long long off; };
struct Src { unsigned long long lo, hi; };
struct LaneData { Reloc a, m; unsigned long long policy; Src src[8]; };

__device__ unsigned char* g_alloc[kAllocs + 1];
__device__ unsigned char* g_shared;  // kCtas x kShared bytes
__device__ unsigned long long g_opaque[kCtas * kThreads];  // see reloc()
__device__ unsigned char* g_local;   // kCtas x kThreads x kLocal bytes

struct Frame { unsigned char* smem; unsigned char* lmem; unsigned rank; };

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;"
               ::: "memory");
}
__device__ __forceinline__ unsigned shared_addr(const void* p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// A lane's address as the test names it, in this program's memory.
__device__ unsigned long long reloc(const Reloc& r, const Frame& f) {
  switch (r.kind) {
    case 1: return (unsigned long long)(g_alloc[r.idx] + r.off);
    case 2: {
      unsigned long long a = (unsigned long long)(f.smem + r.off), out;
      asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(a), "r"(r.idx));
      return out;
    }
    case 3: return shared_addr(f.smem) + r.off;
    case 4: {
      unsigned out;
      asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                   : "=r"(out) : "r"(shared_addr(f.smem) + (unsigned)r.off), "r"(r.idx));
      return out;
    }
    case 5: {
      // Through memory, so that ptxas cannot tell the generic address points into local memory
      // (it would make a generic `st.volatile` a `.local` one, which it then rejects).
      volatile unsigned long long* slot = &g_opaque[f.rank * kThreads + threadIdx.x];
      *slot = (unsigned long long)(f.lmem + r.off);
      return *slot;
    }
    case 6: return (unsigned long long)__cvta_generic_to_local(f.lmem) + r.off;
    case 7: return 0x00000F0000000000ull + r.off;  // nothing is mapped there
    default: return r.off;
  }
}

__device__ void enter(Frame& f, unsigned char* smem, unsigned char* lmem) {
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(f.rank));
  f.smem = smem;
  f.lmem = lmem;
  for (unsigned i = threadIdx.x; i < kShared; i += blockDim.x)
    smem[i] = g_shared[(size_t)f.rank * kShared + i];
  if constexpr (kLocal != 0) {
    const unsigned char* from = g_local + ((size_t)f.rank * kThreads + threadIdx.x) * kLocal;
    for (unsigned i = 0; i < kLocal; ++i) lmem[i] = from[i];
  }
  __syncthreads();
  cluster_sync();
}

__device__ void leave(Frame& f, bool async) {
  if (async) __nanosleep(50000);  // st.async lands asynchronously: let it arrive
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  cluster_sync();
  for (unsigned i = threadIdx.x; i < kShared; i += blockDim.x)
    g_shared[(size_t)f.rank * kShared + i] = f.smem[i];
  if constexpr (kLocal != 0) {
    unsigned char* to = g_local + ((size_t)f.rank * kThreads + threadIdx.x) * kLocal;
    for (unsigned i = 0; i < kLocal; ++i) to[i] = f.lmem[i];
  }
}

static FILE* g_out;
static unsigned char* h_alloc[kAllocs + 1];
static unsigned char* h_shared;
static unsigned char* h_local;
static std::set<int> g_skip;

static int fail(const char* what, cudaError_t e) {
  fprintf(stderr, "stu gpu program: %s: %s\n", what, cudaGetErrorName(e));
  return 5;
}

// A set-up step the GPU rejected: the results so far stand, the rest cannot run.
static int setup_failed(const char* what, cudaError_t e) {
  fprintf(g_out, "U %s %s\n", what, cudaGetErrorName(e));
  fclose(g_out);
  fprintf(stderr, "stu gpu program: %s: %s\n", what, cudaGetErrorName(e));
  return 6;
}

template <typename K>
static cudaError_t launch(K kernel) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(kCtas, 1, 1);
  c.blockDim = dim3(kThreads, 1, 1);
  c.dynamicSmemBytes = kShared;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = kCtas;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  c.attrs = at;
  c.numAttrs = 1;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared);
  if (kCtas > 8) cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaError_t e = cudaLaunchKernelEx(&c, kernel);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e;
}

// The memory the test reads after store `k`, in the order stu reads it back.
static int snapshot() {
  for (int i = 0; i < kAllocs; ++i) {
    unsigned char* h = (unsigned char*)malloc(kAllocSize[i] ? kAllocSize[i] : 1);
    if (cudaMemcpy(h, h_alloc[i], kAllocSize[i], cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    fwrite(h, 1, kAllocSize[i], g_out);
    free(h);
  }
  const size_t sh = (size_t)kCtas * kShared, lo = (size_t)kCtas * kThreads * kLocal;
  unsigned char* h = (unsigned char*)malloc(sh + lo + 1);
  if (cudaMemcpy(h, h_shared, sh, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  if (lo && cudaMemcpy(h + sh, h_local, lo, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  fwrite(h, 1, sh + lo, g_out);
  free(h);
  return 0;
}

// Store k ran (or was skipped): its record, and the memory when the test reads it next.
static int store_done(int k, cudaError_t e, bool snap) {
  fprintf(g_out, "S %d %d %s\n", k, (int)e, e == cudaSuccess ? "cudaSuccess" : cudaGetErrorName(e));
  if (e != cudaSuccess) {
    fclose(g_out);
    exit(4);  // the context is gone: stu runs the program again without this store
  }
  fprintf(g_out, "M %d\n", snap ? 1 : 0);
  if (snap && snapshot()) return fail("snapshot", cudaGetLastError());
  fflush(g_out);
  return 0;
}

static int write_bytes(unsigned char* dev, const unsigned char* b, size_t n) {
  cudaError_t e = cudaMemcpy(dev, b, n, cudaMemcpyHostToDevice);
  return e == cudaSuccess ? 0 : fail("host write", e);
}

static int setup(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s RESULTS [SKIP...]\n", argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; ++i) g_skip.insert(atoi(argv[i]));
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "stu gpu program: no CUDA device\n");
    return 3;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  // Code for an `a` (architecture-specific) target runs on that architecture only.
  const int sm = p.major * 10 + p.minor;
  if (kTargetExact ? sm != kTargetSm : sm < kTargetSm) {
    fprintf(stderr, "stu gpu program: device sm_%d%d cannot run %s code\n", p.major, p.minor,
            kTarget);
    return 3;
  }
  g_out = fopen(argv[1], "wb");
  if (!g_out) {
    fprintf(stderr, "stu gpu program: cannot write %s\n", argv[1]);
    return 2;
  }
  fprintf(g_out, "DEVICE %s sm_%d%d\n", p.name, p.major, p.minor);
  for (int i = 0; i < kAllocs; ++i) {
    // Padded so that the allocation starts at the test's base address modulo 256: alignment is
    // kept through the relocation.
    unsigned char* raw = nullptr;
    cudaError_t e = cudaMalloc(&raw, kAllocSize[i] + 256);
    if (e != cudaSuccess) return fail("cudaMalloc", e);
    cudaMemset(raw, kFill, kAllocSize[i] + 256);
    h_alloc[i] = raw + ((kAllocBase[i] - (unsigned long long)raw) & 255);
  }
  const size_t sh = (size_t)kCtas * kShared, lo = (size_t)kCtas * kThreads * kLocal;
  cudaError_t e = cudaMalloc(&h_shared, sh);
  if (e != cudaSuccess) return fail("cudaMalloc", e);
  cudaMemset(h_shared, kFill, sh);
  if (lo) {
    e = cudaMalloc(&h_local, lo);
    if (e != cudaSuccess) return fail("cudaMalloc", e);
    cudaMemset(h_local, kFill, lo);
  }
  cudaMemcpyToSymbol(g_alloc, h_alloc, sizeof(h_alloc));
  cudaMemcpyToSymbol(g_shared, &h_shared, sizeof(h_shared));
  cudaMemcpyToSymbol(g_local, &h_local, sizeof(h_local));
  return 0;
}
)";

// A C++ initializer of a lane's data.
std::string lane_init(const Reloc& a, const Reloc& m, uint64_t policy,
                      const std::vector<golden::RegValue>& src) {
  std::string s = "{{" + std::to_string(a.kind) + "u, " + std::to_string(a.idx) + "u, " +
                  hex(a.off) + "}, {" + std::to_string(m.kind) + "u, " + std::to_string(m.idx) +
                  "u, " + hex(m.off) + "}, " + hex(policy) + ", {";
  for (size_t e = 0; e < src.size(); ++e)
    s += (e ? ", {" : "{") + hex(src[e].lo) + ", " + hex(src[e].hi) + "}";
  return s + "}}";
}

}  // namespace

size_t translatable(const Recording& r) {
  size_t n = 0;
  for (const RecordedStore& s : r.stores) n += s.untranslatable.empty();
  return n;
}

Recording record(const sts::Program& p, const isa::Target& arch, Diagnostics& diags) {
  Recording r;
  r.cfg = p.cfg;
  r.target = arch;
  Recorder model(r);
  sts::RunOptions ro;
  Diagnostics run;  // the program's own runtime errors (its expectations are not checked here)
  sts::run(p, model, ro, run);
  for (const auto& d : run.all())
    if (d.severity == Severity::Error) diags.error(d.loc, d.message);
  // A store's snapshot is wanted when memory is read before the next store.
  size_t next = 0;
  for (const sts::Stmt& s : p.stmts) {
    while (next < r.stores.size() && r.stores[next].loc.line <= s.loc.line) ++next;
    if (s.kind == sts::StmtKind::Expect && s.word == "memory" && next > 0 &&
        !(s.mem.space == golden::MemSpace::Tmem && !s.mem.generic))
      r.stores[next - 1].snapshot = true;
  }
  return r;
}

static std::string translate_body(const Recording& r, const isa::Target& arch,
                                  const std::string& ns) {
  std::ostringstream o;
  const golden::ModelConfig& c = r.cfg;
  o << "\n// ---- " << ns << ": for " << arch.str() << "\n";
  o << "namespace " << ns << " {\n";
  o << "static constexpr int kAllocs = " << r.allocations.size() << ";\n";
  o << "static const unsigned long long kAllocBase[] = {";
  for (const auto& [base, size] : r.allocations) o << hex(base) << ", ";
  o << "0};\nstatic const unsigned long long kAllocSize[] = {";
  for (const auto& [base, size] : r.allocations) o << hex(size) << ", ";
  o << "0};\n";
  o << "static constexpr unsigned kCtas = " << c.cluster_ctas << ";\n";
  o << "static constexpr unsigned kThreads = " << c.threads_per_cta() << ";\n";
  o << "static constexpr unsigned kShared = " << c.shared_bytes << ";\n";
  o << "static constexpr unsigned kLocal = " << (r.uses_local ? c.local_bytes : 0) << ";\n";
  o << "static constexpr int kFill = " << unsigned(c.fill) << ";\n";
  o << "static constexpr int kTargetSm = " << arch.sm << ";\n";
  o << "static constexpr bool kTargetExact = "
    << (arch.suffix == isa::Target::Suffix::None ? "false" : "true") << ";\n";
  o << "static const char* const kTarget = \"" << arch.str() << "\";\n";
  o << kPreamble;

  // The kernels: one per store, one per mbarrier step.
  std::ostringstream main;
  size_t mbar_kernels = 0;
  size_t live_allocs = 0;  // allocations made so far (Recording::allocations is in step order)
  for (const Step& s : r.steps) {
    switch (s.kind) {
      case Step::Kind::Alloc:
        ++live_allocs;
        break;
      case Step::Kind::Write: {
        std::string dev;
        const auto& d = s.dest;
        if (d.space == golden::MemSpace::Global) {
          for (size_t i = 0; i < r.allocations.size(); ++i) {
            const auto& [base, size] = r.allocations[i];
            if (s.offset >= base && s.offset - base < size &&
                s.bytes.size() <= size - (s.offset - base))
              dev = "h_alloc[" + std::to_string(i) + "] + " + hex(s.offset - base);
          }
        } else if (d.space == golden::MemSpace::Shared) {
          dev = "h_shared + " + std::to_string(d.cta) + "ull * kShared + " + hex(s.offset);
        } else if (d.space == golden::MemSpace::Local && r.uses_local) {
          dev = "h_local + (" + std::to_string(d.cta) + "ull * kThreads + " +
                std::to_string(d.thread) + ") * kLocal + " + hex(s.offset);
        }
        if (dev.empty()) break;  // kernel .param, .const, .param::func: no store reads them
        main << "  { static const unsigned char b[] = {";
        for (size_t i = 0; i < s.bytes.size(); ++i) main << (i ? "," : "") << unsigned(s.bytes[i]);
        main << "};\n    if (write_bytes(" << dev << ", b, sizeof b)) return 5; }\n";
        break;
      }
      case Step::Kind::Mbarrier: {
        const size_t k = mbar_kernels++;
        const char* ops[] = {
            "mbarrier.init.shared::cta.b64 [%0], %1;",
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;",
            "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;",
            // One arrival an instruction, `count` times (the count-operand form trapped on an
            // H200 in every use: tests/data/silicon/h200-2026-11-26-device).
            "{ .reg .b64 mst; mbarrier.arrive.release.cta.shared::cta.b64 mst, [%0]; }",
            "{ .reg .b64 mst; mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 mst, [%0], "
            "%1; }",
        };
        const bool arrive = s.op.kind == golden::MbarOpKind::Arrive;
        o << "__global__ void mbar_" << k << "() {\n"
          << "  extern __shared__ __align__(128) unsigned char smem[];\n"
          << "  STU_LOCAL_BUFFER;\n  Frame f;\n  enter(f, smem, lmem);\n"
          << "  if (f.rank == " << s.cta << "u && threadIdx.x == 0)\n"
          << (arrive ? "    for (unsigned i = 0; i < " + std::to_string(s.op.count) + "u; ++i)\n"
                     : std::string())
          << "    asm volatile(\"" << ops[unsigned(s.op.kind)] << "\" :: \"r\"(shared_addr(smem + "
          << hex(s.offset) << "))";
        if (!arrive) o << ", \"r\"(" << s.op.count << "u)";
        o << " : \"memory\");\n"
          << "  leave(f, false);\n}\n";
        main << "  { cudaError_t e = launch(mbar_" << k
             << "); if (e != cudaSuccess) return setup_failed(\"mbarrier\", e); }\n";
        break;
      }
      case Step::Kind::Store: {
        const RecordedStore& st = r.stores[s.store];
        main << "  // line " << st.loc.line << "\n";
        if (!st.untranslatable.empty()) {
          main << "  fprintf(g_out, \"X " << s.store << "\\n\"); fclose(g_out); return 0;  // "
               << st.untranslatable << "\n";
          break;
        }
        const isa::Instruction& ins = st.ins;
        const unsigned elems = ins.vec_lanes();
        const unsigned size = (ins.type ? isa::bytes_of(*ins.type) : 4) * elems;
        o << "__device__ const LaneData lanes_" << s.store << "[32] = {\n";
        for (unsigned l = 0; l < 32; ++l) {
          const uint64_t a = ins.addr.base == isa::Address::Base::Immediate
                                 ? uint64_t(ins.addr.offset)
                                 : st.ops.addr[l] + uint64_t(ins.addr.offset);
          const Reloc ra = relocate(r, ins, a, size, st.ctx, l, live_allocs);
          Reloc rm;
          if (ins.mbar) {
            const uint64_t m = st.ops.mbar[l] + uint64_t(ins.mbar->offset);
            rm = relocate(r, ins, m, 8, st.ctx, l, live_allocs);
          }
          std::vector<golden::RegValue> src;
          for (unsigned e = 0; e < elems && e < 8; ++e) src.push_back(st.ops.value(e, l));
          o << "  " << lane_init(ra, rm, st.ops.policy[l], src) << ",\n";
        }
        o << "};\n";
        const AsmStore as = asm_store(ins);
        std::string operands;
        for (size_t i = 0; i < as.operands.size(); ++i)
          operands += (i ? ", " : "") + as.operands[i];
        const bool async = ins.op == isa::Opcode::StAsync;
        o << "__global__ void store_" << s.store << "() {\n"
          << "  extern __shared__ __align__(128) unsigned char smem[];\n"
          << "  STU_LOCAL_BUFFER;\n  Frame f;\n  enter(f, smem, lmem);\n"
          << "  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
          << "  if (f.rank == " << st.ctx.cta << "u && warp == " << st.ctx.warp << "u && ((0x"
          << std::hex << st.ctx.active << std::dec << "u >> lane) & 1u)) {\n"
          << "    const LaneData& d = lanes_" << s.store << "[lane];\n"
          << "    const unsigned long long a = reloc(d.a, f) - (unsigned long long)("
          << ins.addr.offset << "ll);\n";
        if (ins.mbar)
          o << "    const unsigned long long m = reloc(d.m, f) - (unsigned long long)("
            << ins.mbar->offset << "ll);\n";
        o << "    asm volatile(\"" << as.text << "\" :: " << operands << " : \"memory\");\n"
          << "  }\n  leave(f, " << (async ? "true" : "false") << ");\n}\n";
        main << "  if (g_skip.count(" << s.store << ")) { fprintf(g_out, \"K " << s.store
             << "\\n\"); } else if (store_done(" << s.store << ", launch(store_" << s.store << "), "
             << (st.snapshot ? "true" : "false") << ")) return 5;\n";
        break;
      }
    }
  }
  o << "\nint run(int argc, char** argv) {\n"
    << "  if (int rc = setup(argc, argv)) return rc;\n"
    << main.str() << "  fprintf(g_out, \"E\\n\");\n  fclose(g_out);\n  return 0;\n}\n"
    << "}  // namespace " << ns << "\n";
  return o.str();
}

std::string translate(const Recording& r, const isa::Target& arch) {
  return std::string(kIncludes) + translate_body(r, arch, "test") +
         "\nint main(int argc, char** argv) { return test::run(argc, argv); }\n";
}

std::string translate_batch(const std::vector<const Recording*>& rs, const isa::Target& arch) {
  std::string s = kIncludes;
  std::string dispatch;
  for (size_t i = 0; i < rs.size(); ++i) {
    const std::string ns = "test" + std::to_string(i);
    s += translate_body(*rs[i], arch, ns);
    dispatch += "  if (argc > 1 && atoi(argv[1]) == " + std::to_string(i) + ") return " + ns +
                "::run(argc - 1, argv + 1);\n";
  }
  return s + "\nint main(int argc, char** argv) {\n" + dispatch + "  return 2;\n}\n";
}

}  // namespace stu::gpu
