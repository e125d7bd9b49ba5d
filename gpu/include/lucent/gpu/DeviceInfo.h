/// @brief Which CUDA devices this process can use (empty when built without CUDA or none present).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lucent::gpu {

struct DeviceInfo {
    int index = 0;
    std::string name;
    std::size_t totalMemory = 0;  ///< bytes
    std::size_t freeMemory = 0;   ///< bytes, at query time
    int computeMajor = 0, computeMinor = 0;
    int multiprocessors = 0;
};

/// True when this build has CUDA engines compiled in.
bool cudaCompiledIn();
/// Usable devices; empty without a driver or device (never throws). Reads every device's properties
/// and free memory (a fraction of a millisecond): for listings, not for every engine's creation.
/// The calling thread's current device is left as it was.
std::vector<DeviceInfo> listDevices();
/// True when this build has CUDA and the process sees a device: the device count alone, no
/// properties read (what each engine's creation asks). Never throws.
bool hasDevice();
/// Starts the CUDA driver and the device's context and pins the upload staging buffers: a few
/// hundred milliseconds on first use that a viewer pays at start-up (on a worker thread), not when
/// the first volume is shown. Does nothing without a device; never throws; any thread.
void warmUp();
/// Frees the pinned staging buffers and destroys this process's CUDA context now (cudaDeviceReset),
/// so that a program done with the device can pay that teardown beside other work (its outputs'
/// writing) instead of at exit. A later CUDA call starts afresh. Call it only when nothing of this
/// process uses the device (no engine, context or device buffer alive). Never throws; any thread.
void releaseDevice();
/// One line per backend for About boxes and `lucent version`, e.g. "CUDA: NVIDIA H100 (80 GB, sm_90)".
std::string describeBackends();

}  // namespace lucent::gpu
