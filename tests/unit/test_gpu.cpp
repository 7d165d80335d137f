// `stu run --on gpu` without a GPU: the recording, the translation into CUDA C++, the fault
// mapping, and the driver and replay against a stand-in for nvcc whose "program" writes the
// results a GPU would (so the rerun after a fault and the not-observable accounting are checked
// on every machine). The real build of the whole library is the CTest gpu_build_library; the run
// on silicon is gpu_run_library.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "stu/gpu/gpu.h"
#include "stu/sts/sts.h"

namespace {

using namespace stu;

sts::Program parse(const std::string& text) {
  sts::Program p;
  Diagnostics d;
  EXPECT_TRUE(sts::parse(text, p, d)) << text;
  return p;
}

const isa::Target kSm90a{90, isa::Target::Suffix::Arch};

TEST(GpuFaultMapping, EachFaultShowsAsItsCudaError) {
  using F = golden::FaultKind;
  EXPECT_EQ(gpu::cuda_error_of(F::None), "cudaSuccess");
  EXPECT_EQ(gpu::cuda_error_of(F::Misaligned), "cudaErrorMisalignedAddress");
  EXPECT_EQ(gpu::cuda_error_of(F::OutOfAllocation), "cudaErrorIllegalAddress");
  EXPECT_EQ(gpu::cuda_error_of(F::IllegalInstruction), "cudaErrorIllegalInstruction");
  EXPECT_EQ(gpu::cuda_error_of(F::IllegalForSpace), "cudaErrorInvalidAddressSpace");
  EXPECT_EQ(gpu::cuda_error_of(F::MbarTxRange), "");  // undefined on hardware
  EXPECT_EQ(gpu::cuda_error_of(F::TmemLaneQuarter), "");
}

TEST(GpuRecord, KeepsSetUpStoresAndWhyAStoreCannotRun) {
  const sts::Program p = parse(R"(target sm_100a
ptx 9.0
cluster 2
alloc global 0x10000, 0x1000
write global 0x10010 u32 = 7
mbarrier init cta=1 addr=0x8 count=1
reg a = 0x10000 + lane * 4
reg v = lane
st.global.u32 [a], v;
expect global 0x10000 u32 = 0
ST [0x10000], R1
reg t = 0
tcgen05.st.sync.aligned.32x32b.x1.b32 [t], {v};
)");
  Diagnostics d;
  const gpu::Recording r = gpu::record(p, kSm90a, d);
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(r.allocations.size(), 1u);
  ASSERT_EQ(r.stores.size(), 3u);
  EXPECT_TRUE(r.stores[0].untranslatable.empty());
  EXPECT_TRUE(r.stores[0].snapshot);  // memory is read before the next store
  EXPECT_NE(r.stores[1].untranslatable.find("SASS"), std::string::npos);
  // Built for sm_90a: tcgen05.st does not exist there (and TMEM would not persist anyway).
  EXPECT_FALSE(r.stores[2].untranslatable.empty());
  EXPECT_EQ(gpu::translatable(r), 1u);
  size_t writes = 0, mbars = 0;
  for (const gpu::Step& s : r.steps) {
    writes += s.kind == gpu::Step::Kind::Write;
    mbars += s.kind == gpu::Step::Kind::Mbarrier;
  }
  EXPECT_EQ(writes, 1u);
  EXPECT_EQ(mbars, 1u);
}

TEST(GpuTranslate, WritesTheStoreAsInlinePtxWithItsRelocatedOperands) {
  const sts::Program p = parse(R"(target sm_90a
ptx 9.0
cluster 2
alloc global 0x10000, 0x1000
reg a = 0x10000 + lane * 8
reg v = lane
reg pol = 0x1000000000000000
st.global.L2::cache_hint.v2.u32 [a+16], {v, v}, pol;
reg s = cluster_addr(1, 0x40) + lane
st.shared::cluster.u8 [s], v;
reg g = 0x7F0001000100 + lane * 4
st.async.mbarrier::complete_tx::bytes.u32 [g], v, [g];
)");
  Diagnostics d;
  const gpu::Recording r = gpu::record(p, kSm90a, d);
  const std::string cu = gpu::translate(r, kSm90a);
  EXPECT_NE(cu.find("st.global.L2::cache_hint.v2.u32 [%0+16], {%1, %2}, %3;"), std::string::npos);
  EXPECT_NE(cu.find("\"l\"(a), \"r\"((unsigned)d.src[0].lo), \"r\"((unsigned)d.src[1].lo), "
                    "\"l\"(d.policy)"),
            std::string::npos);
  // Lane 1 of the first store: allocation 0, offset 1 * 8 + 16 (the kernel subtracts the 16).
  EXPECT_NE(cu.find("{{1u, 0u, 0x18ull}"), std::string::npos);
  // .shared::cluster: rank 1, offset 0x40 + lane (mapa at run time).
  EXPECT_NE(cu.find("{{4u, 1u, 0x41ull}"), std::string::npos);
  // A generic address in CTA 1's shared window: rank 1, offset 0x100 + 4 * lane.
  EXPECT_NE(cu.find("{{2u, 1u, 0x104ull}"), std::string::npos);
  EXPECT_NE(cu.find("st.async.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"),
            std::string::npos);
  EXPECT_NE(cu.find("kTargetSm = 90"), std::string::npos);
  EXPECT_NE(cu.find("launch(store_2)"), std::string::npos);
}

// The driver and the replay, with a stand-in for nvcc: its "program" reports store 1 faulting
// (cudaErrorMisalignedAddress) until it is skipped, and store 0's memory as the GPU would.
TEST(GpuRun, RerunsAfterAFaultAndReportsWhatSiliconCannotObserve) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stu_gpu_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string program = R"(#!/usr/bin/env python3
import sys
out = open(sys.argv[1], 'wb')
skip = set(sys.argv[2:])
out.write(b'DEVICE Stand-in sm_90\n')
out.write(b'S 0 0 cudaSuccess\nM 1\n')
mem = b''.join(i.to_bytes(4, 'little') for i in range(32)) + bytes(0x100 - 128) + bytes(1024)
out.write(mem)
if '1' in skip:
    out.write(b'K 1\nE\n')
    sys.exit(0)
out.write(b'S 1 716 cudaErrorMisalignedAddress\n')
sys.exit(4)
)";
  std::ofstream(dir / "program.py") << program;
  std::ofstream(dir / "nvcc") << "#!/bin/sh\n# stand-in: -o OUT is the 5th argument\n"
                                 "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
                                 "cp '"
                              << (dir / "program.py").string() << "' \"$out\"; chmod +x \"$out\"\n";
  std::filesystem::permissions(dir / "nvcc", std::filesystem::perms::owner_all);
  const sts::Program p = parse(R"(target sm_90a
ptx 9.0
shared 1K
warps 1
alloc global 0x10000, 0x100
reg a = 0x10000 + lane * 4
reg v = lane
st.global.u32 [a], v;
expect faults none
expect lines 1
expect global 0x10000 u32 x32 = i
st.global.u32 [a+2], v;
expect fault lanes=all misaligned
expect global 0x10000 u32 = 0
)");
  gpu::GpuOptions o;
  o.nvcc = (dir / "nvcc").string();
  o.work_dir = (dir / "work").string();
  Diagnostics d;
  const gpu::GpuRun g = gpu::run_on_gpu(p, "t.sts", sts::RunOptions{}, o, d);
  EXPECT_FALSE(g.unavailable) << g.why;
  EXPECT_TRUE(g.why.empty()) << g.why;
  EXPECT_EQ(g.summary.stores, 2u);
  EXPECT_EQ(g.summary.expectations, 5u);
  EXPECT_EQ(g.summary.failed, 0u);
  // `expect lines` (never observable) and the memory after the faulting store.
  EXPECT_EQ(g.summary.not_observable, 2u);
  std::filesystem::remove_all(dir);
}

}  // namespace
