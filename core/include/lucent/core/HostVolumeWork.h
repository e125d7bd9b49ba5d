/// @brief A count of host work on voxel buffers (label maps made, read whole or filled from the
/// device): tests check through it that a device run's frames never pass over a whole volume on
/// the host, without timing anything.
#pragma once

#include <cstddef>

namespace lucent::hostwork {

/// Called where host code makes, reads or fills a buffer of `voxels` voxels.
void note(std::size_t voxels);
/// The most voxels of one noted piece of work since the last reset, and how many were noted.
std::size_t largest();
std::size_t count();
void reset();

}  // namespace lucent::hostwork
