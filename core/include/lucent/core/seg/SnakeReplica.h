/// @brief The region snake's steps with the decisions taken by every block at once (SnakeCuda's
/// path for polygons that fit a block's shared memory), written once for the device and the host.
///
/// SnakeProgram.h has block 0 decide while the other blocks wait at a second grid barrier, and its
/// decisions read the candidates' sums back from L2 in a long chain of dependent steps. Here each
/// stage has one grid barrier:
///  - each block works on its own items (a phase node, a long segment, rows of a segment): it sums
///    their candidate segments over the cumulated images and takes every decision that depends on
///    that item alone (a node's best move against the polygon as the phase found it; which roundings
///    of a segment's middle fold back or cross a segment that no earlier insertion can change), and
///    hands the result to the others through global memory (Handoff);
///  - after the barrier every block takes the sequential decisions (moves kept in node order,
///    insertions in segment order) on its own copy of the polygon in shared memory, by the same
///    speculation as SnakeProgram.h, and applies them. Every block computes the same bits from the
///    same inputs, so the copies stay equal and no second barrier is needed.
/// Only the crossings that an earlier decision of the same stage can change are tested in the
/// sequential part: a moved node's two segments, a split segment's two halves.
/// A node's 16 candidate segment sums depend only on where it and its two neighbours are: they are
/// kept in global memory (ReplicaProgram::cache) and summed again only when one of the three moved
/// since (or d changed, or nodes were inserted). Once the polygon settles, a move phase sums about
/// one node in seven; the other nodes' blocks only load their sums and decide.
#pragma once

#include "lucent/core/seg/SnakeProgram.h"

