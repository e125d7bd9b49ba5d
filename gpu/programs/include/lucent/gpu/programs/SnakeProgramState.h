/// @brief The stage program's state in device memory (SnakeProgram.h): the slice's checkpoints,
/// the node arrays, the candidates' segment sums and the leader's preparation of each stage.
#pragma once

#include "lucent/core/seg/HostDevice.h"
#include "lucent/core/seg/SnakeCriterion.h"
#include "lucent/core/seg/SnakeGeometry.h"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

/// A stage of a longer step: one idea, named, but inlined on the device as the step's own code was
/// (a call would move the caller's registers through the stack; the kernels have none to spare).
#ifdef __CUDACC__
#define LUCENT_STAGE __forceinline__ __host__ __device__
#else
#define LUCENT_STAGE inline
#endif

namespace lucent::snake {

constexpr int kGroupShift = 3;   ///< a checkpoint of the cumulated images every 8 pixels of a row
constexpr int kRowsPerJob = 32;  ///< rows one warp sums in one job (one a lane: no lane waits on a second load)
constexpr int kSlots = 16;       ///< accumulators per item: 8 candidates x 2 segments

/// C_z and C_z2 of a row before pixel 8 g (exclusive prefix sums at a group start), and the group's
/// 8 pixels (0 past the row's end): a row of a segment reads one 32-byte sector, where a checkpoint
/// and the group's pixels from the slice were two loads from two lines.
struct alignas(32) Checkpoint {
    long long z, z2;
    std::int16_t px[1 << kGroupShift];
};

LUCENT_HD inline int checkpointGroups(int width) { return (width >> kGroupShift) + 1; }

/// The slice as the stages read it: the checkpoints of the cumulated images of its bounds (the
/// pixels the snake sees, snakeBounds; the full images would be 16 bytes a pixel, checkpoints with
/// their pixels are 4). Row y, column x of the slice is row y - y0, column x - x0 of the records.
struct Slice {
    const Checkpoint* checkpoints = nullptr;  ///< bounds.height() x groups
    SnakeBounds bounds;
    int groups = 0;  ///< checkpointGroups(bounds.width())
};

enum Stage : int { kTotals = 0, kMoves = 1, kInsert = 2, kStop = 3 };

/// The leader block's own counters (Exec::leaderInt): no other block reads them, so they live in
/// its shared memory on the device, where an atomic or a read after a barrier costs a fraction of
/// an L2 round trip (a stage's decisions are a chain of such round trips). `moved` holds from an
/// iteration's start (beginIteration) to its end, which a launch never splits.
enum LeaderInt : int { kListCount = 0, kMoverCount, kMismatch, kMoved, kLeaderInts };

/// Everything the stages share, in device memory. The leader block writes it between barriers;
/// every thread reads it after one.
struct State {
    // The next stage: its kind, the move phase (0 even, 1 odd, 2 the last node of an odd count),
    // its items (phase nodes, long segments or all segments) and its longest candidate segment.
    int stage, phase, items, maxRows;
    // The polygon: node count, room for nodes, move distance d, the length that gets a new node.
    int n, capacity, d, minSegment;
    // This launch: run the slice-start totals first (fresh), iterations allowed and done, why it
    // stopped, GL values written to the history.
    int fresh, budget, done, sliceDone, needRoom, glCount;
    // Rounds of speculation so far (the leader's other counters are LeaderInts).
    int rounds, padding;
    ExactSums image, target, specTotal;
    double gl;
};

/// Node arrays (capacity entries unless said) and the leader's scratch.
struct Arrays {
    PixelPoint *pos, *pos2;
    ExactSums *seg, *seg2;  ///< seg[i]: the contribution of segment i -> i + 1
    ExactSums* acc;         ///< capacity x kSlots candidate segment sums
    ExactSums *delta, *prefix;
    double* candGl;  ///< capacity x 8
    int* blocked;    ///< capacity x 8
    int* list;       ///< capacity x 8
    int *best, *spec, *dec, *items, *eligible, *newIndex;
    double* history;  ///< GL after the slice start (fresh) and after each iteration of a launch
};

/// Program::profile's counters: the leader's clock cycles added up over a launch's stages, and
/// the stages.
enum class ProgramProfile : int {
    SumsAndBarrier,  ///< the candidates' sums and the first barrier
    Decisions,       ///< the leader's decisions
    Barrier,         ///< the second barrier
    Stages,          ///< stages run (a count)
    Count
};

/// Profile counters indexed by their enum E (E::Count of them): a launch's own tallies, added to
/// its profile buffer at the end.
template <class E>
struct Tally {
    long long at[int(E::Count)];
    LUCENT_HD long long& operator[](E e) { return at[int(e)]; }
    LUCENT_HD long long operator[](E e) const { return at[int(e)]; }
};

struct Program {
    State* state;
    Arrays a;
    Slice slice;
    /// Where the time of a stage goes, when not null (LUCENT_SNAKE_PROFILE): ProgramProfile::Count
    /// counters, indexed by ProgramProfile.
    long long* profile = nullptr;
};

static_assert(sizeof(State) % 8 == 0, "State is loaded as 8-byte words");

/// Loads of what another block (or an atomic) wrote before the last barrier: through L2 on the
/// device, so no stale L1 line is read; plain on the host. Arrays are 8-byte aligned. Counters
/// that threads bump atomically are also reset atomically (Exec::atomicSetInt) and read so.
template <class T>  // int, double
LUCENT_HD inline T ldWord(const T* p) {
#ifdef __CUDA_ARCH__
    return __ldcg(p);
#else
    return *p;
#endif
}
LUCENT_HD inline int ldInt(const int* p) { return ldWord(p); }
LUCENT_HD inline PixelPoint ldPoint(const PixelPoint* p) {
#ifdef __CUDA_ARCH__
    const int2 v = __ldcg(reinterpret_cast<const int2*>(p));
    return {v.x, v.y};
#else
    return *p;
#endif
}
LUCENT_HD inline ExactSums ldSums(const ExactSums* p) {
#ifdef __CUDA_ARCH__
    return {__ldcg(&p->n), __ldcg(&p->sz), __ldcg(&p->sz2)};
#else
    return *p;
#endif
}
LUCENT_HD inline State ldState(const State* p) {
#ifdef __CUDA_ARCH__
    long long words[sizeof(State) / 8];
    for (unsigned i = 0; i < sizeof(State) / 8; ++i) words[i] = __ldcg(reinterpret_cast<const long long*>(p) + i);
    State st;
    memcpy(&st, words, sizeof st);
    return st;
#else
    return *p;
#endif
}

LUCENT_HD inline int imin(int a, int b) { return a < b ? a : b; }
LUCENT_HD inline int imax(int a, int b) { return a > b ? a : b; }
LUCENT_HD inline int iabs(int a) { return a < 0 ? -a : a; }

/// Nodes of move phase `phase` (0: even, 1: odd, 2: the last of an odd count, which neighbours
/// node 0) in visiting order; no two are neighbours, so each phase's segments are disjoint.
LUCENT_HD inline int phaseCount(int n, int phase) { return phase == 2 ? (n & 1) : (n - (n & 1)) / 2; }
LUCENT_HD inline int phaseNode(int n, int phase, int t) { return phase == 2 ? n - 1 : 2 * t + phase; }
/// The visiting index of node k in `phase`, or -1.
LUCENT_HD inline int phaseIndex(int n, int phase, int k) {
    if (phase == 2) return (n & 1) && k == n - 1 ? 0 : -1;
    return k < n - (n & 1) && (k & 1) == phase ? k >> 1 : -1;
}

/// Adds row y of segment a -> b to `s` (unsigned: the caller applies the direction): the pixels of
/// the bounds left of the crossing, ceil(x) - 1 being the last, exactly as SnakeCpu::segmentSums;
/// they are a checkpoint and 0..7 pixels of its group, all in one record.
LUCENT_HD inline void addRow(const Slice& im, PixelPoint a, PixelPoint b, int y, ExactSums& s) {
    const int count = im.bounds.pixelsLeftOf(crossingColumn(a, b, y));
    if (count == 0) return;
    const int g = count >> kGroupShift, rest = count - (g << kGroupShift);
    const Checkpoint c = im.checkpoints[std::size_t(y - im.bounds.y0) * im.groups + g];
    long long z1 = c.z, z2 = c.z2;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < (1 << kGroupShift) - 1; ++k)
        if (k < rest) {  // from the record's registers
            const long long z = c.px[k];
            z1 += z;
            z2 += z * z;
        }
    s.n += count;
    s.sz += z1;
    s.sz2 += z2;
}

