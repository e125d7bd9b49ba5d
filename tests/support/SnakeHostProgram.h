/// @brief Runs the CUDA snake's stage program (SnakeProgram.h) on the host: a sequential executor
/// and host arrays laid out as SnakeCuda lays out device memory, so the tests check the stage logic
/// against SnakeCpu where there is no GPU.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/gpu/programs/SnakeProgram.h"

#include <algorithm>
#include <random>
#include <vector>

namespace lucent::testing {

/// Runs every parallel loop sequentially, in order, backwards or shuffled (results must not depend
/// on the order the device happens to take), every warp job lane by lane, scans sequentially.
struct SnakeHostExec {
    enum class Order { Forward, Backward, Shuffled };
    Order order = Order::Forward;
    std::mt19937 rng{7};

    int counters[snake::kLeaderInts] = {};
    int* leaderInt(int which) { return counters + which; }
    int readLeaderInt(int which) const { return counters[which]; }
    bool leader() const { return true; }
    long long clock() const { return 0; }
    void gridSync() {}
    void leaderSync() {}
    template <class F>
    void leaderFor(long long n, F&& f) {
        visit(n, f);
    }
    template <class F>
    void warpJobs(long long jobs, F&& f) {
        visit(jobs, [&](long long job) {
            ExactSums total{};
            ExactSums* target = nullptr;
            for (int lane = 0; lane < 32; ++lane) {
                ExactSums out{};
                if (ExactSums* t = f(job, lane, 32, out)) {
                    target = t;
                    total += out;
                }
            }
            if (target) *target += total;
        });
    }
    template <class F>
    void visit(long long n, F&& f) {
        if (order != Order::Shuffled) {
            for (long long k = 0; k < n; ++k) f(order == Order::Backward ? n - 1 - k : k);
            return;
        }
        std::vector<long long> items(static_cast<std::size_t>(n));
        for (long long k = 0; k < n; ++k) items[std::size_t(k)] = k;
        std::shuffle(items.begin(), items.end(), rng);
        for (long long k : items) f(k);
    }
    template <class V, class Get, class Put>
    V leaderScan(int n, Get&& get, Put&& put) {
        V carry{};
        for (int i = 0; i < n; ++i) {
            const V v = get(i);
            put(i, carry);
            carry = carry + v;
        }
        return carry;
    }
    int atomicAddInt(int* p, int v) {
        const int old = *p;
        *p += v;
        return old;
    }
    void atomicMinInt(int* p, int v) { *p = std::min(*p, v); }
    void atomicMaxInt(int* p, int v) { *p = std::max(*p, v); }
    void atomicSetInt(int* p, int v) { *p = v; }
};

/// The pixels of `bounds` on slice `slice` of int16 volume `v` as both device programs read them:
/// the pixels and the checkpoints of their cumulated images (as SnakeCuda's checkpoint kernel makes
/// them). Returns their sums.
inline ExactSums hostSlice(const Volume& v, int slice, const SnakeBounds& bounds,
                           std::vector<snake::Checkpoint>& checkpoints) {
    const int stride = v.geometry().dims[0], width = bounds.width(), height = bounds.height();
    const int groups = snake::checkpointGroups(width);
    const std::int16_t* pixels = v.int16Data() + v.geometry().index(bounds.x0, bounds.y0, slice);
    checkpoints.assign(std::size_t(groups) * height, snake::Checkpoint{});
    ExactSums image{};
    for (int y = 0; y < height; ++y) {
        long long z = 0, z2 = 0;
        for (int x = 0; x <= width; ++x) {
            snake::Checkpoint& c = checkpoints[std::size_t(y) * groups + x / 8];
            if (x % 8 == 0) {
                c.z = z;
                c.z2 = z2;
            }
            if (x == width) break;
            const long long value = pixels[std::size_t(y) * stride + x];
            c.px[x % 8] = pixels[std::size_t(y) * stride + x];
            z += value;
            z2 += value * value;
        }
        image += ExactSums{width, z, z2};
    }
    return image;
}

/// One slice of an int16 volume, seen within `bounds`, with the program's state and arrays in host memory.
class SnakeHostProgram {
public:
    SnakeHostProgram(const Volume& v, int slice, const SnakeBounds& bounds, std::vector<PixelPoint> polygon, int d,
                     int minSegment, int capacity, SnakeHostExec::Order order = SnakeHostExec::Order::Forward)
        : m_bounds(bounds) {
        m_state = {};
        m_state.image = hostSlice(v, slice, bounds, m_checkpoints);
        m_exec.order = order;
        m_state.n = int(polygon.size());
        m_state.d = std::max(1, d);
        m_state.minSegment = minSegment;
        m_state.fresh = 1;
        resize(capacity);
        std::copy(polygon.begin(), polygon.end(), m_pos.begin());
        launch(0);  // the slice-start totals, as SnakeCuda::beginSlice
    }

    /// Up to `budget` iterations; grows the arrays when the program asks for room, as SnakeCuda does.
    /// Returns the iterations done.
    int launch(int budget) {
        int total = 0;
        for (;;) {
            m_state.budget = budget - total;
            m_state.done = m_state.sliceDone = m_state.needRoom = m_state.glCount = 0;
            m_history.assign(std::size_t(m_state.budget) + 2, 0.0);
            snake::Program p{
                &m_state, arrays(), {m_checkpoints.data(), m_bounds, snake::checkpointGroups(m_bounds.width())}};
            snake::runProgram(m_exec, p);
            total += m_state.done;
            m_glHistory.insert(m_glHistory.end(), m_history.begin(), m_history.begin() + m_state.glCount);
            if (!m_state.needRoom) return total;
            resize(2 * m_state.capacity);
            ++m_grows;
        }
    }

    const snake::State& state() const { return m_state; }
    std::vector<PixelPoint> polygon() const { return {m_pos.begin(), m_pos.begin() + m_state.n}; }
    const std::vector<double>& glHistory() const { return m_glHistory; }
    int grows() const { return m_grows; }

private:
    void resize(int capacity) {
        const std::size_t c = std::size_t(capacity);
        m_state.capacity = capacity;
        m_pos.resize(c);
        m_pos2.resize(c);
        m_seg.resize(c);
        m_seg2.resize(c);
        m_acc.resize(c * snake::kSlots);
        m_delta.resize(c);
        m_prefix.resize(c);
        m_candGl.resize(c * 8);
        m_blocked.resize(c * 8);
        m_list.resize(c * 8);
        for (auto* v : {&m_best, &m_spec, &m_dec, &m_items, &m_eligible, &m_newIndex}) v->resize(c);
    }
    snake::Arrays arrays() {
        return {m_pos.data(),    m_pos2.data(),   m_seg.data(),      m_seg2.data(),     m_acc.data(),    m_delta.data(),
                m_prefix.data(), m_candGl.data(), m_blocked.data(),  m_list.data(),     m_best.data(),   m_spec.data(),
                m_dec.data(),    m_items.data(),  m_eligible.data(), m_newIndex.data(), m_history.data()};
    }

    SnakeBounds m_bounds;
    int m_grows = 0;
    std::vector<snake::Checkpoint> m_checkpoints;
    snake::State m_state{};
    std::vector<PixelPoint> m_pos, m_pos2;
    std::vector<ExactSums> m_seg, m_seg2, m_acc, m_delta, m_prefix;
    std::vector<double> m_candGl, m_history, m_glHistory;
    std::vector<int> m_blocked, m_list, m_best, m_spec, m_dec, m_items, m_eligible, m_newIndex;
    SnakeHostExec m_exec;
};

}  // namespace lucent::testing