namespace lucent::snake {

/// One item's result, from the block that summed it to every block, through global memory.
/// Moves: info = the node's best candidate (-1: none), s[0] and s[1] its two new segments' sums,
/// logs its background's and target's log variances (GL after that move alone).
/// Insertion: info = the roundings already ruled out (bit k), s[2k] and s[2k+1] rounding k's halves.
/// Totals: s[0] = the sums of a run of rows of one segment.
struct alignas(16) Handoff {
    ExactSums s[8];
    double logs[2];
    int info, padding[3];
};


/// Warps a block at most (ReplicaExec: 384 or 512 threads).
constexpr int kMaxWarps = 16;

/// The block's own counters (Exec::sharedInt).
enum ReplicaInt : int { kRList = 0, kRMismatch, kRMovers, kRMoved, kRRows, kROnly, kReplicaInts };

/// A block's copy of the polygon and its scratch: shared memory on the device. `capacity` nodes; an
/// iteration starts only with at most capacity / 2 of them (insertion may double them).
struct Replica {
    int capacity = 0;
    PixelPoint *pos, *pos2;
    ExactSums *seg, *seg2;                  ///< seg[i]: the contribution of segment i -> i + 1
    int *flag, *eligible, *newIndex;        ///< per node
    int *items, *best, *spec, *dec, *mask;  ///< per item (a phase node or a long segment)
    ExactSums* prefix;                      ///< per item
    ExactSums* change;                      ///< 4 per item
    double *candGl, *baseGl;                ///< 4 per item; per item (insertion: 8 and 2, which fit)
    int *hit, *list;                        ///< 4 per item each
    /// Per node, for the candidate cache (ReplicaProgram::cache): the move phase whose position of
    /// the node and its neighbours its cached sums are for (-1: none), and the last move phase that
    /// moved the node.
    int *stamp, *movedAt;
    /// kMaxWarps x kSlots: each warp's own sums of the item the block works on (a warp adds its jobs
    /// without atomics: 64-bit shared atomics are compare-and-swap loops on the device, and a
    /// block's warps all add into the same 16 sums); row 0 then holds the block's totals.
    ExactSums* acc;
    double* ownGl;                          ///< 8: that item's candidates
    double* ownLog;                         ///< 16: their regions' log variances (background, target)
    int *ownTest, *ownHit;                  ///< 8 each
};

/// The replica of `capacity` nodes carved from `base` (null: the size only).
LUCENT_HD inline std::size_t replicaLayout(unsigned char* base, int capacity, Replica* r) {
    const std::size_t c = std::size_t(capacity);
    std::size_t at = 0;
    auto take = [&](std::size_t bytes) {
        unsigned char* p = base ? base + at : nullptr;
        at += (bytes + 15) & ~std::size_t(15);
        return p;
    };
    Replica x;
    x.capacity = capacity;
    x.pos = reinterpret_cast<PixelPoint*>(take(c * sizeof(PixelPoint)));
    x.pos2 = reinterpret_cast<PixelPoint*>(take(c * sizeof(PixelPoint)));
    x.seg = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    x.seg2 = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    x.prefix = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    x.change = reinterpret_cast<ExactSums*>(take(4 * c * sizeof(ExactSums)));
    x.candGl = reinterpret_cast<double*>(take(4 * c * sizeof(double)));
    x.baseGl = reinterpret_cast<double*>(take(c * sizeof(double)));
    x.acc = reinterpret_cast<ExactSums*>(take(kMaxWarps * kSlots * sizeof(ExactSums)));
    x.ownGl = reinterpret_cast<double*>(take(8 * sizeof(double)));
    x.ownLog = reinterpret_cast<double*>(take(16 * sizeof(double)));
    for (int** a : {&x.flag, &x.eligible, &x.newIndex, &x.items, &x.best, &x.spec, &x.dec, &x.mask})
        *a = reinterpret_cast<int*>(take(c * sizeof(int)));
    for (int** a : {&x.stamp, &x.movedAt}) *a = reinterpret_cast<int*>(take(c * sizeof(int)));
    x.hit = reinterpret_cast<int*>(take(4 * c * sizeof(int)));
    x.list = reinterpret_cast<int*>(take(4 * c * sizeof(int)));
    x.ownTest = reinterpret_cast<int*>(take(8 * sizeof(int)));
    x.ownHit = reinterpret_cast<int*>(take(8 * sizeof(int)));
    if (r) *r = x;
    return at;
}

/// What a launch works on. The polygon is read from pos/seg at the start and written back by
/// block 0 at the end, with the state; the history gets GL as in SnakeProgram.h.
struct ReplicaProgram {
    State* state;
    PixelPoint* pos;  ///< at least the replica's capacity entries
    ExactSums* seg;
    double* history;
    Handoff* handoff;  ///< two buffers of handoffItems (a stage's results stay put while the next stage writes the other)
    int handoffItems;  ///< at least the replica's capacity
    /// An item split over several blocks: its sums gather here (capacity x kSlots), and the block
    /// that adds the last part (arrivals, capacity) takes its decision. Zero between items: the
    /// deciding block clears what it read.
    ExactSums* acc;
    int* arrivals;
    /// capacity x kSlots: each node's candidate segment sums, kept while neither the node nor its
    /// neighbours move, so that a move phase sums only the nodes whose sums went stale.
    ExactSums* cache;
    /// Whether to use the cache (0: every node is summed in every phase; LUCENT_SNAKE_CACHE=0).
    int useCache;
    Slice slice;
    /// When not null (LUCENT_SNAKE_PROFILE): block 0's clock cycles over the launch's stages: [0] its
    /// own items, [1] the grid barrier, [2] the decisions, [3] stages; of the move decisions: [4]
    /// reading the handoff, [5] the speculation, [6] its rounds, [7] move stages; of insertion: [8]
    /// its decisions, [9] their rounds, [10] insertion stages; [11] nodes summed in move stages; of a
    /// move stage: [12] the stale scan, [19] its items' decisions (GL, crossings), and of its
    /// speculation rounds: [13] the scan, [14] GL, [15] crossing tests; [17] the moves applied; [16] move stages whose summed
    /// items were cut into parts, [18] their own items, [20] their barrier wait; of block 0's own
    /// move items: [21] summing, [22] gathering parts, [23] loading kept sums.
    long long* profile = nullptr;
};

/// ReplicaProgram::profile's counters.
constexpr int kReplicaProfileCounters = 24;

/// What every thread of every block holds alike (computed from the same values in the same way).
struct Uniform {
    int n, d, minSegment, glCount, stage;
    int phases;  ///< move phases so far in the launch (the cache's clock)
    ExactSums image, target;
    double gl;
    long long spent[kReplicaProfileCounters];
};

/// The block sums `slots` segments (segment(slot, a, b) says which; false: none) over `rows` rows
/// from `skip` rows below the segment's top, a warp per kRowsPerJob rows, into acc[slot].
template <class Exec, class Segment>
LUCENT_HD void sumSlots(Exec& ex, const Slice& im, ExactSums* acc, int slots, int rows, int skip, Segment&& segment) {
    const int chunks = (rows + kRowsPerJob - 1) / kRowsPerJob;
    ex.blockJobs((long long)slots * chunks, [&](long long job, int lane, int lanes, ExactSums& out) -> ExactSums* {
        const int slot = int(job / chunks), chunk = int(job % chunks);
        PixelPoint a, b;
        if (!segment(slot, a, b)) return nullptr;
        const int top = imin(a.y, b.y), end = imin(imax(a.y, b.y), top + skip + rows);
        const int first = top + skip + chunk * kRowsPerJob, last = imin(end, first + kRowsPerJob);
        if (first >= last) return nullptr;
        for (int y = first + lane; y < last; y += lanes) addRow(im, a, b, y, out);
        if (b.y < a.y) out = ExactSums{} - out;  // going up: left ends, subtracted
        return acc + slot;
    });
}

/// A block's clock cycles in ownItems (LUCENT_SNAKE_PROFILE): summing, gathering parts, loading
/// kept sums.
struct OwnClocks {
    long long sum = 0, gather = 0, load = 0;
};

/// The stage's items spread over the blocks. Item t's sums (`slots` segments, segment(t, slot, a, b)
/// saying which, over at most `rows` rows, the longest of the stage) are warp jobs of 32 rows, a row
/// a lane; each warp adds its jobs into its own row of r.acc (Exec::warpJobs: two jobs in flight,
/// no atomics), and the rows are summed after the block barrier. (Not 64 or 128 rows a job: fewer
/// jobs keep fewer warps busy.)
/// When a stage has fewer items than half the blocks (a young polygon: few nodes, long segments),
/// each item is cut into parts that fill the grid, none below a job for every warp; an item of
/// several parts gathers its sums in global memory and the block that adds the last part runs
/// decide(t); otherwise a block takes whole items and runs decide(t) at once, with the sums in
/// r.acc. (Cutting items when there are more than half as many as blocks, to balance their
/// lengths, costs more in gathering and scans than it saves.) Every block calls this alike.
///
/// Items from `summed` on need no sums: load(t) puts theirs in r.acc (from the candidate cache, on
/// warp 0: decide reads them there first) and they take a block each; the summed items are cut over the blocks left.
/// Returns how many parts a summed item was cut into, and adds the block's cycles to `clocks`.
template <class Exec, class Segment, class Load, class Decide>
LUCENT_HD int ownItems(Exec& ex, const ReplicaProgram& p, const Replica& r, int count, int summed, int slots,
                       int rows, Segment&& segment, Load&& load, Decide&& decide, OwnClocks& clocks) {
    const int chunks = imax(1, (rows + kRowsPerJob - 1) / kRowsPerJob), jobs = slots * chunks;
    const int kept = count - summed, room = imax(1, ex.spread() - kept);
    const int parts = summed > 0 ? imax(1, imin(room / summed, (jobs + ex.warps() - 1) / ex.warps())) : 1;
    const long long cut = (long long)summed * parts, units = cut + kept;
    for (long long q = ex.block(); q < units; q += ex.blocks()) {
        if (q >= cut) {
            const int item = summed + int(q - cut);
            const long long c0 = ex.clock();
            load(item);
            ex.warpSync();  // load fills acc on warp 0, where decide reads it first (blockFor of 16 or fewer)
            clocks.load += ex.clock() - c0;
            decide(item);
            ex.blockSync();  // acc serves the next unit
            continue;
        }
        const int item = int(q / parts), part = int(q % parts);
        const int first = int((long long)jobs * part / parts), last = int((long long)jobs * (part + 1) / parts);
        const long long c0 = ex.clock();
        ex.blockFor((long long)ex.warps() * kSlots, [&](long long k) { r.acc[k] = ExactSums{}; });
        ex.blockSync();
        static_assert(kRowsPerJob == 32, "a row a lane");
        ex.warpJobs(last - first, [&](long long j, int lane, int, ExactSums& out) -> ExactSums* {
            const int job = first + int(j), slot = job / chunks, chunk = job % chunks;
            PixelPoint a, b;
            if (!segment(item, slot, a, b)) return nullptr;
            const int y0 = imin(a.y, b.y) + chunk * kRowsPerJob, y1 = imin(imax(a.y, b.y), y0 + kRowsPerJob);
            if (y0 >= y1) return nullptr;
            if (y0 + lane < y1) addRow(p.slice, a, b, y0 + lane, out);  // a row a lane: no loop around the load
            if (b.y < a.y) out = ExactSums{} - out;  // going up: left ends, subtracted
            return r.acc + ex.warp() * kSlots + slot;
        });
        ex.blockSync();
        ex.blockFor(slots, [&](long long k) {  // the warps' rows into row 0, a slot a thread
            ExactSums total = r.acc[k];
            for (int w = 1; w < ex.warps(); ++w) total += r.acc[w * kSlots + k];
            r.acc[k] = total;
        });
        ex.blockSync();
        const long long c1 = ex.clock();
        clocks.sum += c1 - c0;
        if (parts > 1) {
            ExactSums* gathered = p.acc + std::size_t(item) * kSlots;
            ex.blockFor(slots, [&](long long k) { ex.globalAdd(gathered + k, r.acc[k]); });
            if (!ex.lastToArrive(p.arrivals + item, 1, parts)) {
                clocks.gather += ex.clock() - c1;
                continue;
            }
            ex.blockFor(slots, [&](long long k) {
                r.acc[k] = ldSums(gathered + k);
                gathered[k] = ExactSums{};
            });
            ex.blockFor(1, [&](long long) { p.arrivals[item] = 0; });  // read again only after the grid barrier
            ex.blockSync();
            clocks.gather += ex.clock() - c1;
        }
        decide(item);
        ex.blockSync();  // acc serves the next unit
    }
    return parts;
}

/// The longest run of rows of the stage's candidate segments: rowsOf(item) over [0, count), alike
/// in every block.
template <class Exec, class Rows>
LUCENT_HD int longestRows(Exec& ex, int count, Rows&& rowsOf) {
    ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRRows), 0); });
    ex.blockSync();
    ex.blockFor(count, [&](long long t) { ex.atomicMaxInt(ex.sharedInt(kRRows), rowsOf(int(t))); });
    ex.blockSync();
    const int rows = ex.readSharedInt(kRRows);
    ex.blockSync();  // reset by the next stage
    return rows;
}

