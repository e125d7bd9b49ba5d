/// @brief Device listing through the CUDA runtime.
#include "lucent/gpu/DeviceInfo.h"

#include "Staging.h"

#include <cuda_runtime_api.h>

#include <exception>

#include <cstdio>

namespace lucent::gpu {

bool cudaCompiledIn() { return true; }

void warmUp() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        return;
    }
    if (cudaFree(nullptr) != cudaSuccess) {  // creates the primary context
        cudaGetLastError();
        return;
    }
    try {
        warmUpStaging();
    } catch (const std::exception&) {
        // No pinned memory now: the first upload will try again and report it.
    }
}

void releaseDevice() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        return;
    }
    releaseStaging();
    cudaDeviceReset();
    cudaGetLastError();  // nothing to report: the process is done with the device
}

bool hasDevice() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no driver" error for later calls
        return false;
    }
    return count > 0;
}

std::vector<DeviceInfo> listDevices() {
    std::vector<DeviceInfo> out;
    int count = 0, current = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || cudaGetDevice(&current) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no driver" error for later calls
        return out;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
        DeviceInfo info;
        info.index = d;
        info.name = p.name;
        info.totalMemory = p.totalGlobalMem;
        info.computeMajor = p.major;
        info.computeMinor = p.minor;
        info.multiprocessors = p.multiProcessorCount;
        if (cudaSetDevice(d) == cudaSuccess) cudaMemGetInfo(&info.freeMemory, &info.totalMemory);
        out.push_back(info);
    }
    cudaSetDevice(current);  // a caller working on device 1 stays there
    return out;
}

std::string describeBackends() {
    std::string s = "CPU: reference engines";
    const auto devices = listDevices();
    if (devices.empty()) return s + "\nCUDA: compiled in, but no usable device or driver (the CPU engines run)";
    for (const auto& d : devices) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "\nCUDA device %d: %s, %.1f GiB (%.1f GiB free), sm_%d%d, %d SMs", d.index,
                      d.name.c_str(), d.totalMemory / 1073741824.0, d.freeMemory / 1073741824.0, d.computeMajor,
                      d.computeMinor, d.multiprocessors);
        s += buf;
    }
    return s;
}

}  // namespace lucent::gpu
