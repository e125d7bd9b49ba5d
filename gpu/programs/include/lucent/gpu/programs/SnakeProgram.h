/// @brief The region snake's steps as data-parallel stages over device-resident state, written once:
/// SnakeCuda runs them in one cooperative kernel, and SnakeHostExec runs the same code sequentially
/// in the tests (so the stage logic is checked against SnakeCpu on machines without a GPU).
///
/// Per stage every block first sums rows of candidate segments over the cumulated images (one warp
/// per job of up to kRowsPerJob rows, exact int64 sums, atomics into per-candidate accumulators);
/// after a grid barrier the leader block (block 0) takes the decisions SnakeCpu takes in sequence:
/// each node's best candidate, then the moves applied in node order, each kept only if GL still
/// falls and nothing crosses. That order is kept by speculation: every decision is computed in
/// parallel from a guess of the earlier ones (the prefix sums of their changes and the polygon
/// with their moves), the guess is replaced by the result and this repeats until no decision
/// changes; the first wrong guess is always fixed by a round, so the fixed point is exactly the
/// sequential outcome. Node insertion works the same way. A second barrier ends the stage.
/// (SnakeCuda runs this for polygons too large for SnakeReplica.h, which is faster on smaller ones.)
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

/// The slice as the stages read it: the checkpoints of its cumulated images (the full images would
/// be 16 bytes a pixel; checkpoints with their pixels are 4).
struct Slice {
    const Checkpoint* checkpoints = nullptr;  ///< height x groups
    int width = 0, height = 0, groups = 0;
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

/// Adds row y of segment a -> b to `s` (unsigned: the caller applies the direction): the pixels
/// left of the crossing, ceil(x) - 1 being the last, exactly as SnakeCpu::segmentSums; they are a
/// checkpoint and 0..7 pixels of its group, all in one record.
LUCENT_HD inline void addRow(const Slice& im, PixelPoint a, PixelPoint b, int y, ExactSums& s) {
    int count = crossingColumn(a, b, y);
    count = count < 0 ? 0 : count > im.width ? im.width : count;
    if (count == 0) return;
    const int g = count >> kGroupShift, rest = count - (g << kGroupShift);
    const Checkpoint c = im.checkpoints[std::size_t(y) * im.groups + g];
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

LUCENT_HD inline bool inside(const Slice& im, PixelPoint c) {
    return c.x >= 0 && c.y >= 0 && c.x < im.width && c.y < im.height;
}

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

/// Leader, after kMoves, first: every candidate's GL against the polygon as the phase found it;
/// those below the current GL that do not fold back are listed (kListCount) for crossing tests.
template <class Exec>
LUCENT_STAGE void judgeMoveCandidates(Exec& ex, const Program& p, const State& st, const Arrays& a) {
    const int n = st.n, d = st.d, phase = st.phase, count = st.items;
    ex.leaderFor(1, [&](long long) {
        ex.atomicSetInt(ex.leaderInt(kListCount), 0);
        ex.atomicSetInt(ex.leaderInt(kMoverCount), 0);
    });
    ex.leaderSync();
    ex.leaderFor(8LL * count, [&](long long j) {
        const int t = int(j >> 3), w = int(j & 7), i = phaseNode(n, phase, t);
        const PixelPoint c = snakeMove(a.pos[i], w, d);
        const PixelPoint prev = a.pos[(i + n - 1) % n], next = a.pos[(i + 1) % n];
        double gl = HUGE_VAL;
        int blocked = 1;
        if (inside(p.slice, c)) {
            const ExactSums* acc = a.acc + std::size_t(t) * kSlots + 2 * w;
            const ExactSums moved = st.target - a.seg[(i + n - 1) % n] - a.seg[i] + ldSums(acc) + ldSums(acc + 1);
            gl = snakeGl(st.image, moved);
            blocked = foldsBack(prev, c, next) ? 1 : 0;
        }
        a.candGl[j] = gl;
        a.blocked[j] = blocked;
        if (gl < st.gl && !blocked) a.list[ex.atomicAddInt(ex.leaderInt(kListCount), 1)] = int(j);
    });
    ex.leaderSync();
}

/// Leader: a listed candidate is blocked if it crosses a segment of the polygon as the phase found
/// it, other than the two segments it replaces.
template <class Exec>
LUCENT_STAGE void blockCrossingMoves(Exec& ex, const State& st, const Arrays& a) {
    const int n = st.n, d = st.d, phase = st.phase;
    forRowChunks(ex, ex.readLeaderInt(kListCount), n, [&](int row, int begin, int end) {
        const int pair = a.list[row], t = pair >> 3, i = phaseNode(n, phase, t);
        const PixelPoint c = snakeMove(a.pos[i], pair & 7, d);
        const PixelPoint prev = a.pos[i == 0 ? n - 1 : i - 1], next = a.pos[nextNode(i, n)];
        PixelPoint from = a.pos[begin];
        for (int seg = begin; seg < end; ++seg) {
            const int e = nextNode(seg, n);
            const PixelPoint to = a.pos[e];
            // Not the two segments being replaced. Many writers, one value: atomic, so no race is reported.
            if (seg != i && e != i && blockedBy(prev, c, next, from, to)) {
                ex.atomicSetInt(&a.blocked[pair], 1);
                return;
            }
            from = to;
        }
    });
    ex.leaderSync();
}

/// Leader: each phase node's best candidate (strictly lower GL, ties to the lowest candidate index,
/// not blocked), the change to the target it makes, and the first guess: every chosen move is
/// kept. Returns whether any node has a move.
template <class Exec>
LUCENT_STAGE bool chooseMoves(Exec& ex, const State& st, const Arrays& a) {
    const int n = st.n, phase = st.phase;
    ex.leaderFor(st.items, [&](long long tt) {
        const int t = int(tt), i = phaseNode(n, phase, t);
        int best = -1;
        double bestGl = st.gl;
        for (int w = 0; w < 8; ++w)
            if (!a.blocked[8 * t + w] && a.candGl[8 * t + w] < bestGl) {
                bestGl = a.candGl[8 * t + w];
                best = w;
            }
        a.best[t] = best;
        a.spec[t] = best >= 0;
        ExactSums change{};
        if (best >= 0) {
            const ExactSums* acc = a.acc + std::size_t(t) * kSlots + 2 * best;
            change = ldSums(acc) + ldSums(acc + 1) - a.seg[(i + n - 1) % n] - a.seg[i];
            ex.atomicAddInt(ex.leaderInt(kMoverCount), 1);
        }
        a.delta[t] = change;
    });
    ex.leaderSync();
    return ex.readLeaderInt(kMoverCount) > 0;
}

/// Leader, in a speculation round: under the guess (the prefix sums of the earlier guessed moves'
/// changes), a chosen move is kept if GL still falls; the kept ones are listed (kListCount).
template <class Exec>
LUCENT_STAGE void keepFallingMoves(Exec& ex, const Program& p, const State& st, const Arrays& a) {
    State& s = *p.state;
    const int count = st.items;
    const ExactSums total = ex.template leaderScan<ExactSums>(
        count, [&](int t) { return a.spec[t] ? a.delta[t] : ExactSums{}; },
        [&](int t, const ExactSums& before) { a.prefix[t] = before; });
    ex.leaderFor(1, [&](long long) {
        s.specTotal = total;
        ex.atomicSetInt(ex.leaderInt(kListCount), 0);
        ex.atomicSetInt(ex.leaderInt(kMismatch), INT_MAX);
    });
    ex.leaderSync();
    ex.leaderFor(count, [&](long long tt) {
        const int t = int(tt);
        int keep = 0;
        if (a.best[t] >= 0) {
            const ExactSums before = st.target + a.prefix[t];
            keep = snakeGl(st.image, before + a.delta[t]) < snakeGl(st.image, before);
        }
        a.dec[t] = keep;
        if (keep) a.list[ex.atomicAddInt(ex.leaderInt(kListCount), 1)] = t;
    });
    ex.leaderSync();
}

/// Leader, in a speculation round: a kept move is dropped if it crosses the polygon it meets at its
/// turn (the earlier guessed moves made). Returns whether every decision equals the guess.
template <class Exec>
LUCENT_STAGE bool movesMatchGuess(Exec& ex, const State& st, const Arrays& a) {
    const int n = st.n, d = st.d, phase = st.phase;
    forRowChunks(ex, ex.readLeaderInt(kListCount), n, [&](int row, int begin, int end) {
        const int t = a.list[row], i = phaseNode(n, phase, t);
        const PixelPoint c = snakeMove(a.pos[i], a.best[t], d);
        // The neighbours of a phase node are not in the phase: they are where the phase found them.
        const PixelPoint prev = a.pos[i == 0 ? n - 1 : i - 1], next = a.pos[nextNode(i, n)];
        PixelPoint from = guessedAt(a, n, phase, d, t, begin);
        for (int seg = begin; seg < end; ++seg) {
            const int e = nextNode(seg, n);
            const PixelPoint to = guessedAt(a, n, phase, d, t, e);
            if (seg != i && e != i && blockedBy(prev, c, next, from, to)) {
                ex.atomicSetInt(&a.dec[t], 0);
                return;
            }
            from = to;
        }
    });
    ex.leaderSync();
    ex.leaderFor(st.items, [&](long long t) {
        if (a.dec[t] != a.spec[t]) ex.atomicMinInt(ex.leaderInt(kMismatch), int(t));
    });
    ex.leaderSync();
    return ex.readLeaderInt(kMismatch) == INT_MAX;
}

/// Leader: the kept moves (the settled guess) applied to the polygon and its segment sums; the
/// target and GL after them.
template <class Exec>
LUCENT_STAGE void commitMoves(Exec& ex, const Program& p, const State& st, const Arrays& a) {
    State& s = *p.state;
    const int n = st.n, d = st.d, phase = st.phase;
    ex.leaderFor(st.items, [&](long long tt) {
        const int t = int(tt);
        if (!a.spec[t]) return;
        const int i = phaseNode(n, phase, t), w = a.best[t];
        const ExactSums* acc = a.acc + std::size_t(t) * kSlots + 2 * w;
        a.pos[i] = snakeMove(a.pos[i], w, d);
        a.seg[(i + n - 1) % n] = ldSums(acc);
        a.seg[i] = ldSums(acc + 1);
        ex.atomicSetInt(ex.leaderInt(kMoved), 1);
    });
    ex.leaderFor(1, [&](long long) {
        s.target = st.target + s.specTotal;
        s.gl = snakeGl(st.image, s.target);
    });
}

/// Leader, after a move phase: the next phase; after the last, the next iteration if a node of the
/// iteration moved, else insertion.
template <class Exec>
LUCENT_STAGE void afterMovePhase(Exec& ex, const Program& p, const State& st) {
    const int n = st.n, phase = st.phase;
    ex.leaderSync();
    const int moved = ex.readLeaderInt(kMoved);
    ex.leaderSync();
    if (phase == 0 || (phase == 1 && (n & 1)))
        prepareMoves(ex, p, n, st.d, phase + 1);
    else if (moved)
        endIteration(ex, p, false);
    else
        prepareInsert(ex, p, n, st.minSegment);
}

/// Leader, after kMoves: each phase node's best candidate against the polygon as the phase found
/// it, then the moves applied in node order as SnakeCpu::movePhase does, found by speculation:
/// rounds until the decisions equal their guess.
template <class Exec>
LUCENT_HD void applyMoves(Exec& ex, const Program& p, const State& st) {
    Arrays a = p.a;
    judgeMoveCandidates(ex, p, st, a);
    blockCrossingMoves(ex, st, a);
    if (chooseMoves(ex, st, a)) {
        for (;;) {
            keepFallingMoves(ex, p, st, a);
            if (movesMatchGuess(ex, st, a)) break;
            nextGuess(a);
            ex.leaderFor(1, [&](long long) { p.state->rounds += 1; });
        }
        commitMoves(ex, p, st, a);
    }
    afterMovePhase(ex, p, st);
}

/// The change insertion candidate k of long segment e (its item index) makes to the target.
LUCENT_HD inline ExactSums insertChange(const Arrays& a, int e, int k) {
    const ExactSums* acc = a.acc + std::size_t(e) * kSlots + 2 * k;
    return ldSums(acc) + ldSums(acc + 1) - a.seg[a.items[e]];
}

/// Leader, in an insertion round: under the guess (the prefix sums of the earlier segments' guessed
/// insertions), each rounding of a long segment's middle with GL not above the segment's that does
/// not fold back is listed (kListCount) for crossing tests; the others are blocked.
template <class Exec>
LUCENT_STAGE void judgeRoundings(Exec& ex, const Program& p, const State& st, const Arrays& a) {
    State& s = *p.state;
    const int n = st.n, count = st.items;
    const ExactSums total = ex.template leaderScan<ExactSums>(
        count, [&](int e) { return a.spec[e] >= 0 ? insertChange(a, e, a.spec[e]) : ExactSums{}; },
        [&](int e, const ExactSums& before) { a.prefix[e] = before; });
    ex.leaderFor(1, [&](long long) {
        s.specTotal = total;
        ex.atomicSetInt(ex.leaderInt(kListCount), 0);
        ex.atomicSetInt(ex.leaderInt(kMismatch), INT_MAX);
    });
    ex.leaderSync();
    ex.leaderFor(4LL * count, [&](long long j) {
        const int e = int(j >> 2), k = int(j & 3), i = a.items[e];
        const PixelPoint from = a.pos[i], to = a.pos[(i + 1) % n];
        PixelPoint c;
        a.blocked[8 * e + k] = 1;
        if (!insertCandidate(from, to, k, c)) return;
        const ExactSums before = st.target + a.prefix[e];
        const double gl = snakeGl(st.image, before + insertChange(a, e, k));
        a.candGl[8 * e + k] = gl;
        if (gl <= snakeGl(st.image, before) && !foldsBack(from, c, to)) {
            a.blocked[8 * e + k] = 0;
            a.list[ex.atomicAddInt(ex.leaderInt(kListCount), 1)] = int(8 * e + k);
        }
    });
    ex.leaderSync();
}

/// Leader: a listed rounding is blocked if it crosses another segment of the polygon as it is at
/// segment e's turn: the segments before it split by their (guessed) new nodes, the ones after it
/// as they are.
template <class Exec>
LUCENT_STAGE void blockCrossingRoundings(Exec& ex, const State& st, const Arrays& a) {
    const int n = st.n;
    forRowChunks(ex, ex.readLeaderInt(kListCount), n, [&](int row, int begin, int end) {
        const int pair = a.list[row], e = pair >> 3, k = pair & 7, i = a.items[e];
        const PixelPoint from = a.pos[i], to = a.pos[nextNode(i, n)];
        PixelPoint c, split;
        insertCandidate(from, to, k, c);
        PixelPoint u = a.pos[begin];
        for (int other = begin; other < end; ++other) {
            const PixelPoint v = a.pos[nextNode(other, n)];
            if (other != i) {
                const int f = a.eligible[other];
                bool hit;
                if (other < i && f >= 0 && a.spec[f] >= 0 && insertCandidate(u, v, a.spec[f], split))
                    hit = blockedBy(from, c, to, u, split) || blockedBy(from, c, to, split, v);
                else
                    hit = blockedBy(from, c, to, u, v);
                if (hit) {
                    ex.atomicSetInt(&a.blocked[pair], 1);
                    return;
                }
            }
            u = v;
        }
    });
    ex.leaderSync();
}

/// Leader: each long segment's rounding with the lowest GL not above the segment's (ties to the
/// last rounding), not blocked, or -1. Returns whether every decision equals the guess.
template <class Exec>
LUCENT_STAGE bool roundingsMatchGuess(Exec& ex, const State& st, const Arrays& a) {
    ex.leaderFor(st.items, [&](long long ee) {
        const int e = int(ee);
        int best = -1;
        double bestGl = snakeGl(st.image, st.target + a.prefix[e]);
        for (int k = 0; k < 4; ++k)
            if (!a.blocked[8 * e + k] && a.candGl[8 * e + k] <= bestGl) {
                bestGl = a.candGl[8 * e + k];
                best = k;
            }
        a.dec[e] = best;
        if (best != a.spec[e]) ex.atomicMinInt(ex.leaderInt(kMismatch), e);
    });
    ex.leaderSync();
    return ex.readLeaderInt(kMismatch) == INT_MAX;
}

/// Leader: the polygon with the settled guess's new nodes: node i moves to newIndex[i], its
/// segment's new node right after it, with the two halves' sums. Returns the nodes added.
template <class Exec>
LUCENT_STAGE int insertNodes(Exec& ex, const State& st, const Arrays& a) {
    const int n = st.n;
    auto splits = [&](int i) { return a.eligible[i] >= 0 && a.spec[a.eligible[i]] >= 0; };
    const int added = ex.template leaderScan<int>(
        n, [&](int i) { return splits(i) ? 1 : 0; }, [&](int i, int before) { a.newIndex[i] = i + before; });
    ex.leaderSync();
    ex.leaderFor(n, [&](long long ii) {
        const int i = int(ii), to = a.newIndex[i];
        a.pos2[to] = a.pos[i];
        if (!splits(i)) {
            a.seg2[to] = a.seg[i];
            return;
        }
        const int e = a.eligible[i], k = a.spec[e];
        const ExactSums* acc = a.acc + std::size_t(e) * kSlots + 2 * k;
        insertCandidate(a.pos[i], a.pos[(i + 1) % n], k, a.pos2[to + 1]);
        a.seg2[to] = ldSums(acc);
        a.seg2[to + 1] = ldSums(acc + 1);
    });
    ex.leaderSync();
    ex.leaderFor(n + added, [&](long long j) {
        a.pos[j] = a.pos2[j];
        a.seg[j] = a.seg2[j];
    });
    return added;
}

/// Leader, after kInsert: SnakeCpu::addNodes in parallel. Each long segment takes the rounding of
/// its middle with the lowest GL not above the current one (ties to the last rounding) that
/// crosses nothing, against the polygon with the earlier segments' nodes in it; speculation finds
/// that sequential outcome. Then the polygon is rebuilt with the new nodes, d halves or the slice ends.
template <class Exec>
LUCENT_HD void applyInsert(Exec& ex, const Program& p, const State& st) {
    State& s = *p.state;
    const int count = st.items;
    Arrays a = p.a;
    ex.leaderFor(count, [&](long long e) { a.spec[e] = -1; });       // first guess: no node anywhere
    ex.leaderFor(1, [&](long long) { s.specTotal = ExactSums{}; });  // stays so without long segments
    ex.leaderSync();
    while (count > 0) {
        judgeRoundings(ex, p, st, a);
        blockCrossingRoundings(ex, st, a);
        if (roundingsMatchGuess(ex, st, a)) break;
        nextGuess(a);
        ex.leaderFor(1, [&](long long) { s.rounds += 1; });
    }
    const int added = insertNodes(ex, st, a);
    ex.leaderFor(1, [&](long long) {
        s.n = st.n + added;
        s.target = st.target + s.specTotal;
        s.gl = snakeGl(st.image, s.target);
        if (added || st.d > 1) s.d = imax(1, st.d / 2);
    });
    ex.leaderSync();
    endIteration(ex, p, added == 0 && st.d == 1);
}

/// The whole launch: stages until the budget is spent, the slice ends or the polygon needs room.
/// Every thread of every block runs this; the Exec supplies barriers and work distribution.
template <class Exec>
LUCENT_HD void runProgram(Exec& ex, const Program& p) {
    if (ex.leader()) {
        if (p.state->fresh)
            prepareTotals(ex, p, p.state->n);
        else
            beginIteration(ex, p);
    }
    ex.gridSync();
    Tally<ProgramProfile> spent{};
    for (;;) {
        const State st = ldState(p.state);
        if (st.stage == kStop) break;
        const long long t0 = ex.clock();
        sumSegments(ex, p, st);
        ex.gridSync();
        const long long t1 = ex.clock();
        if (ex.leader()) {
            ex.leaderSync();
            if (st.stage == kTotals)
                finishTotals(ex, p, st);
            else if (st.stage == kMoves)
                applyMoves(ex, p, st);
            else
                applyInsert(ex, p, st);
        }
        const long long t2 = ex.clock();
        ex.gridSync();
        spent[ProgramProfile::SumsAndBarrier] += t1 - t0;
        spent[ProgramProfile::Decisions] += t2 - t1;
        spent[ProgramProfile::Barrier] += ex.clock() - t2;
        spent[ProgramProfile::Stages] += 1;
    }
    // One thread of the leader, after the last barrier: nobody reads the profile during the launch.
    if (p.profile && ex.leader()) ex.leaderFor(1, [&](long long) {
            for (int i = 0; i < int(ProgramProfile::Count); ++i) p.profile[i] += spent.at[i];
        });
}

}  // namespace lucent::snake
