/// @brief A coarse copy of a label map for the 3D pane: blocks of f x f x f voxels, one cell each,
/// labelled when at least half of its block is, with the block's majority label. One rule, compiled
/// for host and device, so a live run's 3D copy costs the screen's detail, not the volume's size.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/seg/HostDevice.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace lucent {

/// How a label map of `fine` dimensions is reduced: `factor` voxels a cell along every axis.
struct LabelReduction {
    int factor = 1;
    std::array<int, 3> fine{0, 0, 0};
    std::array<int, 3> cells{0, 0, 0};
    std::size_t cellCount() const { return std::size_t(cells[0]) * std::size_t(cells[1]) * std::size_t(cells[2]); }
};

/// The smallest factor whose cells number at most `maxCells` (a factor of 1 copies the map).
LabelReduction planLabelReduction(std::array<int, 3> fine, std::size_t maxCells);

/// The grid of the cells: `fine`'s axes, spacing times the factor, centred on the blocks.
Geometry reducedGeometry(const Geometry& fine, const LabelReduction& plan);

/// Reduces `labels` by `plan` on the host (several threads) into `out` (made on reducedGeometry).
void reduceLabels(const LabelMap& labels, const LabelReduction& plan, LabelMap& out);

/// Cell (ci, cj, ck) of `labels` (x fastest, dims nx, ny, nz), blocks of `f`: the majority label
/// (Boyer-Moore vote over the labelled voxels in x-fastest order) when at least half of the block's
/// voxels inside the volume are labelled, else 0. Edge blocks count only the voxels they hold.
LUCENT_HD inline std::uint8_t reducedCell(const std::uint8_t* labels, int nx, int ny, int nz, int f, int ci, int cj, int ck) {
    const int i0 = ci * f, j0 = cj * f, k0 = ck * f;
    const int i1 = i0 + f < nx ? i0 + f : nx, j1 = j0 + f < ny ? j0 + f : ny, k1 = k0 + f < nz ? k0 + f : nz;
    int present = 0, labelled = 0, votes = 0;
    std::uint8_t candidate = 0;
    for (int k = k0; k < k1; ++k)
        for (int j = j0; j < j1; ++j) {
            const std::uint8_t* row = labels + (std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx);
            for (int i = i0; i < i1; ++i) {
                ++present;
                const std::uint8_t v = row[i];
                if (!v) continue;
                ++labelled;
                if (votes == 0) candidate = v;
                votes += v == candidate ? 1 : -1;
            }
        }
    return 2 * labelled >= present && labelled > 0 ? candidate : std::uint8_t(0);
}

}  // namespace lucent
