// Workload readers: Accel-Sim .traceg (v3, v4, v6, every address-compression mode, xz,
// kernelslist.g), Accel-Sim 2.0 .tracez, the compact .stut format, and their diagnostics.
// Expectations are written by hand from the format's description (docs/trace-formats.md), not taken
// from the reader.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../support/tracez_writer.h"
#include "stu/workload/trace.h"

namespace stu::workload {
namespace {

using test_support::make_tracez;
using test_support::split_traceg;
using test_support::TzCta;

const std::string kDir = std::string(STU_SOURCE_DIR) + "/tests/data/traces/";

std::string temp_path(const char* name);
void write_file(const std::string& path, const std::string& text);

std::vector<StoreRecord> read_all(StoreSource& s) {
  std::vector<StoreRecord> out;
  StoreRecord r;
  while (s.next(r)) out.push_back(r);
  return out;
}

std::array<uint64_t, 32> lanes(std::initializer_list<std::pair<unsigned, uint64_t>> l) {
  std::array<uint64_t, 32> a{};
  for (auto [lane, addr] : l) a[lane] = addr;
  return a;
}

std::array<uint64_t, 32> strided(uint32_t mask, uint64_t base, int64_t stride) {
  std::array<uint64_t, 32> a{};
  uint64_t k = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1) a[l] = base + uint64_t(stride) * k++;
  return a;
}

TEST(WorkloadSpace, FromOpcode) {
  StoreSpace s;
  ASSERT_TRUE(store_space_of("STG.E.64", s));
  EXPECT_EQ(s, StoreSpace::Global);
  ASSERT_TRUE(store_space_of("STS", s));
  EXPECT_EQ(s, StoreSpace::Shared);
  ASSERT_TRUE(store_space_of("STL.128", s));
  EXPECT_EQ(s, StoreSpace::Local);
  ASSERT_TRUE(store_space_of("ST.E.STRONG.GPU", s));
  EXPECT_EQ(s, StoreSpace::Generic);
  EXPECT_FALSE(store_space_of("STSM.16.M88.4", s));
  EXPECT_FALSE(store_space_of("STTM", s));
  EXPECT_FALSE(store_space_of("LDG.E", s));
}

TEST(WorkloadTraceg, V4EveryCompressionMode) {
  auto src = open_traceg(kDir + "v4_modes.traceg");
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 7u);
  const KernelInfo& k = src->kernel();
  EXPECT_EQ(k.id, 3u);
  EXPECT_EQ(k.name, "_Z5storePfS_");
  EXPECT_EQ(k.grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(k.block, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(k.shmem, 256u);
  EXPECT_EQ(k.nregs, 16u);
  EXPECT_EQ(k.binary_version, 90u);
  EXPECT_EQ(k.shmem_base, 0x7f0000000000u);
  EXPECT_EQ(k.local_base, 0x7e0000000000u);
  EXPECT_EQ(k.nvbit_version, "1.7.1");
  EXPECT_EQ(k.tracer_version, 4u);
  EXPECT_FALSE(k.lineinfo);

  // Mode 0, list all: lanes 0..3.
  EXPECT_EQ(r[0].kernel_id, 3u);
  EXPECT_EQ(r[0].cta, (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(r[0].warp, 0u);
  EXPECT_EQ(r[0].pc, 0x20u);
  EXPECT_EQ(r[0].opcode, "STG.E.64");
  EXPECT_EQ(r[0].space, StoreSpace::Global);
  EXPECT_EQ(r[0].mask, 0xfu);
  EXPECT_EQ(r[0].width, 8u);
  EXPECT_EQ(r[0].addr, lanes({{0, 0x1000}, {1, 0x1008}, {2, 0x1010}, {3, 0x1018}}));
  // Mode 1, base+stride over the full warp.
  EXPECT_EQ(r[1].opcode, "STS");
  EXPECT_EQ(r[1].space, StoreSpace::Shared);
  EXPECT_EQ(r[1].mask, 0xffffffffu);
  EXPECT_EQ(r[1].width, 4u);
  EXPECT_EQ(r[1].addr[0], 0x7f0000000100u);
  EXPECT_EQ(r[1].addr[1], 0x7f0000000104u);
  EXPECT_EQ(r[1].addr[31], 0x7f000000017cu);
  // Mode 2, base+deltas: lanes 0, 2, 31; deltas 32 then -16.
  EXPECT_EQ(r[2].opcode, "STL.128");
  EXPECT_EQ(r[2].space, StoreSpace::Local);
  EXPECT_EQ(r[2].width, 16u);
  EXPECT_EQ(r[2].mask, 0x80000005u);
  EXPECT_EQ(r[2].addr, lanes({{0, 0x7e0000000000}, {2, 0x7e0000000020}, {31, 0x7e0000000010}}));
  // The LDG between them is passed over; ST is generic, a negative delta.
  EXPECT_EQ(r[3].opcode, "ST.E");
  EXPECT_EQ(r[3].space, StoreSpace::Generic);
  EXPECT_EQ(r[3].pc, 0x60u);
  EXPECT_EQ(r[3].addr, lanes({{0, 0x3000}, {1, 0x2ffc}}));
  // Warp 1: a full warp, then a store with no active lane (the tracer writes `1 0x0 0`).
  EXPECT_EQ(r[4].warp, 1u);
  EXPECT_EQ(r[4].addr, strided(0xffffffff, 0x1000, 4));
  EXPECT_EQ(r[5].mask, 0u);
  EXPECT_EQ(r[5].addr, lanes({}));
  // Second CTA: base+stride over one run of lanes 16..23.
  EXPECT_EQ(r[6].cta, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(r[6].mask, 0x00ff0000u);
  EXPECT_EQ(r[6].addr, strided(0x00ff0000, 0x1100, 8));
  EXPECT_EQ(r[6].addr[16], 0x1100u);
  EXPECT_EQ(r[6].addr[23], 0x1138u);

  // Instructions each record's warp issued since its previous record, the record included:
  // S2R, IMAD, STG.E.64 | STS | STL.128 | LDG.E, ST.E | (warp 1) STG.E | STG.E | (CTA 1) STG.E.64.
  const std::vector<uint32_t> issued{3, 1, 1, 2, 1, 1, 1};
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].issued, issued[i]) << "record " << i;

  EXPECT_EQ(src->instructions(), 12u);
  EXPECT_EQ(src->skipped().total, 5u);
  std::map<std::string, uint64_t> want{{"EXIT", 2}, {"IMAD", 1}, {"LDG.E", 1}, {"S2R", 1}};
  EXPECT_EQ(src->skipped().by_opcode, want);
}

TEST(WorkloadTraceg, V3HasNoImmediateOrLineinfo) {
  auto src = open_traceg(kDir + "v3.traceg", 9);
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(src->kernel().tracer_version, 3u);
  EXPECT_EQ(r[0].kernel_id, 1u);  // `-kernel id = 1` wins over the default 9
  EXPECT_EQ(r[0].cta, (std::array<uint32_t, 3>{0, 2, 1}));
  EXPECT_EQ(r[0].opcode, "STG.E.SYS");
  EXPECT_EQ(r[0].mask, 1u);
  EXPECT_EQ(r[0].addr, lanes({{0, 0x7f8000000040}}));  // mode 2 with one lane: no delta
  EXPECT_EQ(src->instructions(), 3u);
  EXPECT_EQ(src->skipped().total, 2u);
}

TEST(WorkloadTraceg, XzWithLineinfo) {
  auto src = open_traceg(kDir + "app/kernel-2.traceg.xz");
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(src->kernel().lineinfo);
  EXPECT_EQ(r[0].kernel_id, 2u);
  EXPECT_EQ(r[0].warp, 1u);
  EXPECT_EQ(r[0].pc, 0x40u);
  EXPECT_EQ(r[0].opcode, "STS.128");
  EXPECT_EQ(r[0].width, 16u);
  EXPECT_EQ(r[0].addr, strided(0x0000ff00, 0x7f0000000000, 16));
  EXPECT_EQ(src->skipped().by_opcode.at("BAR"), 1u);
}

TEST(WorkloadTraceg, TruncatedXzIsAnError) {
  const std::string path = kDir + "truncated.traceg.xz";
  auto src = open_traceg(path);
  read_all(*src);
  ASSERT_FALSE(src->ok());
  std::string e = src->error_text();
  EXPECT_EQ(e.rfind(path + ":", 0), 0u) << e;
  EXPECT_NE(e.find(": error: truncated xz stream\n"), std::string::npos) << e;
}

TEST(WorkloadTraceg, NotXz) {
  const std::string path = temp_path("not.traceg.xz");
  write_file(path, "-accelsim tracer version = 4\n");
  auto src = open_traceg(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ":1: error: not an xz stream\n");
  std::remove(path.c_str());
}

TEST(WorkloadTraceg, LineTooLong) {
  const std::string path = temp_path("long.traceg");
  write_file(path, "-accelsim tracer version = 4\n\n#" + std::string(kMaxLineBytes, 'x') + "\n");
  auto src = open_traceg(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ":3: error: line longer than 65536 bytes\n");
  std::remove(path.c_str());
}

TEST(WorkloadTraceg, MissingFile) {
  auto src = open_traceg(kDir + "no-such.traceg");
  StoreRecord r;
  EXPECT_FALSE(src->next(r));
  EXPECT_EQ(src->error_text(),
            kDir + "no-such.traceg: error: cannot open: No such file or directory\n");
}

struct BadCase {
  const char* file;
  const char* message;  // after `FILE:`
};

class WorkloadTracegBad : public testing::TestWithParam<BadCase> {};

TEST_P(WorkloadTracegBad, ExactMessage) {
  const BadCase& c = GetParam();
  auto src = open_traceg(kDir + c.file);
  read_all(*src);
  ASSERT_FALSE(src->ok());
  EXPECT_EQ(src->error_text(), kDir + c.file + ":" + c.message + "\n");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WorkloadTracegBad,
    testing::Values(
        BadCase{"bad_mode.traceg", "7: error: bad address compression mode '3' (0, 1 or 2)"},
        BadCase{"bad_stride_mask.traceg",
                "7: error: base+stride addresses need one run of contiguous active lanes "
                "(mask 0x00000005)"},
        BadCase{"bad_insts.traceg", "6: error: warp 0: 'insts = 3' but 2 instruction lines follow"},
        BadCase{"bad_addr.traceg", "7: error: bad address '0x10g0'"},
        BadCase{"bad_missing_addr.traceg", "7: error: missing address"},
        BadCase{"bad_version.traceg",
                "3: error: accelsim tracer version 2 is not supported (versions 3 to 6 are)"},
        BadCase{"bad_trailing.traceg", "7: error: unexpected '7' after the immediate"},
        BadCase{"bad_mask.traceg", "7: error: bad active mask '1ffffffff'"}));

TEST(WorkloadKernelsList, TwoKernelsAndCopies) {
  std::vector<KernelListEntry> e;
  Diagnostics d;
  ASSERT_TRUE(read_kernelslist(kDir + "app/kernelslist.g", e, d));
  ASSERT_EQ(e.size(), 3u);  // MemcpyDtoH is passed over
  EXPECT_EQ(e[0].kind, KernelListEntry::Kind::MemcpyHtoD);
  EXPECT_EQ(e[0].address, 0x7f1234000000u);
  EXPECT_EQ(e[0].bytes, 4096u);
  EXPECT_EQ(e[1].kind, KernelListEntry::Kind::Kernel);
  EXPECT_EQ(e[1].path, kDir + "app/kernel-1.traceg");
  EXPECT_EQ(e[2].path, kDir + "app/kernel-2.traceg.xz");
  EXPECT_EQ(e[2].line, 5u);

  auto src = open_kernelslist(kDir + "app/kernelslist.g");
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kernel_id, 1u);
  EXPECT_EQ(r[0].opcode, "STG.E.SYS");
  EXPECT_EQ(r[1].kernel_id, 2u);
  EXPECT_EQ(r[1].opcode, "STS.128");
  EXPECT_EQ(src->instructions(), 5u);
  std::map<std::string, uint64_t> want{{"BAR", 1}, {"EXIT", 1}, {"MOV", 1}};
  EXPECT_EQ(src->skipped().by_opcode, want);
}

std::string temp_path(const char* name) {
  return std::string(STU_BINARY_DIR) + "/workload." + std::to_string(::getpid()) + "." + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(WorkloadKernelsList, BadMemcpyAndMissingKernel) {
  const std::string list = temp_path("bad_kernelslist.g");
  write_file(list, "MemcpyHtoD,0xzz,4\nkernel-404.traceg\n");
  std::vector<KernelListEntry> e;
  Diagnostics d;
  EXPECT_FALSE(read_kernelslist(list, e, d));
  std::string out;
  d.format(out, list);
  EXPECT_EQ(out, list + ":1: error: expected 'MemcpyHtoD,0xADDRESS,BYTES'\n");

  write_file(list, "kernel-404.traceg\n");
  auto src = open_kernelslist(list);
  read_all(*src);
  std::string dir = list.substr(0, list.rfind('/') + 1);
  EXPECT_EQ(src->error_text(),
            dir + "kernel-404.traceg: error: cannot open: No such file or directory\n");
  std::remove(list.c_str());
}

TEST(WorkloadStut, RoundTripFromTraceg) {
  const std::string out = temp_path("v4_modes.stut");
  std::string err;
  uint64_t n = 0;
  ASSERT_TRUE(convert_to_stut(kDir + "v4_modes.traceg", out, err, &n)) << err;
  EXPECT_EQ(n, 7u);
  auto a = open_traceg(kDir + "v4_modes.traceg");
  auto b = open_stut(out);
  std::vector<StoreRecord> ra = read_all(*a), rb = read_all(*b);
  ASSERT_TRUE(b->ok()) << b->error_text();
  ASSERT_EQ(rb.size(), 7u);
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(rb[i].kernel_id, ra[i].kernel_id) << i;
    EXPECT_EQ(rb[i].cta, ra[i].cta) << i;
    EXPECT_EQ(rb[i].warp, ra[i].warp) << i;
    EXPECT_EQ(rb[i].pc, ra[i].pc) << i;
    EXPECT_EQ(rb[i].opcode, ra[i].opcode) << i;
    EXPECT_EQ(rb[i].space, ra[i].space) << i;
    EXPECT_EQ(rb[i].mask, ra[i].mask) << i;
    EXPECT_EQ(rb[i].width, ra[i].width) << i;
    EXPECT_EQ(rb[i].addr, ra[i].addr) << i;
  }
  EXPECT_EQ(b->kernel().id, 3u);
  EXPECT_EQ(b->kernel().name, "_Z5storePfS_");
  EXPECT_EQ(b->instructions(), 12u);
  EXPECT_EQ(b->skipped().by_opcode, a->skipped().by_opcode);
  std::remove(out.c_str());
}

TEST(WorkloadStut, ByteLayout) {
  // One hand-built record per docs/trace-formats.md: kernel 5 "k", one STS store of lanes 0
  // and 1 at 0x10 and 0x18 (base+stride), one passed-over EXIT, the end record.
  std::string f("STUTRACE\x01\x00\x10\x00\x00\x00\x00\x00", 16);
  f += std::string("\x01\x05\x00\x00\x00\x01\x00k", 8);
  f += std::string(
      "\x02"
      "\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00"  // cta 1,2,3
      "\x04\x00\x00\x00"                                  // warp 4
      "\x30\x00\x00\x00\x00\x00\x00\x00"                  // pc 0x30
      "\x03\x00\x00\x00"                                  // mask 3
      "\x04\x00"                                          // width 4
      "\x01\x01\x03STS"                                   // shared, stride, op
      "\x10\x00\x00\x00\x00\x00\x00\x00"                  // base 0x10
      "\x08\x00\x00\x00\x00\x00\x00\x00",                 // stride 8
      1 + 32 + 1 + 3 + 16);
  f += std::string(
      "\x03\x04"
      "EXIT"
      "\x01\x00\x00\x00\x00\x00\x00\x00",
      14);
  f += std::string("\x04\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00", 17);
  const std::string path = temp_path("layout.stut");
  write_file(path, f);
  auto src = open_stut(path);
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].kernel_id, 5u);
  EXPECT_EQ(src->kernel().name, "k");
  EXPECT_EQ(r[0].cta, (std::array<uint32_t, 3>{1, 2, 3}));
  EXPECT_EQ(r[0].warp, 4u);
  EXPECT_EQ(r[0].pc, 0x30u);
  EXPECT_EQ(r[0].space, StoreSpace::Shared);
  EXPECT_EQ(r[0].opcode, "STS");
  EXPECT_EQ(r[0].width, 4u);
  EXPECT_EQ(r[0].addr, lanes({{0, 0x10}, {1, 0x18}}));
  EXPECT_EQ(src->instructions(), 2u);

