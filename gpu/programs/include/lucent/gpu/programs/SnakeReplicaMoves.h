/// @brief The replicated-decision program's move phases (SnakeReplica.h), stage by stage.
#pragma once

#include "lucent/gpu/programs/SnakeReplicaState.h"

namespace lucent::snake {

/// What the stages of one move phase share, alike in every block.
struct MovePhase {
    int n, d, phase, count;
    int now;        ///< the phase's number in the launch (the candidate cache's clock)
    int stale = 0;  ///< items summed again (r.items lists them first)
    int rows = 0;   ///< the longest run of rows of their candidate segments
    Handoff* h;     ///< the stage's handoff buffer
};

/// The nodes whose cached candidate sums went stale (never summed, or the node or a neighbour
/// moved since) are summed again; most nodes of a phase keep theirs once the polygon settles.
/// r.items lists them first, the others from the back; one scan also finds their longest rows.
template <class Exec>
LUCENT_STAGE void listStaleNodes(Exec& ex, const ReplicaProgram& p, const Replica& r, MovePhase& mp) {
    const int n = mp.n, phase = mp.phase, count = mp.count;
    auto staleAt = [&](int t) {
        const int i = phaseNode(n, phase, t), s = r.stamp[i];
        return !p.useCache || s < 0 || r.movedAt[prevNode(i, n)] >= s || r.movedAt[i] >= s ||
                       r.movedAt[nextNode(i, n)] >= s
                   ? 1
                   : 0;
    };
    ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRRows), 0); });
    mp.stale = ex.flagScan(count, staleAt, [&](int t, int before) {
        const int i = phaseNode(n, phase, t);
        if (!staleAt(t)) {
            r.items[count - 1 - (t - before)] = t;
            return;
        }
        r.items[before] = t;
        const PixelPoint b = r.pos[i];
        ex.atomicMaxInt(ex.sharedInt(kRRows),
                        imax(iabs(b.y - r.pos[prevNode(i, n)].y), iabs(r.pos[nextNode(i, n)].y - b.y)) + mp.d);
        r.stamp[i] = mp.now;  // after this thread's staleAt(t): no other thread reads node i's stamp
    });
    ex.blockSync();
    mp.rows = ex.readSharedInt(kRRows);
}

/// Own move item at node i, its 16 candidate segment sums in r.acc: each candidate's two log
/// variances and GL, and whether it needs crossing tests (GL below the current one, no fold).
template <class Exec>
LUCENT_STAGE void judgeOwnMoves(Exec& ex, const ReplicaProgram& p, const Replica& r, const Uniform& u,
                                const MovePhase& mp, int i) {
    const int n = mp.n, d = mp.d, prev = prevNode(i, n), next = nextNode(i, n);
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
}

/// Own move item at node i: a tested candidate is hit if it crosses a segment of the polygon as
/// the phase found it, other than the two it replaces; then the best one (strictly lower GL, ties
/// to the lowest candidate index) goes to the handoff with its two segments' sums and logs.
template <class Exec>
LUCENT_STAGE void handOffOwnMove(Exec& ex, const Replica& r, const Uniform& u, const MovePhase& mp, int i, Handoff& h) {
    const int n = mp.n, d = mp.d;
    const PixelPoint a = r.pos[prevNode(i, n)], b = r.pos[i], c = r.pos[nextNode(i, n)];
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
        h.info = best;
        if (best >= 0) {
            h.s[0] = r.acc[2 * best];
            h.s[1] = r.acc[2 * best + 1];
            h.logs[0] = r.ownLog[2 * best];
            h.logs[1] = r.ownLog[2 * best + 1];
        }
    });
}

/// Every block's own items of a move phase: the stale nodes' candidate sums (kept in the cache),
/// the others' loaded from it, and each node's best move against the polygon as the phase found it
/// (strictly lower GL, ties to the lowest candidate index, no fold, no crossing), handed off.
/// Returns how many parts a summed item was cut into.
template <class Exec>
LUCENT_STAGE int ownMoveItems(Exec& ex, const ReplicaProgram& p, const Replica& r, Uniform& u, const MovePhase& mp,
                              OwnClocks& clocks) {
    const int n = mp.n, phase = mp.phase, d = mp.d;
    return ownItems(
        ex, p, r, mp.count, mp.stale, kSlots, mp.rows,
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
            const int t = r.items[e], i = phaseNode(n, phase, t);
            if (e < mp.stale && p.useCache) {  // fresh sums: kept for later phases
                ExactSums* to = p.cache + std::size_t(i) * kSlots;
                ex.blockFor(kSlots, [&](long long k) { to[k] = r.acc[k]; });
            }
            judgeOwnMoves(ex, p, r, u, mp, i);
            handOffOwnMove(ex, r, u, mp, i, mp.h[t]);
            u.spent[ReplicaProfile::ItemDecisions] += ex.clock() - d0;
        },
        clocks);
}