LUCENT_HD inline bool inside(const Slice& im, PixelPoint c) { return im.bounds.contains(c); }

/// The segment summed by job slot `slot` of item `item` of the stage; false when there is none
/// (a candidate off the slice, a rounding that repeats another).
LUCENT_HD inline bool jobSegment(const Program& p, const State& st, int item, int slot, PixelPoint& a, PixelPoint& b) {
    const int n = st.n;
    if (st.stage == kTotals) {
        a = ldPoint(p.a.pos + item);
        b = ldPoint(p.a.pos + (item + 1) % n);
        return true;
    }
    PixelPoint c;
    int i = 0;
    if (st.stage == kMoves) {
        i = phaseNode(n, st.phase, item);
        c = snakeMove(ldPoint(p.a.pos + i), slot >> 1, st.d);
        if (!inside(p.slice, c)) return false;
        a = (slot & 1) ? c : ldPoint(p.a.pos + (i + n - 1) % n);
        b = (slot & 1) ? ldPoint(p.a.pos + (i + 1) % n) : c;
        return true;
    }
    i = ldInt(p.a.items + item);
    const PixelPoint from = ldPoint(p.a.pos + i), to = ldPoint(p.a.pos + (i + 1) % n);
    if (!insertCandidate(from, to, slot >> 1, c)) return false;
    a = (slot & 1) ? c : from;
    b = (slot & 1) ? to : c;
    return true;
}

