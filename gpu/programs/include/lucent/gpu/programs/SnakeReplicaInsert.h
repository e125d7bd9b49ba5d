/// @brief The replicated-decision program's node insertion (SnakeReplica.h), stage by stage.
#pragma once

#include "lucent/gpu/programs/SnakeReplicaState.h"

namespace lucent::snake {

/// What the stages of an insertion share, alike in every block.
struct InsertStage {
    int n;
    int count = 0;  ///< long segments (r.items lists them, r.eligible gives their index)
    Handoff* h;     ///< the stage's handoff buffer
};

/// Lists the long segments in order (r.items, r.eligible); returns how many there are.
template <class Exec>
LUCENT_STAGE int listLongSegments(Exec& ex, const Replica& r, int n, int minSegment) {
    ex.blockFor(
        n, [&](long long i) { r.flag[i] = longSegment(r.pos[i], r.pos[nextNode(int(i), n)], minSegment) ? 1 : 0; });
    ex.blockSync();
    const int count = ex.template blockScan<int>(
        n, [&](int i) { return r.flag[i]; },
        [&](int i, int before) {
            r.eligible[i] = r.flag[i] ? before : -1;
            if (r.flag[i]) r.items[before] = i;
        });
    ex.blockSync();
    return count;
}

/// Own insertion item e, its 8 halves' sums in r.acc: the roundings ruled out whatever earlier
/// segments do (off the grid, folding back, or crossing a segment no earlier insertion splits),
/// handed off with the sums.
template <class Exec>
LUCENT_STAGE void ruleOutRoundings(Exec& ex, const Replica& r, const InsertStage& is, int e) {
    const int n = is.n, i = r.items[e];
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
    ex.blockFor(8, [&](long long k) { is.h[e].s[k] = r.acc[k]; });
    ex.blockFor(1, [&](long long) {
        int ruledOut = 0;
        for (int k = 0; k < 4; ++k) ruledOut |= r.ownHit[k] ? 1 << k : 0;
        is.h[e].info = ruledOut;
    });
}

/// Every block's own items of an insertion: each long segment's roundings summed (two halves
/// each) and judged alone.
template <class Exec>
LUCENT_STAGE void ownInsertItems(Exec& ex, const ReplicaProgram& p, const Replica& r, const InsertStage& is) {
    const int n = is.n;
    const int rows = longestRows(ex, is.count, [&](int e) {
        const int i = r.items[e];
        return iabs(r.pos[nextNode(i, n)].y - r.pos[i].y) / 2 + 1;
    });
    OwnClocks clocks;  // not profiled
    ownItems(
        ex, p, r, is.count, is.count, 8, rows,
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
        [&](int e) { ruleOutRoundings(ex, r, is, e); }, clocks);
}

/// Every block, after the barrier: each segment's ruled-out roundings (r.mask) and the change to
/// the target each other rounding makes; the first guess: no node anywhere.
template <class Exec>
LUCENT_STAGE void loadInsertHandoff(Exec& ex, const Replica& r, const InsertStage& is) {
    ex.blockFor(is.count, [&](long long ee) {
        const int e = int(ee), i = r.items[e], ruledOut = ldInt(&is.h[e].info);
        r.mask[e] = ruledOut;
        r.spec[e] = -1;
        for (int k = 0; k < 4; ++k)
            if (!(ruledOut >> k & 1))
                r.change[4 * e + k] = ldSums(&is.h[e].s[2 * k]) + ldSums(&is.h[e].s[2 * k + 1]) - r.seg[i];
    });
    ex.blockSync();
}

/// GL with segment e as the round finds it (the earlier segments' guessed nodes in), from the
/// logs in r.baseGl.
LUCENT_STAGE double insertBaseGl(const Replica& r, const Uniform& u, int e) {
    const ExactSums before = u.target + r.prefix[e];
    return glOfLogs(double((u.image - before).n), r.baseGl[2 * e], double(before.n), r.baseGl[2 * e + 1]);
}

/// GL with rounding k of segment e's middle inserted then, from the logs in r.candGl.
LUCENT_STAGE double insertRoundingGl(const Replica& r, const Uniform& u, int e, int k) {
    const ExactSums after = u.target + r.prefix[e] + r.change[4 * e + k];
    return glOfLogs(double((u.image - after).n), r.candGl[8 * e + 2 * k], double(after.n), r.candGl[8 * e + 2 * k + 1]);
}

/// In an insertion round: the log variances a thread each (one log's latency, where a thread took
/// four in a row): rounding k's two regions in candGl[8e + 2k] and [8e + 2k + 1], the segment's as
/// the round finds it in baseGl[2e] and [2e + 1]. An iteration starts with at most capacity / 2
/// nodes, so both arrays have room. GL from them (glOfLogs) has snakeGl's bits. Then the roundings
/// not ruled out with GL not above the segment's are listed (kRList); the others are hit.
template <class Exec>
LUCENT_STAGE void judgeReplicaRoundings(Exec& ex, const Replica& r, const Uniform& u, const InsertStage& is) {
    const int count = is.count;
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
    ex.blockFor(4LL * count, [&](long long j) {
        const int e = int(j >> 2), k = int(j & 3);
        const int ok = !(r.mask[e] >> k & 1) && insertRoundingGl(r, u, e, k) <= insertBaseGl(r, u, e);
        r.hit[j] = !ok;
        if (ok) r.list[ex.atomicAddInt(ex.sharedInt(kRList), 1)] = int(j);
    });
    ex.blockSync();
}

/// In an insertion round: a listed rounding is hit if it crosses an earlier segment as the guess
/// leaves it (split by its guessed node, or whole); later segments are as they were and were
/// tested with the own items.
template <class Exec>
LUCENT_STAGE void crossEarlierSegments(Exec& ex, const Replica& r, const InsertStage& is, int listed) {
    const int n = is.n, count = is.count;
    ex.blockFor((long long)listed * count, [&](long long j) {
        const int jj = int(j), pair = r.list[jj / count], v = jj - jj / count * count, e = pair >> 2, k = pair & 3;
        if (v >= e) return;
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
}

/// In an insertion round: each segment's rounding with the lowest GL not above the segment's (ties
/// to the last rounding), not hit, or -1. Returns whether every decision equals the guess.
template <class Exec>
LUCENT_STAGE bool roundingsMatchReplicaGuess(Exec& ex, const Replica& r, const Uniform& u, const InsertStage& is) {
    ex.blockFor(is.count, [&](long long ee) {
        const int e = int(ee);
        int best = -1;
        double bestGl = insertBaseGl(r, u, e);
        for (int k = 0; k < 4; ++k) {
            if (r.hit[4 * e + k]) continue;  // ruled out, GL above the segment's, or crossing
            const double gl = insertRoundingGl(r, u, e, k);
            if (gl <= bestGl) {
                bestGl = gl;
                best = k;
            }
        }
        r.dec[e] = best;
        if (best != r.spec[e]) ex.atomicMinInt(ex.sharedInt(kRMismatch), e);
    });
    ex.blockSync();
    return ex.readSharedInt(kRMismatch) == INT_MAX;
}

/// Every block: each segment takes the rounding with the lowest GL not above the current one (ties
/// to the last rounding) that crosses nothing, against the polygon with the earlier segments'
/// nodes in it; speculation finds that sequential outcome. Returns the sum of the chosen
/// insertions' changes to the target.
template <class Exec>
LUCENT_STAGE ExactSums speculateInsertion(Exec& ex, Replica& r, Uniform& u, const InsertStage& is) {
    ExactSums total{};
    // The first round's guess (no node anywhere) is wrong wherever a node goes in, so its crossing
    // tests against whole earlier segments would only seed the next round, which tests everything:
    // it skips them. If it inserts nothing, crossings could only take nodes away: that is exact too.
    for (bool first = true; is.count > 0; first = false) {
        u.spent[ReplicaProfile::InsertRounds] += 1;
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRList), 0); });
        total = ex.template cheapScan<ExactSums>(
            is.count, [&](int e) { return r.spec[e] >= 0 ? r.change[4 * e + r.spec[e]] : ExactSums{}; },
            [&](int e, const ExactSums& before) { r.prefix[e] = before; });
        ex.blockFor(1, [&](long long) { ex.atomicSetInt(ex.sharedInt(kRMismatch), INT_MAX); });
        judgeReplicaRoundings(ex, r, u, is);
        crossEarlierSegments(ex, r, is, first ? 0 : ex.readSharedInt(kRList));
        if (roundingsMatchReplicaGuess(ex, r, u, is)) break;
        int* guess = r.spec;
        r.spec = r.dec;
        r.dec = guess;
    }
    return total;
}