/// Every block, after the barrier: each node's best move from the handoff, its segments' sums and
/// change to the target, its GL's logs when it moves alone; the first guess: every chosen move is
/// kept. Returns the movers; kROnly holds one of them.
template <class Exec>
LUCENT_STAGE int loadMoveHandoff(Exec& ex, const Replica& r, const MovePhase& mp) {
    const int n = mp.n, phase = mp.phase;
    ex.blockFor(mp.count, [&](long long tt) {
        const int t = int(tt), i = phaseNode(n, phase, t);
        const Handoff& h = mp.h[t];
        const int best = ldInt(&h.info);
        r.best[t] = best;
        r.spec[t] = best >= 0;
        if (best < 0) return;
        const ExactSums sa = ldSums(&h.s[0]), sb = ldSums(&h.s[1]);
        r.change[4 * t] = sa;
        r.change[4 * t + 1] = sb;
        r.change[4 * t + 2] = sa + sb - r.seg[prevNode(i, n)] - r.seg[i];
        // GL after this move alone: a round's logs of it when no earlier move is kept.
        r.candGl[4 * t + 2] = ldWord(&h.logs[0]);
        r.candGl[4 * t + 3] = ldWord(&h.logs[1]);
        ex.atomicAddInt(ex.sharedInt(kRMovers), 1);
        ex.atomicSetInt(ex.sharedInt(kROnly), t);  // the mover, when there is one
    });
    ex.blockSync();
    return ex.readSharedInt(kRMovers);
}

/// In a speculation round, under the guess (`before`: the prefix sums of the earlier guessed
/// moves' changes in r.prefix): a move is kept if GL falls. GL before and after it, each of two log
/// variances, the four logs on four threads (r.candGl: 4 per item; one log's latency, not four).
/// kRMismatch counts the kept moves guessed not kept; kRList lists the kept ones.
template <class Exec>
LUCENT_STAGE void keepFallingReplicaMoves(Exec& ex, const Replica& r, const Uniform& u, const MovePhase& mp) {
    const int count = mp.count;
    ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRMismatch), 0); });
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
}

/// In a speculation round: a kept move is dropped if it crosses a segment that an earlier guessed
/// move changed (the only crossings the phase's own items did not test). Returns whether every
/// decision equals the guess.
template <class Exec>
LUCENT_STAGE bool replicaMovesMatchGuess(Exec& ex, const Replica& r, const MovePhase& mp) {
    const int n = mp.n, d = mp.d, phase = mp.phase, count = mp.count;
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
        if ((blockedBy(prev, c, next, r.pos[prevNode(k, n)], m) ||
             blockedBy(prev, c, next, m, r.pos[nextNode(k, n)])) &&
            ex.atomicExchInt(&r.dec[t], 0) == 1)
            ex.atomicAddInt(ex.sharedInt(kRMismatch), r.spec[t] ? 1 : -1);
    });
    ex.blockSync();
    return ex.readSharedInt(kRMismatch) == 0;
}

/// Every block: the moves kept in node order, found by speculation from the first guess (every
/// chosen move kept). Returns the sum of the kept moves' changes to the target.
template <class Exec>
LUCENT_STAGE ExactSums speculateMoves(Exec& ex, Replica& r, Uniform& u, const MovePhase& mp, int movers) {
    ExactSums total{};
    // A single mover is kept without a round: nothing before it in the phase moves, so the round
    // would take the target, GL and crossings its own decision took (the same integer sums, the
    // same logs, the same comparison with GL), keep it and find the guess right.
    if (movers == 1) total = r.change[4 * ex.readSharedInt(kROnly) + 2];
    while (movers > 1) {
        u.spent[ReplicaProfile::MoveRounds] += 1;
        const long long r0 = ex.clock();
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRList), 0); });
        total = ex.template cheapScan<ExactSums>(
            mp.count, [&](int t) { return r.spec[t] ? r.change[4 * t + 2] : ExactSums{}; },
            [&](int t, const ExactSums& before) { r.prefix[t] = before; });
        const long long r1 = ex.clock();
        keepFallingReplicaMoves(ex, r, u, mp);
        const long long r2 = ex.clock();
        const bool settled = replicaMovesMatchGuess(ex, r, mp);
        u.spent[ReplicaProfile::RoundScan] += r1 - r0;
        u.spent[ReplicaProfile::RoundGl] += r2 - r1;
        u.spent[ReplicaProfile::RoundCrossings] += ex.clock() - r2;
        if (settled) break;
        int* guess = r.spec;  // the decisions become the next guess (every thread swaps alike)
        r.spec = r.dec;
        r.dec = guess;
    }
    return total;
}

