/// @brief The stage program's move decisions (SnakeProgram.h): the leader's stages after kMoves.
#pragma once

#include "lucent/gpu/programs/SnakeProgramState.h"

namespace lucent::snake {

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

}  // namespace lucent::snake