/// The barrier that ends a stage's own items; the handoff buffers alternate from stage to stage.
template <class Exec>
LUCENT_HD void endOwnItems(Exec& ex, Uniform& u, long long started) {
    const long long t1 = ex.clock();
    ex.gridSync();
    const long long t2 = ex.clock();
    u.spent[0] += t1 - started;
    u.spent[1] += t2 - t1;
    u.spent[3] += 1;
    u.stage += 1;
}

LUCENT_HD inline int prevNode(int i, int n) { return i == 0 ? n - 1 : i - 1; }

/// A slice's first polygon: every segment's sums (in runs of rows spread over the blocks), the
/// target and GL.
template <class Exec>
LUCENT_HD void replicaTotals(Exec& ex, const ReplicaProgram& p, const Replica& r, Uniform& u) {
    const long long t0 = ex.clock();
    const int n = u.n;
    ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRRows), 0); });
    ex.blockSync();
    ex.blockFor(n, [&](long long i) {
        ex.atomicMaxInt(ex.sharedInt(kRRows), iabs(r.pos[nextNode(int(i), n)].y - r.pos[i].y));
    });
    ex.blockSync();
    const int rows = ex.readSharedInt(kRRows);
    int span = 16 * kRowsPerJob;  // rows an item sums
    while ((long long)n * ((rows + span - 1) / span) > p.handoffItems) span *= 2;
    const int per = imax(1, (rows + span - 1) / span), items = n * per;
    Handoff* h = p.handoff + std::size_t(u.stage & 1) * p.handoffItems;
    for (int q = ex.block(); q < items; q += ex.blocks()) {
        const int i = q / per;
        ex.blockFor(1, [&](long long) { r.acc[0] = ExactSums{}; });
        ex.blockSync();
        sumSlots(ex, p.slice, r.acc, 1, span, (q % per) * span, [&](int, PixelPoint& a, PixelPoint& b) {
            a = r.pos[i];
            b = r.pos[nextNode(i, n)];
            return true;
        });
        ex.blockSync();
        ex.blockFor(1, [&](long long) { h[q].s[0] = r.acc[0]; });
        ex.blockSync();
    }
    endOwnItems(ex, u, t0);
    const long long t1 = ex.clock();
    ex.blockFor(n, [&](long long i) {
        ExactSums s{};
        for (int c = 0; c < per; ++c) s = s + ldSums(&h[i * per + c].s[0]);
        r.seg[i] = s;
    });
    ex.blockSync();
    u.target = ex.template blockScan<ExactSums>(n, [&](int i) { return r.seg[i]; }, [](int, const ExactSums&) {});
    u.gl = snakeGl(u.image, u.target);
    if (ex.block() == 0) ex.blockFor(1, [&](long long) { p.history[u.glCount] = u.gl; });
    u.glCount += 1;
    ex.blockSync();
    u.spent[2] += ex.clock() - t1;
}