/// Every block: the segment sums of the stage's candidates, a warp per job of up to kRowsPerJob
/// rows of one segment.
template <class Exec>
LUCENT_HD void sumSegments(Exec& ex, const Program& p, const State& st) {
    const int chunks = (st.maxRows + kRowsPerJob - 1) / kRowsPerJob;
    const int slots = st.stage == kMoves ? kSlots : st.stage == kInsert ? 8 : 1;
    ex.warpJobs(
        (long long)st.items * slots * chunks, [&](long long job, int lane, int lanes, ExactSums& out) -> ExactSums* {
            const int chunk = int(job % chunks), slot = int(job / chunks % slots), item = int(job / chunks / slots);
            PixelPoint a, b;
            if (!jobSegment(p, st, item, slot, a, b)) return nullptr;
            const int first = imin(a.y, b.y) + chunk * kRowsPerJob, last = imin(imax(a.y, b.y), first + kRowsPerJob);
            if (first >= last) return nullptr;
            for (int y = first + lane; y < last; y += lanes) addRow(p.slice, a, b, y, out);
            if (b.y < a.y) out = ExactSums{} - out;  // going up: left ends, subtracted
            return &p.a.acc[std::size_t(item) * kSlots + slot];
        });
}

/// Leader: the next stage sums the moves of `phase`; its accumulators are zeroed and its longest
/// candidate segment recorded. Called after a leader barrier, by every leader thread.
template <class Exec>
LUCENT_HD void prepareMoves(Exec& ex, const Program& p, int n, int d, int phase) {
    State& s = *p.state;
    ex.leaderFor(1, [&](long long) { ex.atomicSetInt(&s.maxRows, 0); });
    ex.leaderSync();
    const int items = phaseCount(n, phase);
    ex.leaderFor(items, [&](long long tt) {
        const int t = int(tt), i = phaseNode(n, phase, t);
        const PixelPoint a = p.a.pos[(i + n - 1) % n], b = p.a.pos[i], c = p.a.pos[(i + 1) % n];
        ex.atomicMaxInt(&s.maxRows, imax(iabs(b.y - a.y), iabs(c.y - b.y)) + d);
        for (int k = 0; k < kSlots; ++k) p.a.acc[std::size_t(t) * kSlots + k] = ExactSums{};
    });
    ex.leaderFor(1, [&](long long) {
        s.stage = kMoves;
        s.phase = phase;
        s.items = items;
    });
}

/// Leader: the next stage sums the insertion candidates of every long segment (listed in order).
template <class Exec>
LUCENT_HD void prepareInsert(Exec& ex, const Program& p, int n, int minSegment) {
    State& s = *p.state;
    ex.leaderFor(n, [&](long long ii) {
        const int i = int(ii);
        p.a.dec[i] = longSegment(p.a.pos[i], p.a.pos[(i + 1) % n], minSegment) ? 1 : 0;
    });
    ex.leaderFor(1, [&](long long) { ex.atomicSetInt(&s.maxRows, 0); });
    ex.leaderSync();
    const int count = ex.template leaderScan<int>(
        n, [&](int i) { return p.a.dec[i]; },
        [&](int i, int before) {
            p.a.eligible[i] = p.a.dec[i] ? before : -1;
            if (p.a.dec[i]) p.a.items[before] = i;
        });
    ex.leaderSync();
    ex.leaderFor(count, [&](long long ee) {
        const int e = int(ee), i = p.a.items[e];
        ex.atomicMaxInt(&s.maxRows, iabs(p.a.pos[(i + 1) % n].y - p.a.pos[i].y) / 2 + 1);
        for (int k = 0; k < kSlots; ++k) p.a.acc[std::size_t(e) * kSlots + k] = ExactSums{};
    });
    ex.leaderFor(1, [&](long long) {
        s.stage = kInsert;
        s.items = count;
    });
}

