/// @brief The session on its worker thread: the published labels equal the engine's result, the
/// GUI-side commands (pause, step, update, accept) interleave safely with advances, a start that
/// fails reports why, and destroying the worker mid-run is clean.
#include "HookedRegionGrowing.h"
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/core/seg/SessionWorker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace lucent;
using lucent::testing::HookedRegionGrowing;
using lucent::testing::shapeVolume;

namespace {

Volume ball() {
    return shapeVolume({64, 56, 40}, [](int i, int j, int k) { return (i - 30) * (i - 30) + (j - 28) * (j - 28) + (k - 20) * (k - 20) <= 256; },
                       200, 0, 10);
}

SegmentationRequest srgRequest(const Volume& v, double upper = 250) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{30, 28, 20}};
    r.regionGrowing = {150, upper, 6};
    return r;
}

/// The writer the viewer's host path uses: the engine's labels of the box into a shared map.
SessionWorker::LabelWriter hostWriter(LabelMap& shown) {
    return [&shown](const Segmenter& engine, const VoxelBox& box) { engine.writeLabels(LabelSink::host(shown), &box); };
}

LabelMap expected(const Volume&, const SegmentationRequest& r) {
    RegionGrowingCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

bool same(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

/// A clock that moves only when told: here by the engine's steps and the label writes.
class FakeClock {
public:
    using time_point = std::chrono::steady_clock::time_point;
    using duration = std::chrono::steady_clock::duration;
    time_point now() const { return time_point(duration(m_ticks.load())); }
    void advance(duration d) { m_ticks += d.count(); }
    SessionWorker::Clock function() {
        return [this] {
            ++m_reads;
            return now();
        };
    }
    /// How often the worker has read the clock: each paced poll reads it once (an event to wait for).
    long reads() const { return m_reads.load(); }

private:
    std::atomic<duration::rep> m_ticks{0};
    std::atomic<long> m_reads{0};
};

/// Region growing whose every step takes `stepTime` on `clock` (moved once the engine has stepped: nothing
/// reads the clock within a step); notes when it finished.
std::unique_ptr<Segmenter> pacedRegionGrowing(FakeClock& clock, FakeClock::duration stepTime,
                                              FakeClock::time_point& finishedAt) {
    auto engine = std::make_unique<HookedRegionGrowing>();
    engine->afterStep = [&clock, stepTime, &finishedAt](const StepReport& report) {
        clock.advance(stepTime);
        if (report.finished) finishedAt = clock.now();
    };
    return engine;
}

struct Write {
    FakeClock::time_point began;
    FakeClock::duration cost;
};

/// A 160 x 3 x 3 rod grown from one end: one front a step, about 160 steps.
Volume rod() {
    return shapeVolume(
        {160, 3, 3}, [](int, int, int) { return true; }, 200, 0, 10);
}

SegmentationRequest rodRequest(const Volume& v) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{0, 1, 1}};
    r.regionGrowing = {150, 250, 6};
    return r;
}

struct Gate {
    std::atomic<bool> entered{false};
    std::atomic<bool> open{false};
};

/// Region growing whose start() waits until the test opens `gate` (a long start: a connectivity
/// map, an upload), so that a cancel or a new run can come while it starts.
std::unique_ptr<Segmenter> gatedRegionGrowing(Gate& gate) {
    auto engine = std::make_unique<HookedRegionGrowing>();
    engine->beforeStart = [&gate] {
        gate.entered = true;
        while (!gate.open) std::this_thread::yield();
    };
    return engine;
}

}  // namespace