/// Move phase `phase` (SnakeCpu::movePhase). Returns whether a node moved.
template <class Exec>
LUCENT_HD bool replicaMoves(Exec& ex, const ReplicaProgram& p, Replica r, Uniform& u, int phase) {
    const long long t0 = ex.clock();
    const int n = u.n, d = u.d, count = phaseCount(n, phase), now = u.phases;
    u.phases += 1;
    Handoff* h = p.handoff + std::size_t(u.stage & 1) * p.handoffItems;
    // The nodes whose cached candidate sums went stale (never summed, or the node or a neighbour
    // moved since) are summed again; most nodes of a phase keep theirs once the polygon settles.
    // r.items lists them first, the others from the back; one scan also finds their longest rows.
    auto staleAt = [&](int t) {
        const int i = phaseNode(n, phase, t), s = r.stamp[i];
        return !p.useCache || s < 0 || r.movedAt[prevNode(i, n)] >= s || r.movedAt[i] >= s ||
                       r.movedAt[nextNode(i, n)] >= s
                   ? 1
                   : 0;
    };
    ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRRows), 0); });
    const int stale = ex.flagScan(count, staleAt, [&](int t, int before) {
        const int i = phaseNode(n, phase, t);
        if (!staleAt(t)) {
            r.items[count - 1 - (t - before)] = t;
            return;
        }
        r.items[before] = t;
        const PixelPoint b = r.pos[i];
        ex.atomicMaxInt(ex.sharedInt(kRRows),
                        imax(iabs(b.y - r.pos[prevNode(i, n)].y), iabs(r.pos[nextNode(i, n)].y - b.y)) + d);
        r.stamp[i] = now;  // after this thread's staleAt(t): no other thread reads node i's stamp
    });
    ex.blockSync();
    const int rows = ex.readSharedInt(kRRows);
    u.spent[11] += stale;
    const long long ownStart = ex.clock();
    u.spent[12] += ownStart - t0;
    // Own items: each node's best candidate against the polygon as the phase found it (strictly
    // lower GL, ties to the lowest candidate index, no fold, no crossing).
    OwnClocks clocks;
    const int parts = ownItems(
        ex, p, r, count, stale, kSlots, rows,
        [&](int e, int slot, PixelPoint& s0, PixelPoint& s1) {
            const int i = phaseNode(n, phase, r.items[e]);
            const PixelPoint m = snakeMove(r.pos[i], slot >> 1, d);
            if (!inside(p.slice, m)) return false;
            s0 = (slot & 1) ? m : r.pos[prevNode(i, n)];
            s1 = (slot & 1) ? r.pos[nextNode(i, n)] : m;
            return true;
        },
        [&](int e) {
            const ExactSums* from = p.cache + std::size_t(phaseNode(n, phase, r.items[e])) * kSlots;
            ex.blockFor(kSlots, [&](long long k) { r.acc[k] = ldSums(from + k); });
        },
        [&](int e) {
            const long long d0 = ex.clock();
            const int t = r.items[e], i = phaseNode(n, phase, t), prev = prevNode(i, n), next = nextNode(i, n);
            if (e < stale && p.useCache) {  // fresh sums: kept for later phases
                ExactSums* to = p.cache + std::size_t(i) * kSlots;
                ex.blockFor(kSlots, [&](long long k) { to[k] = r.acc[k]; });
            }
            const PixelPoint a = r.pos[prev], b = r.pos[i], c = r.pos[next];
            auto candidate = [&](int w) { return u.target - r.seg[prev] - r.seg[i] + r.acc[2 * w] + r.acc[2 * w + 1]; };
            // The candidates' 16 log variances a thread each (one log's latency, not two).
            ex.blockFor(16, [&](long long j) {
                const int w = int(j >> 1);
                if (!inside(p.slice, snakeMove(b, w, d))) return;
                const ExactSums target = candidate(w);
                r.ownLog[j] = logVariance(toDouble(j & 1 ? target : u.image - target));
            });
            ex.warpSync();  // the 16 and the 8 below are warp 0's threads
            ex.blockFor(8, [&](long long w) {
                const PixelPoint m = snakeMove(b, int(w), d);
                double gl = HUGE_VAL;
                int test = 0;
                if (inside(p.slice, m)) {
                    const ExactSums target = candidate(int(w));
                    gl = glOfLogs(double((u.image - target).n), r.ownLog[2 * w], double(target.n), r.ownLog[2 * w + 1]);
                    test = gl < u.gl && !foldsBack(a, m, c);
                }
                r.ownGl[w] = gl;
                r.ownTest[w] = test;
                r.ownHit[w] = 0;
            });
            ex.blockSync();
            ex.blockFor(8LL * n, [&](long long j) {
                const int w = int(j & 7), s = int(j >> 3), end = nextNode(s, n);
                if (!r.ownTest[w] || s == i || end == i) return;  // not the two segments being replaced
                if (blockedBy(a, snakeMove(b, w, d), c, r.pos[s], r.pos[end])) ex.atomicSetInt(&r.ownHit[w], 1);
            });
            ex.blockSync();
            ex.blockFor(1, [&](long long) {
                int best = -1;
                double bestGl = u.gl;
                for (int w = 0; w < 8; ++w)
                    if (r.ownTest[w] && !r.ownHit[w] && r.ownGl[w] < bestGl) {
                        bestGl = r.ownGl[w];
                        best = w;
                    }
                h[t].info = best;
                if (best >= 0) {
                    h[t].s[0] = r.acc[2 * best];
                    h[t].s[1] = r.acc[2 * best + 1];
                    h[t].logs[0] = r.ownLog[2 * best];
                    h[t].logs[1] = r.ownLog[2 * best + 1];
                }
            });
            u.spent[19] += ex.clock() - d0;
        },
        clocks);
    const long long ownEnd = ex.clock(), barrierBefore = u.spent[1];
    ex.blockFor(1, [&](long long) {
        ex.atomicSetInt(ex.sharedInt(kRMovers), 0);
        ex.atomicSetInt(ex.sharedInt(kRMoved), 0);
    });
    endOwnItems(ex, u, t0);
    if (parts > 1 && stale > 0) {
        u.spent[16] += 1;
        u.spent[18] += ownEnd - ownStart;
        u.spent[20] += u.spent[1] - barrierBefore;
    }
    if (ex.block() == 0) {
        u.spent[21] += clocks.sum;
        u.spent[22] += clocks.gather;
        u.spent[23] += clocks.load;
    }
    const long long t1 = ex.clock();
    // Every block: the moves applied in node order, each kept only if GL still falls and it crosses
    // no segment that an earlier move of the phase changed.
    ex.blockFor(count, [&](long long tt) {
        const int t = int(tt), i = phaseNode(n, phase, t);
        const int best = ldInt(&h[t].info);
        r.best[t] = best;
        r.spec[t] = best >= 0;  // first guess: every chosen move is kept
        if (best < 0) return;
        const ExactSums sa = ldSums(&h[t].s[0]), sb = ldSums(&h[t].s[1]);
        r.change[4 * t] = sa;
        r.change[4 * t + 1] = sb;
        r.change[4 * t + 2] = sa + sb - r.seg[prevNode(i, n)] - r.seg[i];
        // GL after this move alone: a round's logs of it when no earlier move is kept.
        r.candGl[4 * t + 2] = ldWord(&h[t].logs[0]);
        r.candGl[4 * t + 3] = ldWord(&h[t].logs[1]);
        ex.atomicAddInt(ex.sharedInt(kRMovers), 1);
        ex.atomicSetInt(ex.sharedInt(kROnly), t);  // the mover, when there is one
    });
    ex.blockSync();
    const int movers = ex.readSharedInt(kRMovers);
    const bool anyMover = movers > 0;
    const long long t2 = ex.clock();
    ExactSums total{};
    // A single mover is kept without a round: nothing before it in the phase moves, so the round
    // would take the target, GL and crossings its own decision took (the same integer sums, the
    // same logs, the same comparison with GL), keep it and find the guess right.
    if (movers == 1) total = r.change[4 * ex.readSharedInt(kROnly) + 2];
    while (movers > 1) {
        u.spent[6] += 1;
        const long long r0 = ex.clock();
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRList), 0); });
        total = ex.template cheapScan<ExactSums>(
            count, [&](int t) { return r.spec[t] ? r.change[4 * t + 2] : ExactSums{}; },
            [&](int t, const ExactSums& before) { r.prefix[t] = before; });
        const long long r1 = ex.clock();
        // kRMismatch counts the items whose decision differs from the guess (0: the guess holds).
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRMismatch), 0); });
        // A move is kept if GL falls: GL before and after it, each of two log variances, the four
        // logs on four threads (r.candGl: 4 per item; one log's latency, not four).
        ex.blockFor(4LL * count, [&](long long j) {
            const int t = int(j >> 2), k = int(j & 3);
            if (r.best[t] < 0) return;
            const ExactSums target = u.target + r.prefix[t] + (k >= 2 ? r.change[4 * t + 2] : ExactSums{});
            r.candGl[j] = logVariance(toDouble(k & 1 ? target : u.image - target));
        });
        ex.blockSync();
        ex.blockFor(count, [&](long long tt) {
            const int t = int(tt);
            int keep = 0;
            if (r.best[t] >= 0) {
                const ExactSums before = u.target + r.prefix[t], after = before + r.change[4 * t + 2];
                const double* logs = r.candGl + 4 * t;
                keep = glOfLogs(double((u.image - after).n), logs[2], double(after.n), logs[3]) <
                       glOfLogs(double((u.image - before).n), logs[0], double(before.n), logs[1]);
            }
            r.dec[t] = keep;
            if (keep) r.list[ex.atomicAddInt(ex.sharedInt(kRList), 1)] = t;
            if (keep != r.spec[t]) ex.atomicAddInt(ex.sharedInt(kRMismatch), 1);  // a kept one: for now
        });
        ex.blockSync();
        const long long r2 = ex.clock();
        const int listed = ex.readSharedInt(kRList);
        ex.blockFor((long long)listed * count, [&](long long j) {
            const int jj = int(j), t = r.list[jj / count], v = jj - jj / count * count;  // 32-bit division
            if (v >= t || !r.spec[v]) return;  // only the segments of earlier (guessed) moves changed
            const int i = phaseNode(n, phase, t), k = phaseNode(n, phase, v);
            const PixelPoint c = snakeMove(r.pos[i], r.best[t], d), m = snakeMove(r.pos[k], r.best[v], d);
            // The neighbours of a phase node are not in the phase: they are where the phase found them.
            const PixelPoint prev = r.pos[prevNode(i, n)], next = r.pos[nextNode(i, n)];
            // The first test to block t turns its count over: a mismatch if t was guessed kept,
            // none any more if it was guessed not.
            if ((blockedBy(prev, c, next, r.pos[prevNode(k, n)], m) || blockedBy(prev, c, next, m, r.pos[nextNode(k, n)])) &&
                ex.atomicExchInt(&r.dec[t], 0) == 1)
                ex.atomicAddInt(ex.sharedInt(kRMismatch), r.spec[t] ? 1 : -1);
        });
        ex.blockSync();
        u.spent[13] += r1 - r0;
        u.spent[14] += r2 - r1;
        u.spent[15] += ex.clock() - r2;
        if (ex.readSharedInt(kRMismatch) == 0) break;
        int* guess = r.spec;  // the decisions become the next guess (every thread swaps alike)
        r.spec = r.dec;
        r.dec = guess;
    }
    u.spent[4] += t2 - t1;
    u.spent[5] += ex.clock() - t2;
    u.spent[7] += 1;
    const long long a0 = ex.clock();
    bool moved = false;
    if (anyMover) {
        ex.blockFor(count, [&](long long tt) {
            const int t = int(tt);
            if (!r.spec[t]) return;
            const int i = phaseNode(n, phase, t);
            r.pos[i] = snakeMove(r.pos[i], r.best[t], d);
            r.movedAt[i] = now;
            r.seg[prevNode(i, n)] = r.change[4 * t];
            r.seg[i] = r.change[4 * t + 1];
            ex.atomicMaxInt(ex.sharedInt(kRMoved), t + 1);
        });
        ex.blockSync();
        // The new GL is the last round's GL after the last kept move (its target: everything
        // before it plus itself, so all of total): its logs are in r.candGl already.
        const int last = ex.readSharedInt(kRMoved) - 1;
        moved = last >= 0;
        if (moved) {
            u.target = u.target + total;
            const double* logs = r.candGl + 4 * last;
            u.gl = glOfLogs(double((u.image - u.target).n), logs[2], double(u.target.n), logs[3]);
        }
    }
    ex.blockSync();  // the counters are reset by the next stage
    u.spent[17] += ex.clock() - a0;
    u.spent[2] += ex.clock() - t1;
    return moved;
}

