/// @brief Planning the 3D pane's coarse label copy and making it on the host (LabelReduction.h).
#include "lucent/core/LabelReduction.h"

#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <stdexcept>

namespace lucent {

LabelReduction planLabelReduction(std::array<int, 3> fine, std::size_t maxCells) {
    LabelReduction plan;
    plan.fine = fine;
    const int longest = std::max({fine[0], fine[1], fine[2], 1});
    for (int f = 1;; ++f) {
        for (int a = 0; a < 3; ++a) plan.cells[a] = (fine[a] + f - 1) / f;
        plan.factor = f;
        if (plan.cellCount() <= maxCells || f >= longest) return plan;
    }
}

Geometry reducedGeometry(const Geometry& fine, const LabelReduction& plan) {
    Geometry g = fine;
    const double f = plan.factor, centre = (f - 1.0) / 2.0;
    g.dims = plan.cells;
    g.spacing = {fine.spacing.x * f, fine.spacing.y * f, fine.spacing.z * f};
    g.origin = fine.voxelToPatient({centre, centre, centre});
    return g;
}

void reduceLabels(const LabelMap& labels, const LabelReduction& plan, LabelMap& out) {
    const auto& d = labels.geometry().dims;
    if (d != plan.fine) throw std::invalid_argument("label reduction: the plan was made for another grid");
    hostwork::note(labels.voxelCount());  // a pass over the whole host map
    const Geometry g = reducedGeometry(labels.geometry(), plan);
    if (!out.geometry().sameGrid(g) || out.voxelCount() != g.voxelCount()) out = LabelMap(g);
    const auto& c = plan.cells;
    // A slab of cells per item: each reads its own block rows of the fine map.
    parallelFor(std::size_t(c[2]), 0, [&](std::size_t ck) {
        for (int cj = 0; cj < c[1]; ++cj)
            for (int ci = 0; ci < c[0]; ++ci)
                out.at(ci, cj, int(ck)) = reducedCell(labels.data(), d[0], d[1], d[2], plan.factor, ci, cj, int(ck));
    });
}

}  // namespace lucent
