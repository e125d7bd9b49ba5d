/// @brief Runs the replicated-decision snake program (SnakeReplica.h) on the host as one block: a
/// sequential executor and host arrays laid out as SnakeCuda lays out device memory, so the tests
/// check its logic against SnakeCpu where there is no GPU.
#pragma once

#include "SnakeHostProgram.h"

#include "lucent/gpu/programs/SnakeReplica.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace lucent::testing {

/// SnakeHostExec with the block-scope names SnakeReplica.h uses; one block, so the grid barrier is nothing.
struct SnakeReplicaHostExec : SnakeHostExec {
    int shared[snake::kReplicaInts] = {};
    int block() const { return 0; }
    int blocks() const { return 1; }
    /// One block does every piece, but items are cut as if over this many blocks: the split items,
    /// the gathering and the last-arrival decision run as on the device.
    int spreadOver = 40;
    int spread() const { return spreadOver; }
    int warps() const { return snake::kMaxWarps; }
    /// Jobs run one after another here: every one is warp 0's (SnakeHostExec::warpJobs adds plainly).
    int warp() const { return 0; }
    void globalAdd(ExactSums* to, const ExactSums& v) { *to += v; }
    bool lastToArrive(int* arrivals, int done, int parts) { return (*arrivals += done) == parts; }
    void blockSync() {}
    void warpSync() {}
    template <class F>
    void blockFor(long long n, F&& f) {
        visit(n, f);
    }
    template <class F>
    void blockJobs(long long jobs, F&& f) {
        warpJobs(jobs, f);
    }
    /// Every speculation round scans once: a round that never settles fails the test here instead
    /// of hanging it (ctest's timeout would be the only other stop).
    long long scans = 0;
    static constexpr long long kMostScans = 20'000'000;
    template <class V, class Get, class Put>
    V blockScan(int n, Get&& get, Put&& put) {
        if (++scans > kMostScans)
            throw std::runtime_error("the replica program ran " + std::to_string(kMostScans) +
                                     " block scans: a speculation does not settle");
        return leaderScan<V>(n, get, put);
    }
    template <class V, class Get, class Put>
    V cheapScan(int n, Get&& get, Put&& put) {
        return blockScan<V>(n, get, put);
    }
    template <class Get, class Put>
    int flagScan(int n, Get&& get, Put&& put) {
        return blockScan<int>(n, get, put);
    }
    int atomicExchInt(int* p, int v) { return std::exchange(*p, v); }
    int* sharedInt(int which) { return shared + which; }
    int readSharedInt(int which) const { return shared[which]; }
};

/// One slice of an int16 volume, seen within `bounds`, with the replica program's state, polygon
/// and handoff in host memory.
class SnakeReplicaHost {
public:
    SnakeReplicaHost(const Volume& v, int slice, const SnakeBounds& bounds, std::vector<PixelPoint> polygon, int d,
                     int minSegment, int capacity, SnakeHostExec::Order order = SnakeHostExec::Order::Forward,
                     int spread = 40, bool useCache = true)
        : m_bounds(bounds), m_capacity(capacity), m_useCache(useCache ? 1 : 0) {
        m_exec.spreadOver = spread;
        m_state.image = hostSlice(v, slice, bounds, m_checkpoints);
        m_exec.order = order;
        m_state.n = int(polygon.size());
        m_state.d = std::max(1, d);
        m_state.minSegment = minSegment;
        m_state.fresh = 1;
        m_pos.assign(std::size_t(capacity), PixelPoint{});
        m_seg.assign(std::size_t(capacity), ExactSums{});
        m_handoff.assign(2 * std::size_t(capacity), snake::Handoff{});
        m_acc.assign(std::size_t(capacity) * snake::kSlots, ExactSums{});
        m_arrivals.assign(std::size_t(capacity), 0);
        m_cache.assign(std::size_t(capacity) * snake::kSlots, ExactSums{});
        m_shared.assign(snake::replicaLayout(nullptr, capacity, nullptr), 0);
        std::copy(polygon.begin(), polygon.end(), m_pos.begin());
        launch(0);  // the slice-start totals, as SnakeCuda::beginSlice
    }

    /// Up to `budget` iterations; returns those done (fewer when the slice ends or room runs out).
    int launch(int budget) {
        m_state.budget = budget;
        m_state.done = m_state.sliceDone = m_state.needRoom = m_state.glCount = 0;
        m_history.assign(std::size_t(budget) + 2, 0.0);
        snake::Replica r;
        snake::replicaLayout(m_shared.data(), m_capacity, &r);
        const snake::ReplicaProgram p{&m_state,
                                      m_pos.data(),
                                      m_seg.data(),
                                      m_history.data(),
                                      m_handoff.data(),
                                      m_capacity,
                                      m_acc.data(),
                                      m_arrivals.data(),
                                      m_cache.data(),
                                      m_useCache,
                                      {m_checkpoints.data(), m_bounds, snake::checkpointGroups(m_bounds.width())},
                                      m_profile.at};
        snake::runReplica(m_exec, p, r);
        m_glHistory.insert(m_glHistory.end(), m_history.begin(), m_history.begin() + m_state.glCount);
        // Every split item was gathered and cleared by its deciding block.
        for (const auto& a : m_acc)
            if (a.n || a.sz || a.sz2) throw std::logic_error("replica accumulators left dirty");
        for (int a : m_arrivals)
            if (a) throw std::logic_error("replica arrivals left dirty");
        return m_state.done;
    }

    const snake::State& state() const { return m_state; }
    /// Nodes whose candidates were summed in move phases, over every launch so far.
    long long nodesSummed() const { return m_profile[snake::ReplicaProfile::NodesSummed]; }
    std::vector<PixelPoint> polygon() const { return {m_pos.begin(), m_pos.begin() + m_state.n}; }
    const std::vector<double>& glHistory() const { return m_glHistory; }

private:
    SnakeBounds m_bounds;
    int m_capacity = 0;
    std::vector<snake::Checkpoint> m_checkpoints;
    snake::State m_state{};
    std::vector<PixelPoint> m_pos;
    std::vector<ExactSums> m_seg;
    std::vector<snake::Handoff> m_handoff;
    std::vector<ExactSums> m_acc;
    std::vector<int> m_arrivals;
    std::vector<ExactSums> m_cache;
    int m_useCache = 1;
    /// The program's counters (its clock reads 0 on the host): all of them, as it adds to every one.
    snake::Tally<snake::ReplicaProfile> m_profile{};
    std::vector<unsigned char> m_shared;
    std::vector<double> m_history, m_glHistory;
    SnakeReplicaHostExec m_exec;
};

}  // namespace lucent::testing