  // Truncated inside the store record (header 16 + kernel 8 + 10 bytes of the store).
  write_file(path, f.substr(0, 34));
  src = open_stut(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ": error: at byte 24: truncated record\n");
  // No end record.
  write_file(path, f.substr(0, 16 + 8));
  src = open_stut(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ": error: truncated: no end record\n");
  // Bad magic, bad version.
  write_file(path, "STUTRACF" + f.substr(8));
  src = open_stut(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ": error: not a .stut file (bad magic)\n");
  std::string v3 = f;
  v3[8] = 3;
  write_file(path, v3);
  src = open_stut(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ": error: .stut version 3 is not supported (1 and 2 are)\n");
  std::remove(path.c_str());
}

// Version 2's fence record (docs/trace-formats.md): tag 5, cta, warp, pc, mask, scope, opcode.
TEST(WorkloadStut, FenceRecordByteLayout) {
  std::string f("STUTRACE\x02\x00\x10\x00\x00\x00\x00\x00", 16);
  f += std::string("\x01\x05\x00\x00\x00\x01\x00k", 8);
  f += std::string(
      "\x05"
      "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  // cta 1,0,0
      "\x02\x00\x00\x00"                                  // warp 2
      "\x40\x00\x00\x00\x00\x00\x00\x00"                  // pc 0x40
      "\xff\xff\xff\xff"                                  // mask
      "\x02"                                              // scope sys
      "\x0aMEMBAR.SYS",
      1 + 30 + 10);
  f += std::string("\x04\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00", 17);
  const std::string path = temp_path("fence.stut");
  write_file(path, f);
  auto src = open_stut(path);
  std::vector<StoreRecord> r = read_all(*src);
  ASSERT_TRUE(src->ok()) << src->error_text();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].kind, RecordKind::Fence);
  EXPECT_EQ(r[0].scope, FenceScope::Sys);
  EXPECT_EQ(r[0].cta, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(r[0].warp, 2u);
  EXPECT_EQ(r[0].pc, 0x40u);
  EXPECT_EQ(r[0].mask, 0xFFFFFFFFu);
  EXPECT_EQ(r[0].opcode, "MEMBAR.SYS");
  // A scope past .sys is a located error.
  f[16 + 8 + 29] = 3;
  write_file(path, f);
  src = open_stut(path);
  read_all(*src);
  EXPECT_EQ(src->error_text(), path + ": error: at byte 24: bad fence scope 3\n");
  std::remove(path.c_str());
}

