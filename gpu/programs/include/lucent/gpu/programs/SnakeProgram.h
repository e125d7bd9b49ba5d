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

#include "lucent/gpu/programs/SnakeProgramInsert.h"
#include "lucent/gpu/programs/SnakeProgramMoves.h"
#include "lucent/gpu/programs/SnakeProgramState.h"

namespace lucent::snake {

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
    if (p.profile && ex.leader())
        ex.leaderFor(1, [&](long long) {
            for (int i = 0; i < int(ProgramProfile::Count); ++i) p.profile[i] += spent.at[i];
        });
}

}  // namespace lucent::snake