TEST(SessionWorker, PublishedLabelsEqualTheEnginesResult) {
    const Volume v = ball();
    const SegmentationRequest r = srgRequest(v);
    LabelMap shown(v.geometry());
    SessionWorker worker;
    worker.begin(std::make_unique<RegionGrowingCpu>(), r, 1, hostWriter(shown));
    worker.waitUntilSettled();
    std::optional<VoxelBox> changed;
    SessionState state{};
    int steps = 0;
    worker.take([&](const SessionWorker::Published& p) {
        changed = p.changed;
        state = p.state;
        steps = p.steps;
        EXPECT_EQ(p.backend, "cpu");
        EXPECT_TRUE(p.error.empty()) << p.error;
    });
    EXPECT_EQ(state, SessionState::Finished);
    EXPECT_GT(steps, 5) << "one front per step: the region grew over several steps";
    ASSERT_TRUE(changed.has_value());
    EXPECT_TRUE(same(shown, expected(v, r)));
    worker.take([&](const SessionWorker::Published& p) { EXPECT_FALSE(p.changed.has_value()) << "taken once"; });
}

TEST(SessionWorker, CommandsInterleaveWithAdvances) {
    const Volume v = ball();
    LabelMap shown(v.geometry());
    SessionWorker worker(std::chrono::microseconds(200));
    worker.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v, 205), 1, hostWriter(shown), /*play=*/false);
    worker.take([](const SessionWorker::Published& p) { EXPECT_TRUE(p.error.empty()) << p.error; });
    worker.waitUntilSettled();
    int steps = -1;
    worker.command([](SegmentationSession& s) { s.stepOnce(); });
    worker.take([&](const SessionWorker::Published& p) {
        steps = p.steps;
        EXPECT_EQ(p.state, SessionState::Paused);
    });
    EXPECT_EQ(steps, 1) << "paused: only the single step ran";
    // A slider moving while the run plays: every update is taken between two advances.
    worker.command([](SegmentationSession& s) { s.play(); });
    for (int upper = 206; upper <= 250; upper += 4) {
        const SegmentationRequest r = srgRequest(v, upper);
        worker.command([&](SegmentationSession& s) { s.update(r); });
        std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    const SegmentationRequest last = srgRequest(v, 250);
    worker.command([&](SegmentationSession& s) { s.update(last); });
    worker.waitUntilSettled();
    EXPECT_TRUE(same(shown, expected(v, last)));
    // Accept takes the run into the layer as one undoable step.
    LabelMap layer(v.geometry());
    LabelHistory history;
    bool accepted = false;
    worker.command([&](SegmentationSession& s) { accepted = s.accept(layer, history, 3, "Accept region growing"); });
    EXPECT_TRUE(accepted);
    EXPECT_EQ(layer.count(3), expected(v, last).count(1));
    worker.take([](const SessionWorker::Published& p) { EXPECT_EQ(p.state, SessionState::Idle); });
}

TEST(SessionWorker, AStartThatFailsSaysWhy) {
    const Volume v = ball();
    LabelMap shown(v.geometry());
    SegmentationRequest r = srgRequest(v);
    r.seeds = {{500, 0, 0}};
    SessionWorker worker;
    worker.begin(std::make_unique<RegionGrowingCpu>(), r, 1, hostWriter(shown));
    worker.waitUntilSettled();
    worker.take([](const SessionWorker::Published& p) {
        EXPECT_EQ(p.state, SessionState::Idle);
        EXPECT_NE(p.error.find("seed"), std::string::npos) << p.error;
    });
}

TEST(SessionWorker, ALabelWriteThatFailsEndsTheRunAndSaysWhy) {
    const Volume v = ball();
    SessionWorker worker;
    int writes = 0;
    worker.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v), 1, [&](const Segmenter&, const VoxelBox&) {
        ++writes;
        throw std::runtime_error("GPU out of memory: the label buffer needs 0.1 MiB");
    });
    worker.waitUntilSettled();
    worker.take([](const SessionWorker::Published& p) {
        EXPECT_EQ(p.state, SessionState::Idle) << "the run ended";
        EXPECT_NE(p.error.find("the label buffer"), std::string::npos) << p.error;
    });
    EXPECT_EQ(writes, 1) << "no write after the failed one";
}