TEST(WorkloadFence, ScopeFromOpcode) {
  FenceScope s;
  ASSERT_TRUE(fence_scope_of("MEMBAR.SC.GPU", s));
  EXPECT_EQ(s, FenceScope::Gpu);
  ASSERT_TRUE(fence_scope_of("MEMBAR.ALL.CTA", s));
  EXPECT_EQ(s, FenceScope::Cta);
  ASSERT_TRUE(fence_scope_of("MEMBAR.SYS", s));
  EXPECT_EQ(s, FenceScope::Sys);
  ASSERT_TRUE(fence_scope_of("MEMBAR.GL", s));
  EXPECT_EQ(s, FenceScope::Gpu);
  EXPECT_FALSE(fence_scope_of("MEMBAR", s));  // no scope: passed over
  EXPECT_FALSE(fence_scope_of("MEMBAR.VC", s));
  EXPECT_FALSE(fence_scope_of("ERRBAR", s));
  EXPECT_FALSE(fence_scope_of("STG.E", s));
}

// MEMBAR lines become fence records between the stores, in order; a .traceg -> .stut -> read
// round trip keeps them.
TEST(WorkloadFence, TracegMembarRecordsRoundTripThroughStut) {
  const std::string in = temp_path("membar.traceg"), out = temp_path("membar.stut");
  write_file(in,
             "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
             "-accelsim tracer version = 4\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
             "insts = 5\n"
             "0010 00000001 0 STG.E.STRONG.GPU 2 R2 R3 4 1 0x10000 4 0\n"
             "0020 ffffffff 0 MEMBAR.ALL.GPU 0 0\n"
             "0030 ffffffff 0 ERRBAR 0 0\n"
             "0040 00000001 0 STG.E.STRONG.GPU 2 R2 R3 4 1 0x10080 4 0\n"
             "0050 ffffffff 0 MEMBAR.SC.SYS 0 0\n#END_TB\n");
  auto a = open_traceg(in);
  std::vector<StoreRecord> r = read_all(*a);
  ASSERT_TRUE(a->ok()) << a->error_text();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].kind, RecordKind::Store);
  EXPECT_EQ(r[1].kind, RecordKind::Fence);
  EXPECT_EQ(r[1].scope, FenceScope::Gpu);
  EXPECT_EQ(r[1].pc, 0x20u);
  EXPECT_EQ(r[2].kind, RecordKind::Store);
  EXPECT_EQ(r[2].addr[0], 0x10080u);
  EXPECT_EQ(r[3].kind, RecordKind::Fence);
  EXPECT_EQ(r[3].scope, FenceScope::Sys);
  EXPECT_EQ(a->skipped().total, 1u);  // ERRBAR
  std::string err;
  ASSERT_TRUE(convert_to_stut(in, out, err)) << err;
  auto b = open_stut(out);
  std::vector<StoreRecord> rb = read_all(*b);
  ASSERT_TRUE(b->ok()) << b->error_text();
  ASSERT_EQ(rb.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rb[i].kind, r[i].kind) << i;
    EXPECT_EQ(rb[i].scope, r[i].scope) << i;
    EXPECT_EQ(rb[i].pc, r[i].pc) << i;
    EXPECT_EQ(rb[i].opcode, r[i].opcode) << i;
  }
  EXPECT_EQ(b->instructions(), 5u);
  std::remove(in.c_str());
  std::remove(out.c_str());
}

