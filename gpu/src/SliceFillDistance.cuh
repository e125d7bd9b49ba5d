/// @brief One block's exact squared distance transform of a box of a slice plane, the CPU's
/// fill::squaredDistance (core/src/fill/PlaneMask.cpp) pass for pass: column step counts, then the
/// lower envelope along each row with the shared line arithmetic of core/fill/PlaneDistance.h.
/// Included only by files compiled with -fmad=false (gpu/CMakeLists.txt).
#pragma once

#include "lucent/core/fill/PlaneDistance.h"

#include <cstddef>
#include <cstdint>

namespace lucent::gpu::fill {

/// Scratch of one transform of a w x h box: steps, f and v one entry a pixel, z w + 1 entries a row.
struct BoxScratch {
    std::int32_t* steps;
    double* f;
    int* v;
    double* z;
};

/// out[y * w + x]: squared distance in mm^2 from pixel (x, y) of the box to the nearest pixel of the
/// box where `isSet(x, y)` equals `target` (kFarSquared where none). The whole block calls it; it
/// ends with the block synchronised.
template <typename IsSet>
__device__ void boxSquaredDistance(int w, int h, IsSet isSet, bool target, double su, double sv, double* out,
                                   const BoxScratch& s) {
    // The CPU's two scans down and up each column, the running count carried in a register (a
    // reload of the row above would wait on the store just made).
    for (int x = threadIdx.x; x < w; x += blockDim.x) {
        std::int32_t run = lucent::fill::kNoTarget;
        for (int y = 0; y < h; ++y) {
            run = isSet(x, y) == target ? 0 : min(run + 1, lucent::fill::kNoTarget);
            s.steps[std::size_t(y) * w + x] = run;
        }
        for (int y = h - 2; y >= 0; --y) {
            const std::size_t p = std::size_t(y) * w + x;
            run = min(s.steps[p], run + 1);
            s.steps[p] = run;
        }
    }
    __syncthreads();
    for (int y = threadIdx.x; y < h; y += blockDim.x) {
        const std::size_t row = std::size_t(y) * w;
        lucent::fill::rowSquaredDistance(s.steps + row, w, su, sv, out + row, s.f + row, s.v + row,
                                         s.z + std::size_t(y) * (w + 1));
    }
    __syncthreads();
}

}  // namespace lucent::gpu::fill