TEST(SessionWorker, DestroyedMidRunAndRestartedMidStart) {
    const Volume v = ball();
    LabelMap shown(v.geometry());
    {
        SessionWorker worker(std::chrono::microseconds(50));
        worker.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v), 1, hostWriter(shown));
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }  // joins without waiting for the run
    SessionWorker worker;
    SegmentationRequest fc = srgRequest(v);
    fc.fuzzyConnectedness.threshold = 0.5;
    worker.begin(std::make_unique<FuzzyConnectednessCpu>(), fc, 1, hostWriter(shown));
    const SegmentationRequest r = srgRequest(v);
    worker.begin(std::make_unique<RegionGrowingCpu>(), r, 1, hostWriter(shown));  // replaces it
    worker.waitUntilSettled();
    worker.take([](const SessionWorker::Published& p) { EXPECT_EQ(p.backend, "cpu"); });
    LabelMap result;
    worker.command([&](SegmentationSession& s) {
        ASSERT_NE(s.engine(), nullptr);
        EXPECT_EQ(s.engine()->method(), Method::RegionGrowing);
        s.engine()->result(result);
    });
    EXPECT_TRUE(same(result, expected(v, r)));
}

TEST(SessionWorker, PublishesWaitSeveralTimesTheirCostOnAFakeClock) {
    // The rule, on a clock that moves only when the engine steps (1 ms a step, one step an advance:
    // budget 0) and when labels are written (2, 4, 6, 8 ms, in turn): while running, publish i + 1
    // comes at the first advance that ends at least max(interval, factor x cost_i) after publish i
    // began, so the gap is at least that wait and less than the wait plus one step. The last
    // publish comes when the run finishes, whatever the wait. No real time is read: the old
    // version of this test measured gaps on the wall clock and failed under a parallel test run
    // (lucent_bench_engines --worker 1 reports the real figures).
    const Volume v = rod();
    const SegmentationRequest r = rodRequest(v);
    const LabelMap result = expected(v, r);
    constexpr std::chrono::microseconds kStep{1000}, kInterval = SessionWorker::kPublishInterval;
    for (const int factor : {4, 0}) {
        FakeClock clock;
        LabelMap shown(v.geometry());
        std::vector<Write> writes;
        FakeClock::time_point finishedAt{};
        {
            SessionWorker worker(std::chrono::microseconds(0), factor, clock.function());
            worker.begin(pacedRegionGrowing(clock, kStep, finishedAt), r, 1,
                         [&](const Segmenter& e, const VoxelBox& box) {
                             e.writeLabels(LabelSink::host(shown), &box);
                             const std::chrono::microseconds cost{2000 * (1 + int(writes.size() % 4))};
                             writes.push_back({clock.now(), cost});
                             clock.advance(cost);
                         });
            worker.waitUntilSettled();
        }
        ASSERT_GE(writes.size(), 6u) << "factor " << factor << ": the region was shown while it grew";
        EXPECT_TRUE(same(shown, result)) << "the last write shows the finished region";
        EXPECT_EQ(writes.back().began, finishedAt) << "published as soon as the run finished";
        for (std::size_t w = 0; w + 2 < writes.size(); ++w) {
            const auto wait = std::max<FakeClock::duration>(kInterval, factor * writes[w].cost);
            const auto gap = writes[w + 1].began - writes[w].began;
            EXPECT_GE(gap, wait) << "factor " << factor << ", write " << w + 1 << " of " << writes.size();
            EXPECT_LT(gap, wait + kStep) << "factor " << factor << ", write " << w + 1 << " of " << writes.size();
        }
    }
}

