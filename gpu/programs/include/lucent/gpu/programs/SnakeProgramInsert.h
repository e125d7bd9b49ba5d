/// @brief The stage program's insertion decisions (SnakeProgram.h): the leader's stages after kInsert.
#pragma once

#include "lucent/gpu/programs/SnakeProgramState.h"

namespace lucent::snake {

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

}  // namespace lucent::snake