/// Insertion (SnakeCpu::addNodes): a node in the middle of every long segment, in segment order.
/// Returns whether the slice ends (nothing added at d = 1).
template <class Exec>
LUCENT_HD bool replicaInsert(Exec& ex, const ReplicaProgram& p, Replica r, Uniform& u) {
    const long long t0 = ex.clock();
    const int n = u.n;
    ex.blockFor(n, [&](long long i) {
        r.flag[i] = longSegment(r.pos[i], r.pos[nextNode(int(i), n)], u.minSegment) ? 1 : 0;
    });
    ex.blockSync();
    const int count = ex.template blockScan<int>(
        n, [&](int i) { return r.flag[i]; },
        [&](int i, int before) {
            r.eligible[i] = r.flag[i] ? before : -1;
            if (r.flag[i]) r.items[before] = i;
        });
    ex.blockSync();
    Handoff* h = p.handoff + std::size_t(u.stage & 1) * p.handoffItems;
    // Own items: the sums of each rounding's halves, and the roundings ruled out whatever earlier
    // segments do: off the grid, folding back, or crossing a segment no earlier insertion splits.
    const int rows = longestRows(ex, count, [&](int e) {
        const int i = r.items[e];
        return iabs(r.pos[nextNode(i, n)].y - r.pos[i].y) / 2 + 1;
    });
    OwnClocks clocks;  // not profiled
    ownItems(
        ex, p, r, count, count, 8, rows,
        [&](int e, int slot, PixelPoint& s0, PixelPoint& s1) {
            const int i = r.items[e];
            const PixelPoint from = r.pos[i], to = r.pos[nextNode(i, n)];
            PixelPoint c;
            if (!insertCandidate(from, to, slot >> 1, c)) return false;
            s0 = (slot & 1) ? c : from;
            s1 = (slot & 1) ? to : c;
            return true;
        },
        [](int) {},  // every item is summed
        [&](int e) {
            const int i = r.items[e];
            const PixelPoint from = r.pos[i], to = r.pos[nextNode(i, n)];
            ex.blockFor(4, [&](long long k) {
                PixelPoint c;
                r.ownHit[k] = !insertCandidate(from, to, int(k), c) || foldsBack(from, c, to);
            });
            ex.blockSync();
            ex.blockFor(4LL * n, [&](long long j) {
                const int k = int(j & 3), s = int(j >> 2);
                if (s == i || (r.eligible[s] >= 0 && s < i)) return;  // itself; a segment an earlier insertion may split
                PixelPoint c;
                if (!insertCandidate(from, to, k, c)) return;
                if (blockedBy(from, c, to, r.pos[s], r.pos[nextNode(s, n)])) ex.atomicSetInt(&r.ownHit[k], 1);
            });
            ex.blockSync();
            ex.blockFor(8, [&](long long k) { h[e].s[k] = r.acc[k]; });
            ex.blockFor(1, [&](long long) {
                int ruledOut = 0;
                for (int k = 0; k < 4; ++k) ruledOut |= r.ownHit[k] ? 1 << k : 0;
                h[e].info = ruledOut;
            });
        },
        clocks);
    endOwnItems(ex, u, t0);
    const long long t1 = ex.clock();
    // Every block: each segment takes the rounding with the lowest GL not above the current one
    // (ties to the last rounding) that crosses nothing, against the polygon with the earlier
    // segments' nodes in it; speculation finds that sequential outcome.
    ex.blockFor(count, [&](long long ee) {
        const int e = int(ee), i = r.items[e], ruledOut = ldInt(&h[e].info);
        r.mask[e] = ruledOut;
        r.spec[e] = -1;  // first guess: no node anywhere
        for (int k = 0; k < 4; ++k)
            if (!(ruledOut >> k & 1)) r.change[4 * e + k] = ldSums(&h[e].s[2 * k]) + ldSums(&h[e].s[2 * k + 1]) - r.seg[i];
    });
    ex.blockSync();
    ExactSums total{};
    // The first round's guess (no node anywhere) is wrong wherever a node goes in, so its crossing
    // tests against whole earlier segments would only seed the next round, which tests everything:
    // it skips them. If it inserts nothing, crossings could only take nodes away: that is exact too.
    for (bool first = true; count > 0; first = false) {
        u.spent[9] += 1;
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRList), 0); });
        total = ex.template cheapScan<ExactSums>(
            count, [&](int e) { return r.spec[e] >= 0 ? r.change[4 * e + r.spec[e]] : ExactSums{}; },
            [&](int e, const ExactSums& before) { r.prefix[e] = before; });
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRMismatch), INT_MAX); });
        // The log variances a thread each (one log's latency, where a thread took four in a row):
        // rounding k's two regions in candGl[8e + 2k] and [8e + 2k + 1], the segment's as the round
        // finds it in baseGl[2e] and [2e + 1]. An iteration starts with at most capacity / 2 nodes,
        // so both arrays have room. GL from them (glOfLogs) has snakeGl's bits.
        ex.blockFor(10LL * count, [&](long long j) {
            const bool base = j >= 8LL * count;
            const int x = int(base ? j - 8LL * count : j), e = base ? x >> 1 : x >> 3, k = (x >> 1) & 3;
            ExactSums target = u.target + r.prefix[e];
            if (!base) {
                if (r.mask[e] >> k & 1) return;
                target = target + r.change[4 * e + k];
            }
            (base ? r.baseGl : r.candGl)[x] = logVariance(toDouble(x & 1 ? target : u.image - target));
        });
        ex.blockSync();
        auto baseGlOf = [&](int e) {
            const ExactSums before = u.target + r.prefix[e];
            return glOfLogs(double((u.image - before).n), r.baseGl[2 * e], double(before.n), r.baseGl[2 * e + 1]);
        };
        auto candidateGl = [&](int e, int k) {
            const ExactSums after = u.target + r.prefix[e] + r.change[4 * e + k];
            return glOfLogs(double((u.image - after).n), r.candGl[8 * e + 2 * k], double(after.n),
                            r.candGl[8 * e + 2 * k + 1]);
        };
        ex.blockFor(4LL * count, [&](long long j) {
            const int e = int(j >> 2), k = int(j & 3);
            const int ok = !(r.mask[e] >> k & 1) && candidateGl(e, k) <= baseGlOf(e);
            r.hit[j] = !ok;
            if (ok) r.list[ex.atomicAddInt(ex.sharedInt(kRList), 1)] = int(j);
        });
        ex.blockSync();
        const int listed = first ? 0 : ex.readSharedInt(kRList);
        ex.blockFor((long long)listed * count, [&](long long j) {
            const int jj = int(j), pair = r.list[jj / count], v = jj - jj / count * count, e = pair >> 2, k = pair & 3;
            if (v >= e) return;  // later segments are as they were: tested with the own items
            const int i = r.items[e], iv = r.items[v];
            const PixelPoint from = r.pos[i], to = r.pos[nextNode(i, n)], a = r.pos[iv], b = r.pos[nextNode(iv, n)];
            PixelPoint c, split;
            insertCandidate(from, to, k, c);
            const bool hit = r.spec[v] >= 0 && insertCandidate(a, b, r.spec[v], split)
                                 ? blockedBy(from, c, to, a, split) || blockedBy(from, c, to, split, b)
                                 : blockedBy(from, c, to, a, b);
            if (hit) ex.atomicSetInt(&r.hit[pair], 1);
        });
        ex.blockSync();
        ex.blockFor(count, [&](long long ee) {
            const int e = int(ee);
            int best = -1;
            double bestGl = baseGlOf(e);
            for (int k = 0; k < 4; ++k) {
                if (r.hit[4 * e + k]) continue;  // ruled out, GL above the segment's, or crossing
                const double gl = candidateGl(e, k);
                if (gl <= bestGl) {
                    bestGl = gl;
                    best = k;
                }
            }
            r.dec[e] = best;
            if (best != r.spec[e]) ex.atomicMinInt(ex.sharedInt(kRMismatch), e);
        });
        ex.blockSync();
        if (ex.readSharedInt(kRMismatch) == INT_MAX) break;
        int* guess = r.spec;
        r.spec = r.dec;
        r.dec = guess;
    }
    // The new polygon: node i moves to newIndex[i], its segment's new node right after it.
    auto splits = [&](int i) { return r.eligible[i] >= 0 && r.spec[r.eligible[i]] >= 0; };
    const int added = ex.template blockScan<int>(
        n, [&](int i) { return splits(i) ? 1 : 0; }, [&](int i, int before) { r.newIndex[i] = i + before; });
    ex.blockSync();
    ex.blockFor(n, [&](long long ii) {
        const int i = int(ii), to = r.newIndex[i];
        r.pos2[to] = r.pos[i];
        if (!splits(i)) {
            r.seg2[to] = r.seg[i];
            return;
        }
        const int e = r.eligible[i], k = r.spec[e];
        insertCandidate(r.pos[i], r.pos[nextNode(i, n)], k, r.pos2[to + 1]);
        r.seg2[to] = ldSums(&h[e].s[2 * k]);
        r.seg2[to + 1] = ldSums(&h[e].s[2 * k + 1]);
    });
    ex.blockSync();
    ex.blockFor(n + added, [&](long long j) {
        r.pos[j] = r.pos2[j];
        r.seg[j] = r.seg2[j];
        r.stamp[j] = -1;  // the candidates change with d and the numbering
        r.movedAt[j] = -1;
    });
    ex.blockSync();
    const int d = u.d;
    u.n = n + added;
    u.target = u.target + total;
    u.gl = snakeGl(u.image, u.target);
    if (added || d > 1) u.d = imax(1, d / 2);
    u.spent[2] += ex.clock() - t1;
    u.spent[8] += ex.clock() - t1;
    u.spent[10] += 1;
    return added == 0 && d == 1;
}