// Peak resident memory of this process in KiB (VmHWM), 0 when unknown.
long peak_rss_kib() {
  std::ifstream s("/proc/self/status");
  std::string line;
  while (std::getline(s, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

// A generated trace of `warps` warps of 10 instructions each (4 stores, 6 others).
void generate(const std::string& path, uint64_t warps) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fprintf(f,
               "-kernel name = big\n-accelsim tracer version = 4\n\n#BEGIN_TB\n"
               "thread block = 0,0,0\n");
  for (uint64_t w = 0; w < warps; ++w) {
    std::fprintf(f, "warp = %llu\ninsts = 10\n", (unsigned long long)w);
    std::fprintf(f, "0000 ffffffff 1 R1 S2R 0 0 0\n0010 ffffffff 1 R2 IMAD 2 R0 R1 0 0\n");
    std::fprintf(f, "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x%llx 4 0\n",
                 (unsigned long long)(0x10000 + 128 * w));
    std::fprintf(f, "0030 0000000f 0 STS 2 R2 R4 4 0 0x10 0x20 0x30 0x40 0\n");
    std::fprintf(f, "0040 00000007 0 STL 2 R2 R4 4 2 0x100 4 -8 0\n");
    std::fprintf(f, "0050 ffffffff 1 R3 LDG.E 1 R2 4 1 0x2000 4 0\n");
    std::fprintf(f, "0060 ffffffff 0 ST.E 2 R2 R4 4 1 0x3000 8 0\n");
    std::fprintf(f, "0070 ffffffff 0 BAR 0 0 0\n0080 ffffffff 0 NOP 0 0 0\n");
    std::fprintf(f, "0090 ffffffff 0 EXIT 0 0 0\n");
  }
  std::fprintf(f, "#END_TB\n");
  std::fclose(f);
}

void check_streams_in_constant_memory(uint64_t warps) {
  const std::string path = temp_path("big.traceg");
  generate(path, warps);
  long before = peak_rss_kib();
  auto src = open_traceg(path);
  StoreRecord r;
  uint64_t n = 0, sum = 0;
  while (src->next(r)) {
    ++n;
    sum += r.addr[1];
  }
  long after = peak_rss_kib();
  std::remove(path.c_str());
  ASSERT_TRUE(src->ok()) << src->error_text();
  EXPECT_EQ(n, 4 * warps);
  EXPECT_EQ(src->instructions(), 10 * warps);
  EXPECT_EQ(src->skipped().total, 6 * warps);
  EXPECT_EQ(src->skipped().by_opcode.size(), 6u);
  EXPECT_GT(sum, 0u);
  // The trace file is tens of MB; reading it must not grow the peak by more than 8 MiB.
  if (before && after) {
    EXPECT_LT(after - before, 8 * 1024) << before << " -> " << after;
  }
}

TEST(WorkloadMemory, StreamsHundredThousandInstructions) {
  check_streams_in_constant_memory(10000);
}

TEST(WorkloadMemory, LongStreamsMillionInstructions) { check_streams_in_constant_memory(100000); }

TEST(WorkloadSkip, OpcodeMapIsBounded) {
  SkipCounts s;
  for (size_t i = 0; i < SkipCounts::kMaxOpcodes + 10; ++i) s.add("OP" + std::to_string(i));
  EXPECT_EQ(s.total, SkipCounts::kMaxOpcodes + 10);
  EXPECT_EQ(s.by_opcode.size(), SkipCounts::kMaxOpcodes + 1);
  EXPECT_EQ(s.by_opcode.at("(other)"), 10u);
}

// Hostile input: seeded random byte edits of a good trace (and of a good .stut) never crash;
// each read either succeeds or stops with one `FILE:...: error:` diagnostic.
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

enum class Reader { Traceg, Stut, Tracez };

void mutate_and_read(const std::string& good, const std::string& path, Reader reader) {
  uint64_t seed = 0x9e3779b97f4a7c15u;
  auto rnd = [&seed] {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return seed;
  };
  const char kBytes[] = "0123456789abcdefx -\n#=,.RSTGLE\x00\xff";
  for (int round = 0; round < 400; ++round) {
    std::string f = good;
    for (uint64_t k = 1 + rnd() % 4; k > 0; --k) {
      size_t at = rnd() % f.size();
      switch (rnd() % 3) {
        case 0:
          f[at] = kBytes[rnd() % (sizeof kBytes - 1)];
          break;
        case 1:
          f.erase(at, 1 + rnd() % 8);
          break;
        default:
          f.insert(at, 1, kBytes[rnd() % (sizeof kBytes - 1)]);
          break;
      }
      if (f.empty()) f = "x";
    }
    write_file(path, f);
    auto src = reader == Reader::Stut     ? open_stut(path)
               : reader == Reader::Tracez ? open_tracez(path)
                                          : open_traceg(path);
    StoreRecord r;
    uint64_t n = 0;
    while (src->next(r)) ++n;
    EXPECT_LE(n, 64u);
    if (!src->ok()) {
      EXPECT_EQ(src->error_text().rfind(path + ":", 0), 0u) << src->error_text();
      EXPECT_NE(src->error_text().find(" error: "), std::string::npos);
    }
  }
  std::remove(path.c_str());
}

TEST(WorkloadHostile, MutatedTracegNeverCrashes) {
  mutate_and_read(slurp(kDir + "v4_modes.traceg"), temp_path("mutated.traceg"), Reader::Traceg);
}

TEST(WorkloadHostile, MutatedStutNeverCrashes) {
  const std::string good = temp_path("good.stut");
  std::string err;
  ASSERT_TRUE(convert_to_stut(kDir + "v4_modes.traceg", good, err)) << err;
  std::string bytes = slurp(good);
  std::remove(good.c_str());
  mutate_and_read(bytes, temp_path("mutated.stut"), Reader::Stut);
}

// --- Accel-Sim 2.0 .tracez ----------------------------------------------------------------
void expect_same_records(StoreSource& a, StoreSource& b) {
  std::vector<StoreRecord> ra = read_all(a), rb = read_all(b);
  ASSERT_TRUE(a.ok()) << a.error_text();
  ASSERT_TRUE(b.ok()) << b.error_text();
  ASSERT_EQ(ra.size(), rb.size());
  for (size_t i = 0; i < ra.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(ra[i].kernel_id, rb[i].kernel_id);
    EXPECT_EQ(ra[i].cta, rb[i].cta);
    EXPECT_EQ(ra[i].warp, rb[i].warp);
    EXPECT_EQ(ra[i].pc, rb[i].pc);
    EXPECT_EQ(ra[i].opcode, rb[i].opcode);
    EXPECT_EQ(ra[i].space, rb[i].space);
    EXPECT_EQ(ra[i].mask, rb[i].mask);
    EXPECT_EQ(ra[i].width, rb[i].width);
    EXPECT_EQ(ra[i].addr, rb[i].addr);
  }
  EXPECT_EQ(a.instructions(), b.instructions());
  EXPECT_EQ(a.skipped().by_opcode, b.skipped().by_opcode);
  EXPECT_EQ(a.kernel().name, b.kernel().name);
  EXPECT_EQ(a.kernel().grid, b.kernel().grid);
  EXPECT_EQ(a.kernel().tracer_version, b.kernel().tracer_version);
}

// The checked-in file was written by tests/data/traces/make_tracez.py (the zstd command,
// three instructions per sub-chunk) from v4_modes.traceg: the same records, in the same order.
TEST(WorkloadTracez, CheckedInFileReadsLikeItsTraceg) {
  auto z = open_tracez(kDir + "v4_modes.tracez");
  auto g = open_traceg(kDir + "v4_modes.traceg");
  expect_same_records(*z, *g);
  EXPECT_EQ(z->kernel().id, 3u);
  EXPECT_EQ(z->instructions(), 12u);
}

TEST(WorkloadTracez, EverySubchunkSizeWithAndWithoutDictionary) {
  const auto [header, ctas] = split_traceg(slurp(kDir + "v4_modes.traceg"));
  const std::string path = temp_path("split.tracez");
  const std::string dict = "ffffffff 0 STG.E 2 R2 R4 4 1 0x 0 EXIT 0 0 0 IMAD 2 R0 R1 0 0 ";
  for (uint32_t per : {1u, 2u, 3u, 7u, 100u}) {
    for (const std::string& d : {std::string(), dict}) {
      SCOPED_TRACE("per sub-chunk " + std::to_string(per) + (d.empty() ? "" : ", dictionary"));
      write_file(path, make_tracez(header, ctas, per, d));
      auto z = open_tracez(path);
      auto g = open_traceg(kDir + "v4_modes.traceg");
      expect_same_records(*z, *g);
    }
  }
  std::remove(path.c_str());
}

// Version 6 lines end with a second immediate and `NoVal`, or `Val` and register values.
TEST(WorkloadTracez, Version6LinesByHand) {
  const std::string header =
      "-kernel name = k6\n-kernel id = 9\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
      "-accelsim tracer version = 6\n-enable lineinfo = 1\n\n#traces format = ...\n";
  TzCta c;
  c.id = {4, 5, 6};
  c.warps.resize(2);
  c.warps[1].lines = {
      "12 0010 00000003 0 STG.E 2 R2 R4 4 2 0x2000 64 0 0 NoVal",
      "13 0020 ffffffff 1 R3 MOV 1 R2 0 0 0 Val 1 0x5 1 0x6",
      "14 0030 00000001 0 STS.64 2 R2 R4 8 0 0x40 0 0 Val 1 0x7 32 0 1 2 3 4 5 6 7 8 9 10 11 12 "
      "13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31"};
  const std::string path = temp_path("v6.tracez");
  write_file(path, make_tracez(header, {c}, 2));
  auto z = open_tracez(path);
  std::vector<StoreRecord> r = read_all(*z);
  ASSERT_TRUE(z->ok()) << z->error_text();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kernel_id, 9u);
  EXPECT_EQ(r[0].cta, (std::array<uint32_t, 3>{4, 5, 6}));
  EXPECT_EQ(r[0].warp, 1u);  // warp 0 is empty
  EXPECT_EQ(r[0].pc, 0x10u);
  EXPECT_EQ(r[0].addr, lanes({{0, 0x2000}, {1, 0x2040}}));
  EXPECT_EQ(r[1].opcode, "STS.64");
  EXPECT_EQ(r[1].space, StoreSpace::Shared);
  EXPECT_EQ(r[1].width, 8u);
  EXPECT_EQ(r[1].addr, lanes({{0, 0x40}}));
  EXPECT_EQ(z->instructions(), 3u);
  EXPECT_EQ(z->skipped().by_opcode, (std::map<std::string, uint64_t>{{"MOV", 1}}));
  std::remove(path.c_str());
}

TEST(WorkloadTracez, KernelsListNamesATracez) {
  const std::string dir = temp_path("app");
  ASSERT_EQ(::system(("mkdir -p " + dir).c_str()), 0);
  ASSERT_EQ(::system(("cp " + kDir + "v4_modes.tracez " + dir + "/kernel-1.tracez").c_str()), 0);
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x1000,64\nkernel-1.tracez\n");
  auto list = open_kernelslist(dir + "/kernelslist.g");
  auto g = open_traceg(kDir + "v4_modes.traceg");
  expect_same_records(*list, *g);
  ASSERT_EQ(::system(("rm -r " + dir).c_str()), 0);
}

// Damaged files: one diagnostic naming the file and what is wrong, never a crash.
struct TzBad {
  const char* name;
  std::function<void(std::string&)> damage;
  const char* message;  // after `FILE`
};

std::string good_tracez() {
  const auto [header, ctas] = split_traceg(slurp(kDir + "v4_modes.traceg"));
  return make_tracez(header, ctas, 3);
}

uint64_t index_offset(const std::string& f) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | uint8_t(f[f.size() - 8 + size_t(i)]);
  return v;
}