/// Leader: the next stage sums every segment of a slice's first polygon.
template <class Exec>
LUCENT_HD void prepareTotals(Exec& ex, const Program& p, int n) {
    State& s = *p.state;
    ex.leaderFor(1, [&](long long) { ex.atomicSetInt(&s.maxRows, 0); });
    ex.leaderSync();
    ex.leaderFor(n, [&](long long ii) {
        const int i = int(ii);
        ex.atomicMaxInt(&s.maxRows, iabs(p.a.pos[(i + 1) % n].y - p.a.pos[i].y));
        p.a.acc[std::size_t(i) * kSlots] = ExactSums{};
    });
    ex.leaderFor(1, [&](long long) {
        s.stage = kTotals;
        s.items = n;
        s.fresh = 0;
    });
}

/// Leader: an iteration starts with the even phase, unless the budget is spent or the polygon
/// might outgrow its arrays in this iteration (insertion at most doubles it): then the launch stops.
template <class Exec>
LUCENT_HD void beginIteration(Exec& ex, const Program& p) {
    State& s = *p.state;
    ex.leaderSync();
    const State st = ldState(&s);
    ex.leaderSync();
    if (st.done >= st.budget || 2 * st.n > st.capacity) {
        ex.leaderFor(1, [&](long long) {
            s.needRoom = st.done < st.budget;
            s.stage = kStop;
        });
        return;
    }
    ex.leaderFor(1, [&](long long) { ex.atomicSetInt(ex.leaderInt(kMoved), 0); });
    prepareMoves(ex, p, st.n, st.d, 0);
}

/// Leader: the iteration's GL goes to the history; the slice ends or the next iteration begins.
template <class Exec>
LUCENT_HD void endIteration(Exec& ex, const Program& p, bool sliceDone) {
    State& s = *p.state;
    ex.leaderFor(1, [&](long long) {
        p.a.history[s.glCount++] = s.gl;
        s.done += 1;
        if (sliceDone) {
            s.sliceDone = 1;
            s.stage = kStop;
        }
    });
    if (!sliceDone) beginIteration(ex, p);
}

/// Leader, after kTotals: the slice's segment sums, target and first GL.
template <class Exec>
LUCENT_HD void finishTotals(Exec& ex, const Program& p, const State& st) {
    State& s = *p.state;
    ex.leaderFor(st.n, [&](long long i) { p.a.seg[i] = ldSums(p.a.acc + std::size_t(i) * kSlots); });
    ex.leaderSync();
    const ExactSums total = ex.template leaderScan<ExactSums>(
        st.n, [&](int i) { return p.a.seg[i]; }, [](int, const ExactSums&) {});
    ex.leaderFor(1, [&](long long) {
        s.target = total;
        s.gl = snakeGl(st.image, total);
        p.a.history[s.glCount++] = s.gl;
    });
    beginIteration(ex, p);
}

/// Position of node k while phase node t decides: moved if an earlier node of the phase is
/// (guessed to be) moved, else where the phase found it.
LUCENT_HD inline PixelPoint guessedAt(const Arrays& a, int n, int phase, int d, int t, int k) {
    const int u = phaseIndex(n, phase, k);
    if (u >= 0 && u < t && a.spec[u]) return snakeMove(a.pos[k], a.best[u], d);
    return a.pos[k];
}

/// Threads the leader block splits its crossing tests over (a hint: results do not depend on it).
constexpr int kLeaderLanes = 512;

/// Leader: f(row, begin, end) over segments [begin, end) of every row < rows (a candidate tested
/// against the polygon's n segments), the segments cut into chunks so that about kLeaderLanes
/// threads share the work. One thread walks a chunk: the row's own points are computed once and
/// each segment's end is the next one's start (no division per test, half the loads).
template <class Exec, class F>
LUCENT_HD void forRowChunks(Exec& ex, int rows, int n, F&& f) {
    if (rows <= 0 || n <= 0) return;
    const int chunks = rows >= kLeaderLanes ? 1 : imin(n, kLeaderLanes / rows);
    ex.leaderFor((long long)rows * chunks, [&](long long j) {
        const int row = int(j / chunks), chunk = int(j % chunks);
        f(row, int((long long)n * chunk / chunks), int((long long)n * (chunk + 1) / chunks));
    });
}

LUCENT_HD inline int nextNode(int i, int n) { return i + 1 == n ? 0 : i + 1; }

/// Leader: the guess a round computed (dec) becomes the next round's guess (spec); the buffers
/// swap instead of copying. Every leader thread swaps its own copy alike.
LUCENT_HD inline void nextGuess(Arrays& a) {
    int* t = a.spec;
    a.spec = a.dec;
    a.dec = t;
}

}  // namespace lucent::snake
