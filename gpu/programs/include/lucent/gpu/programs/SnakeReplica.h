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

#include "lucent/gpu/programs/SnakeReplicaInsert.h"
#include "lucent/gpu/programs/SnakeReplicaMoves.h"
#include "lucent/gpu/programs/SnakeReplicaState.h"

namespace lucent::snake {

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
    u.target = ex.template blockScan<ExactSums>(
        n, [&](int i) { return r.seg[i]; }, [](int, const ExactSums&) {});
    u.gl = snakeGl(u.image, u.target);
    if (ex.block() == 0) ex.blockFor(1, [&](long long) { p.history[u.glCount] = u.gl; });
    u.glCount += 1;
    ex.blockSync();
    u.spent[ReplicaProfile::Decisions] += ex.clock() - t1;
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
            for (int k = 0; k < int(ReplicaProfile::Count); ++k)
                p.profile[k] += u.spent.at[k];  // unrolled: spent stays in registers
    });
}

}  // namespace lucent::snake
