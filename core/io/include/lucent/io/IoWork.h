/// @brief Work counters of the readers (bytes read, inflated and allocated, DICOM frame records):
/// what a hostile file costs is bounded by work in tests, not by time.
#pragma once

#include <cstdint>

namespace lucent::io {

/// What the readers did, summed over every thread since the process started. Counted once per
/// file, buffer or frame record (one relaxed atomic add), never per voxel.
struct IoWork {
    std::uint64_t bytesRead = 0;      ///< bytes of files read into memory whole (readFile: headers, data files)
    std::uint64_t bytesInflated = 0;  ///< bytes inflateBuffer produced
    /// Bytes of voxel buffers: inflate outputs (as reserved, touched or not), the voxel bytes taken
    /// from a file, volumes, the frame buffer of a DICOM decode.
    std::uint64_t bytesAllocated = 0;
    std::uint64_t frameRecords = 0;  ///< DICOM frame records the header scan built (one per frame of a file)

    /// The work done between `earlier` and this.
    IoWork operator-(const IoWork& earlier) const;
};

/// The counts so far.
IoWork ioWorkSoFar();

/// Adds `work` to the counts (the readers call it where they read or allocate).
void countIoWork(const IoWork& work);

}  // namespace lucent::io