/// Every block: the kept moves applied to its copy of the polygon. The new GL is the last round's
/// GL after the last kept move (its target: everything before it plus itself, so all of `total`):
/// its logs are in r.candGl already. Returns whether a node moved.
template <class Exec>
LUCENT_STAGE bool applyKeptMoves(Exec& ex, const Replica& r, Uniform& u, const MovePhase& mp, const ExactSums& total) {
    const int n = mp.n, d = mp.d, phase = mp.phase;
    ex.blockFor(mp.count, [&](long long tt) {
        const int t = int(tt);
        if (!r.spec[t]) return;
        const int i = phaseNode(n, phase, t);
        r.pos[i] = snakeMove(r.pos[i], r.best[t], d);
        r.movedAt[i] = mp.now;
        r.seg[prevNode(i, n)] = r.change[4 * t];
        r.seg[i] = r.change[4 * t + 1];
        ex.atomicMaxInt(ex.sharedInt(kRMoved), t + 1);
    });
    ex.blockSync();
    const int last = ex.readSharedInt(kRMoved) - 1;
    if (last < 0) return false;
    u.target = u.target + total;
    const double* logs = r.candGl + 4 * last;
    u.gl = glOfLogs(double((u.image - u.target).n), logs[2], double(u.target.n), logs[3]);
    return true;
}

/// Move phase `phase` (SnakeCpu::movePhase). Returns whether a node moved.
template <class Exec>
LUCENT_HD bool replicaMoves(Exec& ex, const ReplicaProgram& p, Replica r, Uniform& u, int phase) {
    const long long t0 = ex.clock();
    MovePhase mp{u.n, u.d, phase, phaseCount(u.n, phase), u.phases};
    mp.h = p.handoff + std::size_t(u.stage & 1) * p.handoffItems;
    u.phases += 1;
    listStaleNodes(ex, p, r, mp);
    u.spent[ReplicaProfile::NodesSummed] += mp.stale;
    const long long ownStart = ex.clock();
    u.spent[ReplicaProfile::StaleScan] += ownStart - t0;
    OwnClocks clocks;
    const int parts = ownMoveItems(ex, p, r, u, mp, clocks);
    const long long ownEnd = ex.clock(), barrierBefore = u.spent[ReplicaProfile::Barrier];
    ex.blockFor(1, [&](long long) {
        ex.atomicSetInt(ex.sharedInt(kRMovers), 0);
        ex.atomicSetInt(ex.sharedInt(kRMoved), 0);
    });
    endOwnItems(ex, u, t0);
    if (parts > 1 && mp.stale > 0) {
        u.spent[ReplicaProfile::SplitMoveStages] += 1;
        u.spent[ReplicaProfile::SplitOwnItems] += ownEnd - ownStart;
        u.spent[ReplicaProfile::SplitBarrier] += u.spent[ReplicaProfile::Barrier] - barrierBefore;
    }
    if (ex.block() == 0) {
        u.spent[ReplicaProfile::OwnSumming] += clocks.sum;
        u.spent[ReplicaProfile::OwnGathering] += clocks.gather;
        u.spent[ReplicaProfile::OwnLoading] += clocks.load;
    }
    // Every block: the moves applied in node order, each kept only if GL still falls and it crosses
    // no segment that an earlier move of the phase changed.
    const long long t1 = ex.clock();
    const int movers = loadMoveHandoff(ex, r, mp);
    const long long t2 = ex.clock();
    const ExactSums total = speculateMoves(ex, r, u, mp, movers);
    u.spent[ReplicaProfile::MoveHandoff] += t2 - t1;
    u.spent[ReplicaProfile::MoveSpeculation] += ex.clock() - t2;
    u.spent[ReplicaProfile::MoveStages] += 1;
    const long long a0 = ex.clock();
    const bool moved = movers > 0 && applyKeptMoves(ex, r, u, mp, total);
    ex.blockSync();  // the counters are reset by the next stage
    u.spent[ReplicaProfile::MovesApplied] += ex.clock() - a0;
    u.spent[ReplicaProfile::Decisions] += ex.clock() - t1;
    return moved;
}

}  // namespace lucent::snake
