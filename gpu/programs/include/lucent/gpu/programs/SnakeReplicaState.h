/// @brief The replicated-decision program's state (SnakeReplica.h): the handoff between blocks, a
/// block's copy of the polygon in shared memory, the profile counters and the own items' sums.
#pragma once

#include "lucent/gpu/programs/SnakeProgramState.h"

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
    double* ownGl;          ///< 8: that item's candidates
    double* ownLog;         ///< 16: their regions' log variances (background, target)
    int *ownTest, *ownHit;  ///< 8 each
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
    Handoff*
        handoff;  ///< two buffers of handoffItems (a stage's results stay put while the next stage writes the other)
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
    /// When not null (LUCENT_SNAKE_PROFILE): ReplicaProfile::Count counters, indexed by ReplicaProfile.
    long long* profile = nullptr;
};

/// ReplicaProgram::profile's counters: block 0's clock cycles over a launch's stages (counts where
/// said). The printed figures divide each by the count of its kind of stage or round.
enum class ReplicaProfile : int {
    OwnItems,         ///< every stage: its own items
    Barrier,          ///< the grid barrier
    Decisions,        ///< the decisions after it
    Stages,           ///< stages (a count)
    MoveHandoff,      ///< move stages: reading the handoff
    MoveSpeculation,  ///< the speculation
    MoveRounds,       ///< its rounds (a count)
    MoveStages,       ///< move stages (a count)
    InsertDecisions,  ///< insertion stages: their decisions
    InsertRounds,     ///< their rounds (a count)
    InsertStages,     ///< insertion stages (a count)
    NodesSummed,      ///< nodes summed in move stages (a count)
    StaleScan,        ///< a move stage's scan for stale nodes
    RoundScan,        ///< a move round's scan
    RoundGl,          ///< its GL (log variances, keep decisions)
    RoundCrossings,   ///< its crossing tests
    SplitMoveStages,  ///< move stages whose summed items were cut into parts (a count)
    MovesApplied,     ///< the kept moves applied
    SplitOwnItems,    ///< the own items of move stages with items cut into parts
    ItemDecisions,    ///< a move stage's own items' decisions (GL, crossings)
    SplitBarrier,     ///< the barrier wait of move stages with items cut into parts
    OwnSumming,       ///< block 0's own move items: summing
    OwnGathering,     ///< gathering parts
    OwnLoading,       ///< loading kept sums
    Count
};

/// What every thread of every block holds alike (computed from the same values in the same way).
struct Uniform {
    int n, d, minSegment, glCount, stage;
    int phases;  ///< move phases so far in the launch (the cache's clock)
    ExactSums image, target;
    double gl;
    Tally<ReplicaProfile> spent;
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
LUCENT_HD int ownItems(Exec& ex, const ReplicaProgram& p, const Replica& r, int count, int summed, int slots, int rows,
                       Segment&& segment, Load&& load, Decide&& decide, OwnClocks& clocks) {
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
            if (b.y < a.y) out = ExactSums{} - out;                     // going up: left ends, subtracted
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
    u.spent[ReplicaProfile::OwnItems] += t1 - started;
    u.spent[ReplicaProfile::Barrier] += t2 - t1;
    u.spent[ReplicaProfile::Stages] += 1;
    u.stage += 1;
}

LUCENT_HD inline int prevNode(int i, int n) { return i == 0 ? n - 1 : i - 1; }

}  // namespace lucent::snake
