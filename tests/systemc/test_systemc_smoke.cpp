// Smoke test of the SystemC/TLM-2.0 flow: a small initiator drives stu::MemTarget through
// b_transport from an SC_THREAD. One bench, elaborated once in sc_main; each test queues a
// job and runs the kernel until the bench pauses it.
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "stu_mem_target.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kMemBytes = 64;
const sc_core::sc_time kLatency(2, sc_core::SC_NS);
constexpr std::uint8_t kOn = TLM_BYTE_ENABLED;
constexpr std::uint8_t kOff = TLM_BYTE_DISABLED;

struct Result {
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time elapsed;
};

class Bench : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Bench> socket;
  stu::MemTarget mem;

  SC_HAS_PROCESS(Bench);
  explicit Bench(const sc_core::sc_module_name& name)
      : sc_core::sc_module(name), socket("socket"), mem("mem", kMemBytes, kLatency) {
    socket.bind(mem.socket);
    SC_THREAD(run);
  }

  // Runs `job` in the bench's thread; returns false if it did not finish in time.
  bool execute(std::function<void()> job) {
    bool done = false;
    jobs_.push_back([&] {
      job();
      done = true;
    });
    sc_core::sc_start(1, sc_core::SC_MS);
    return done;
  }

  // Called from a job: one transaction, waiting out the annotated delay.
  Result transport(tlm::tlm_command cmd, std::uint64_t addr, Bytes& data, Bytes be = {}) {
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(data.data());
    trans.set_data_length(static_cast<unsigned>(data.size()));
    trans.set_streaming_width(static_cast<unsigned>(data.size()));
    trans.set_byte_enable_ptr(be.empty() ? nullptr : be.data());
    trans.set_byte_enable_length(static_cast<unsigned>(be.size()));
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    wait(delay);
    return {trans.get_response_status(), sc_core::sc_time_stamp() - start};
  }

  Bytes memory(std::size_t addr, std::size_t len) const {
    return Bytes(mem.contents() + addr, mem.contents() + addr + len);
  }

 private:
  void run() {
    for (;;) {
      while (!jobs_.empty()) {
        auto job = std::move(jobs_.front());
        jobs_.pop_front();
        job();
      }
      sc_core::sc_pause();
      wait(sc_core::SC_ZERO_TIME);
    }
  }

  std::deque<std::function<void()>> jobs_;
};

Bench* bench = nullptr;

class MemTargetTest : public ::testing::Test {
 protected:
  void SetUp() override { bench->mem.fill(0xAA); }

  Result write(std::uint64_t addr, Bytes data, Bytes be = {}) {
    Result r;
    EXPECT_TRUE(bench->execute(
        [&] { r = bench->transport(tlm::TLM_WRITE_COMMAND, addr, data, std::move(be)); }));
    return r;
  }
};

TEST_F(MemTargetTest, WriteHonoursByteEnables) {
  const Result r = write(8, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66}, {kOn, kOff, kOn, kOn, kOff, kOn});
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench->memory(7, 8), (Bytes{0xAA, 0x11, 0xAA, 0x33, 0x44, 0xAA, 0x66, 0xAA}));
}

TEST_F(MemTargetTest, ShortByteEnableArrayRepeats) {
  const Result r = write(16, {1, 2, 3, 4, 5, 6, 7, 8}, {kOff, kOn});
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench->memory(16, 8), (Bytes{0xAA, 2, 0xAA, 4, 0xAA, 6, 0xAA, 8}));
}

TEST_F(MemTargetTest, WriteWithoutByteEnablesWritesEveryByte) {
  const Result r = write(60, {9, 8, 7, 6});
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench->memory(59, 5), (Bytes{0xAA, 9, 8, 7, 6}));
}

TEST_F(MemTargetTest, AllBytesDisabledWritesNothing) {
  const Result r = write(0, {1, 2, 3, 4}, {kOff});
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench->memory(0, 4), (Bytes{0xAA, 0xAA, 0xAA, 0xAA}));
}

TEST_F(MemTargetTest, WritePastTheEndIsAnAddressErrorAndWritesNothing) {
  const Result r = write(kMemBytes - 2, {1, 2, 3, 4});
  EXPECT_EQ(r.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(bench->memory(kMemBytes - 2, 2), (Bytes{0xAA, 0xAA}));
}

TEST_F(MemTargetTest, WriteTakesTheAnnotatedLatency) {
  const Result r = write(0, {1});
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r.elapsed, kLatency);
}

TEST_F(MemTargetTest, ReadReturnsOnlyEnabledBytes) {
  write(32, {1, 2, 3, 4});
  Bytes data{0, 0, 0, 0};
  Result r;
  ASSERT_TRUE(bench->execute([&] {
    r = bench->transport(tlm::TLM_READ_COMMAND, 32, data, {kOn, kOn, kOff, kOn});
  }));
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(data, (Bytes{1, 2, 0, 4}));
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Bench top("bench");
  bench = &top;
  return RUN_ALL_TESTS();
}