TEST(WorkloadTracez, DamagedFilesGiveOneDiagnostic) {
  const std::string good = good_tracez();
  const size_t data = good.find('\0') + 9;  // the first warp's header (no dictionary)
  const std::vector<TzBad> cases = {
      {"no NUL", [](std::string& f) { f = "-kernel name = x\n"; },
       ": error: the kernel header is not terminated by a NUL byte (not a .tracez file?)"},
      {"version 2",
       [](std::string& f) {
         const size_t at = f.find("version = 4");
         f[at + 10] = '2';
       },
       ": error: accelsim tracer version 2 is not supported (versions 3 to 6 are)"},
      {"bad header value",
       [](std::string& f) {
         const size_t at = f.find("(2,1,1)");
         f[at + 1] = 'x';
       },
       ":3: error: bad value in header line '-grid dim = (x,1,1)'"},
      {"index offset outside", [](std::string& f) { f[f.size() - 1] = char(0x7f); },
       ": error: index offset "},
      {"truncated", [](std::string& f) { f.resize(f.size() - 20); }, ": error: index offset "},
      {"index starts 2 bytes before its offset",
       [](std::string& f) {
         const uint64_t at = f.size() - 8 - 2;
         for (int i = 0; i < 8; ++i) f[f.size() - 8 + size_t(i)] = char(at >> (8 * i));
       },
       ": error: index: "},
      {"sub-chunk counts disagree",
       [](std::string& f) {
         // The first warp's first sub-chunk count in the index: 3 -> 2.
         const size_t at = index_offset(f) + 4 + 44 + 16;
         f[at] = 2;
       },
       ": error: index: a warp of 7 instructions whose sub-chunks hold 6"},
      {"warp header disagrees", [data](std::string& f) { f[data] = 9; },
       ": error: thread block 0,0,0, warp 0, instruction 0: the warp header says 9 instructions "
       "in 3 sub-chunks, the index 7 in 3"},
      {"corrupt frame", [data](std::string& f) { f[data + 12] ^= 0x55; },
       ": error: thread block 0,0,0, warp 0, instruction 0: sub-chunk 0 at byte "},
  };
  const std::string path = temp_path("bad.tracez");
  for (const TzBad& c : cases) {
    SCOPED_TRACE(c.name);
    std::string f = good;
    c.damage(f);
    write_file(path, f);
    auto z = open_tracez(path);
    read_all(*z);
    ASSERT_FALSE(z->ok());
    EXPECT_EQ(z->error_text().rfind(path + c.message, 0), 0u) << z->error_text();
    EXPECT_EQ(z->error_text().find('\n'), z->error_text().size() - 1) << z->error_text();
  }
  auto missing = open_tracez(kDir + "no-such.tracez");
  read_all(*missing);
  EXPECT_EQ(missing->error_text(),
            kDir + "no-such.tracez: error: cannot open: No such file or directory\n");
  std::remove(path.c_str());
}