/// The whole launch: iterations until the budget is spent, the slice ends, or the polygon could
/// outgrow the replica (then needRoom: SnakeCuda goes on with SnakeProgram.h). Every thread of
/// every block runs this.
template <class Exec>
LUCENT_HD void runReplica(Exec& ex, const ReplicaProgram& p, const Replica& r) {
    const State st = ldState(p.state);
    Uniform u{};
    u.n = st.n;
    u.d = st.d;
    u.minSegment = st.minSegment;
    u.image = st.image;
    u.target = st.target;
    u.gl = st.gl;
    ex.blockFor(u.n, [&](long long i) {
        r.pos[i] = p.pos[i];
        if (!st.fresh) r.seg[i] = p.seg[i];
        r.stamp[i] = -1;  // nothing cached yet
        r.movedAt[i] = -1;
    });
    ex.blockSync();
    if (st.fresh) replicaTotals(ex, p, r, u);
    int done = 0;
    bool sliceDone = false, needRoom = false;
    while (!sliceDone && done < st.budget) {
        if (2 * u.n > r.capacity) {
            needRoom = true;
            break;
        }
        // One call site, so that the compiler inlines the phase (three made it a call, its
        // arguments and the caller's registers through the stack).
        bool moved = false;
        for (int phase = 0, phases = u.n & 1 ? 3 : 2; phase < phases; ++phase)
            moved = replicaMoves(ex, p, r, u, phase) || moved;
        if (!moved) sliceDone = replicaInsert(ex, p, r, u);
        if (ex.block() == 0) ex.blockFor(1, [&](long long) { p.history[u.glCount] = u.gl; });
        u.glCount += 1;
        done += 1;
    }
    if (ex.block() != 0) return;
    ex.blockFor(u.n, [&](long long i) {
        p.pos[i] = r.pos[i];
        p.seg[i] = r.seg[i];
    });
    ex.blockFor(1, [&](long long) {
        State& s = *p.state;
        s.n = u.n;
        s.d = u.d;
        s.fresh = 0;
        s.done = done;
        s.sliceDone = sliceDone;
        s.needRoom = needRoom;
        s.glCount = u.glCount;
        s.stage = kStop;
        s.target = u.target;
        s.gl = u.gl;
        if (p.profile)
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
            for (int k = 0; k < kReplicaProfileCounters; ++k) p.profile[k] += u.spent[k];  // unrolled: spent stays in registers
    });
}

}  // namespace lucent::snake
