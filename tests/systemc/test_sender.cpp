// Sender (systemc/stage.h) against a scripted AT target, by the cycles its requests arrive:
// one request at a time, each sent when the previous one has its END_REQ; a BEGIN_RESP stands
// for an END_REQ not yet come; and an END_REQ announced with a delay counts only for the
// request that still waits for it (a stale one, for a request already answered, releases
// nothing). Expectations from those rules (docs/tlm.md, "Timing styles").
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

#include "agenda.h"
#include "payload.h"
#include "sim_context.h"
#include "stage.h"

namespace stu::sim {
namespace {

constexpr Cycle kEndReqDelay = 10;  // the target takes every request 10 cycles after it comes
constexpr Cycle kFirstRespAt = 2;   // and answers the first one 2 cycles after it comes

// Takes each request with END_REQ kEndReqDelay cycles later; answers only the first one, with
// BEGIN_RESP kFirstRespAt cycles after it came (so before its END_REQ).
class Target : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Target> in;
  std::vector<Cycle> arrivals;

  SC_HAS_PROCESS(Target);
  Target(const sc_core::sc_module_name& n, const Timebase& tb) : sc_module(n), in("in"), tb_(tb) {
    in.register_nb_transport_fw(this, &Target::fw);
    SC_METHOD(respond);
    sensitive << resp_ev_;
    dont_initialize();
  }

 private:
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase, sc_core::sc_time& d) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    arrivals.push_back(tb_.now());
    if (arrivals.size() == 1) {
      first_ = &tr;
      resp_ev_.notify(tb_.time(kFirstRespAt));
    }
    phase = tlm::END_REQ;
    d = tb_.time(kEndReqDelay);
    return tlm::TLM_UPDATED;
  }
  void respond() {
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    first_->set_response_status(tlm::TLM_OK_RESPONSE);
    in->nb_transport_bw(*first_, p, d);
  }
  const Timebase& tb_;
  tlm::tlm_generic_payload* first_ = nullptr;
  sc_core::sc_event resp_ev_;
};

// Sends three requests at cycle 0.
class Bench : public sc_core::sc_module {
 public:
  Sender out;
  Target target;
  std::vector<Cycle> acks;

  SC_HAS_PROCESS(Bench);
  Bench(const sc_core::sc_module_name& n, SimContext& ctx)
      : sc_module(n),
        out("out", ctx.tb, *ctx.agenda,
            [this](tlm::tlm_generic_payload&, Cycle c) { acks.push_back(c); }),
        target("target", ctx.tb),
        ctx_(ctx) {
    out.out.bind(target.in);
    // A method, run once at the start (it never waits): a thread process that returns is what
    // Debian's SystemC does not tell AddressSanitizer about (docs/tlm.md).
    SC_METHOD(run);
  }

 private:
  void run() {
    for (int i = 0; i < 3; ++i) {
      tlm::tlm_generic_payload& p = ctx_.pool.acquire();
      p.set_address(0x1000 + 128 * std::uint64_t(i));
      out.at(p);
    }
  }
  SimContext& ctx_;
};

Bench* bench = nullptr;

TEST(Sender, AStaleEndReqReleasesNothing) {
  sc_core::sc_start();
  // A comes at 0 and is answered at 2 (its BEGIN_RESP stands for its END_REQ, due at 10), so B
  // is sent at 2; B's END_REQ comes at 12, so C is sent at 12. A's END_REQ, announced for 10,
  // is stale by then: it must not release C at 10.
  const std::vector<Cycle> want{0, kFirstRespAt, kFirstRespAt + kEndReqDelay};
  EXPECT_EQ(bench->target.arrivals, want);
  ASSERT_EQ(bench->acks.size(), 1u);
  EXPECT_EQ(bench->acks[0], kFirstRespAt);
}

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  using namespace stu::sim;
  ::testing::InitGoogleTest(&argc, argv);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  const SimConfig cfg = *preset("h100");
  Timebase tb(cfg.clock, *sc_core::sc_get_curr_simcontext());
  Stats stats;
  stu::golden::MachineState image(stu::golden::ModelConfig{});
  PayloadPool pool;
  SimContext ctx{cfg, tb, stats, image, pool, nullptr, nullptr, GlobalImage::Written, {}};
  Agenda agenda("agenda", ctx);
  Bench b("bench", ctx);
  bench = &b;
  return RUN_ALL_TESTS();
}