/// Every block: its copy of the polygon with the new nodes (node i moves to newIndex[i], its
/// segment's new node right after it, with the halves' sums from the handoff); the candidate cache
/// starts over. Returns the nodes added.
template <class Exec>
LUCENT_STAGE int insertReplicaNodes(Exec& ex, const Replica& r, const InsertStage& is) {
    const int n = is.n;
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
        r.seg2[to] = ldSums(&is.h[e].s[2 * k]);
        r.seg2[to + 1] = ldSums(&is.h[e].s[2 * k + 1]);
    });
    ex.blockSync();
    ex.blockFor(n + added, [&](long long j) {
        r.pos[j] = r.pos2[j];
        r.seg[j] = r.seg2[j];
        r.stamp[j] = -1;  // the candidates change with d and the numbering
        r.movedAt[j] = -1;
    });
    ex.blockSync();
    return added;
}

/// Insertion (SnakeCpu::addNodes): a node in the middle of every long segment, in segment order.
/// Returns whether the slice ends (nothing added at d = 1).
template <class Exec>
LUCENT_HD bool replicaInsert(Exec& ex, const ReplicaProgram& p, Replica r, Uniform& u) {
    const long long t0 = ex.clock();
    InsertStage is{u.n};
    is.h = p.handoff + std::size_t(u.stage & 1) * p.handoffItems;
    is.count = listLongSegments(ex, r, is.n, u.minSegment);
    ownInsertItems(ex, p, r, is);
    endOwnItems(ex, u, t0);
    const long long t1 = ex.clock();
    loadInsertHandoff(ex, r, is);
    const ExactSums total = speculateInsertion(ex, r, u, is);
    const int added = insertReplicaNodes(ex, r, is), d = u.d;
    u.n = is.n + added;
    u.target = u.target + total;
    u.gl = snakeGl(u.image, u.target);
    if (added || d > 1) u.d = imax(1, d / 2);
    u.spent[ReplicaProfile::Decisions] += ex.clock() - t1;
    u.spent[ReplicaProfile::InsertDecisions] += ex.clock() - t1;
    u.spent[ReplicaProfile::InsertStages] += 1;
    return added == 0 && d == 1;
}

}  // namespace lucent::snake