namespace {

/// Polls `done` for up to 10 s of real time (a guard against a hang, not a measurement).
bool eventually(const std::function<bool()>& done) {
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done()) {
        if (std::chrono::steady_clock::now() > giveUp) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

}  // namespace

TEST(SessionWorker, APacedRunStepsOnlyWhenAStepIsDueOnAFakeClock) {
    // 10 steps a second: one step each time the fake clock moves on by 100 ms, none while it stands
    // still, however long the worker waits in real time; a command (a slider) is not paced; max
    // runs the rest at once.
    const Volume v = rod();
    const SegmentationRequest r = rodRequest(v);
    FakeClock clock;
    FakeClock::time_point finishedAt{};
    LabelMap shown(v.geometry());
    SessionWorker worker(std::chrono::microseconds(8000), 0, clock.function());
    worker.setSpeed(10);
    worker.begin(pacedRegionGrowing(clock, FakeClock::duration::zero(), finishedAt), r, 1,
                 [&](const Segmenter& e, const VoxelBox& box) { e.writeLabels(LabelSink::host(shown), &box); });
    SessionWorker::Published seen;
    const auto look = [&] {
        worker.take([&](const SessionWorker::Published& p) { seen = p; });
        return seen;
    };
    ASSERT_TRUE(eventually([&] { return !look().starting; }));
    // The worker has looked at the (standing) clock three more times and found no step due: counted
    // reads, not a sleep of real time that a slow machine could outlast. The session's own count is
    // read through a command, which runs between advances, so a step taken by mistake is seen.
    const auto stillAfterPolls = [&](int steps) {
        const long mark = clock.reads();
        EXPECT_TRUE(eventually([&] { return clock.reads() >= mark + 3; })) << "the paced worker polls its clock";
        int taken = -1;
        worker.command([&](SegmentationSession& s) { taken = int(s.convergence().size()); });
        return taken == steps && look().steps == steps;
    };
    EXPECT_TRUE(stillAfterPolls(0)) << "no step before its time: the start state is shown for a period";
    for (int k = 1; k <= 4; ++k) {
        clock.advance(std::chrono::milliseconds(100));
        ASSERT_TRUE(eventually([&] { return look().steps >= k; })) << "step " << k << " is due";
        EXPECT_TRUE(stillAfterPolls(k)) << "exactly one step per period, step " << k;
        EXPECT_EQ(seen.state, SessionState::Running);
    }
    worker.command([](SegmentationSession& s) { s.stepOnce(); });  // the Step button: at once, whatever the pace
    EXPECT_EQ(look().steps, 5);
    worker.command([](SegmentationSession& s) { s.play(); });
    EXPECT_TRUE(stillAfterPolls(5)) << "played again: paced again";
    // A parameter change (LiveSegmentation::update) finishes unpaced: the rest runs with the clock still.
    worker.finishUnpaced();
    EXPECT_TRUE(eventually([&] { return look().state == SessionState::Finished; }))
        << "unpaced, the rest ran without the clock moving";
    EXPECT_GT(seen.steps, 100);
}

TEST(SessionWorker, ARunCancelledWhileStartingIsNoLongerStarting) {
    // Esc while a run starts: once its start returns, nothing says "starting" any more (the viewer
    // would show a run that never comes, with Pause and Cancel, until the next run).
    const Volume v = ball();
    LabelMap shown(v.geometry());
    Gate gate;
    SessionWorker worker;
    worker.begin(gatedRegionGrowing(gate), srgRequest(v), 1, hostWriter(shown));
    while (!gate.entered) std::this_thread::yield();
    worker.cancel();
    gate.open = true;
    worker.waitUntilSettled();
    worker.take([](const SessionWorker::Published& p) {
        EXPECT_FALSE(p.starting);
        EXPECT_EQ(p.state, SessionState::Idle);
    });
    EXPECT_EQ(shown.count(1), 0u) << "the cancelled run wrote nothing";
}

TEST(SessionWorker, ARunBegunAfterACancelDuringAStartRuns) {
    // Esc while one run starts, then a new seed: the new run starts and finishes.
    const Volume v = ball();
    LabelMap shown(v.geometry());
    Gate gate;
    SessionWorker worker;
    worker.begin(gatedRegionGrowing(gate), srgRequest(v, 240), 1, hostWriter(shown));
    while (!gate.entered) std::this_thread::yield();
    worker.cancel();
    const SegmentationRequest r = srgRequest(v);
    worker.begin(std::make_unique<RegionGrowingCpu>(), r, 1, hostWriter(shown));
    gate.open = true;
    worker.waitUntilSettled();
    worker.take([](const SessionWorker::Published& p) {
        EXPECT_FALSE(p.starting);
        EXPECT_EQ(p.state, SessionState::Finished);
    });
    EXPECT_TRUE(same(shown, expected(v, r)));
}