// A bad instruction line inside a sub-chunk is reported with its thread block, warp and
// position in the warp.
TEST(WorkloadTracez, BadLineIsLocated) {
  auto [header, ctas] = split_traceg(slurp(kDir + "v4_modes.traceg"));
  ctas[0].warps[1].lines[1] = "0028 00000001 0 STG.E 2 R2 R4 4 0 0x10g0 0";
  const std::string path = temp_path("badline.tracez");
  write_file(path, make_tracez(header, ctas, 2));
  auto z = open_tracez(path);
  std::vector<StoreRecord> r = read_all(*z);
  EXPECT_EQ(r.size(), 5u);  // the four stores of warp 0 and the first of warp 1
  EXPECT_EQ(z->error_text(),
            path + ": error: thread block 0,0,0, warp 1, instruction 2: bad address '0x10g0'\n");
  std::remove(path.c_str());
}

// Found by fuzz/fuzz_trace: an index offset whose records ran into the trailing offset made
// the bytes-left count wrap, and the reader asked for gigabytes. Now: one diagnostic.
TEST(WorkloadTracez, FuzzIndexOverrun) {
  auto z = open_tracez(kDir + "fuzz_index_overrun.tracez");
  read_all(*z);
  ASSERT_FALSE(z->ok());
  EXPECT_EQ(z->diagnostics().error_count(), 1u);
  EXPECT_EQ(z->error_text().rfind(kDir + "fuzz_index_overrun.tracez: error: index", 0), 0u)
      << z->error_text();
}

TEST(WorkloadHostile, MutatedTracezNeverCrashes) {
  mutate_and_read(good_tracez(), temp_path("mutated.tracez"), Reader::Tracez);
}

}  // namespace
}  // namespace stu::workload
