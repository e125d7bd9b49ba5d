/// @brief What resident runs keep between them (Resident.h): each device's idle GPU contexts and the
/// memory of labels given back, behind one lock. Making a context (a stream) and label memory (a
/// cudaMalloc of a byte a voxel) took longer than a small engine's whole run.
#include "ResidentCache.h"

#include "CudaCheck.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/OutOfMemory.h"
#include "lucent/gpu/Resident.h"

#include <cuda_runtime.h>

#include <deque>
#include <map>
#include <mutex>
#include <vector>

namespace lucent::gpu {

namespace {

/// Idle contexts and label buffers kept per device: as many as the runs of a process's threads that
/// usually overlap; beyond it the oldest buffer is freed.
constexpr std::size_t kKeptPerDevice = 4;

struct Kept {
    std::mutex mutex;
    bool closed = false;
    std::map<int, std::vector<std::unique_ptr<GpuContext>>> contexts;
    std::map<int, std::deque<DeviceBuffer>> labels;  // oldest first
};

/// Never destroyed: at static destruction the CUDA runtime may be gone already.
Kept& kept() {
    static Kept* k = new Kept;
    return *k;
}

/// `device` current on this thread while it lives (memory and streams are freed on their device).
class DeviceScope {
public:
    explicit DeviceScope(int device) {
        if (cudaGetDevice(&m_previous) == cudaSuccess && m_previous != device && cudaSetDevice(device) == cudaSuccess)
            m_restore = true;
        cudaGetLastError();
    }
    ~DeviceScope() {
        if (m_restore) cudaSetDevice(m_previous);
    }
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int m_previous = 0;
    bool m_restore = false;
};

/// A run's context back to its device's idle ones (residentContext's deleter).
void giveBack(int device, GpuContext* raw) noexcept {
    const DeviceScope scope(device);
    std::unique_ptr<GpuContext> context(raw);
    try {
        context->synchronize();  // a stream that reports a fault is not used again
        Kept& k = kept();
        const std::lock_guard lock(k.mutex);  // released before `context`, when not kept, is destroyed
        auto& idle = k.contexts[device];
        if (!k.closed && idle.size() < kKeptPerDevice) idle.push_back(std::move(context));
    } catch (...) {
        // Not kept: destroyed here.
    }
}

}  // namespace

std::shared_ptr<GpuContext> residentContext(const Volume& volume, DeviceVolume&& resident) {
    const int device = currentDevice();
    std::unique_ptr<GpuContext> context;
    {
        Kept& k = kept();
        const std::lock_guard lock(k.mutex);
        auto& idle = k.contexts[device];
        if (!idle.empty()) {
            context = std::move(idle.back());
            idle.pop_back();
        }
    }
    if (context)
        context->rebind(volume, std::move(resident));
    else
        context = std::make_unique<GpuContext>(volume, std::move(resident));
    return {context.release(), [device](GpuContext* c) { giveBack(device, c); }};
}

DeviceBuffer takeLabelMemory(int device, std::size_t bytes) {
    {
        Kept& k = kept();
        const std::lock_guard lock(k.mutex);
        auto& list = k.labels[device];
        // The smallest that fits (a large buffer stays for large labels), of those the last kept.
        auto best = list.end();
        for (auto it = list.begin(); it != list.end(); ++it) {
            const bool fits = it->bytes() >= bytes && it->bytes() / 2 <= bytes;
            if (fits && (best == list.end() || it->bytes() <= best->bytes())) best = it;
        }
        if (best != list.end()) {
            DeviceBuffer out = std::move(*best);
            list.erase(best);
            return out;
        }
    }
    try {
        return DeviceBuffer(bytes, "the labels");
    } catch (const GpuOutOfMemory&) {
        if (releaseResidentMemory() == 0) throw;
    }
    return DeviceBuffer(bytes, "the labels");
}

void keepLabelMemory(int device, DeviceBuffer&& buffer) noexcept {
    if (!buffer.get()) return;
    const DeviceScope scope(device);
    // Freeing the memory would wait for the device's queued work (a consumer's reads of the old
    // labels); the next run's writes must not overtake it either.
    if (cudaDeviceSynchronize() != cudaSuccess) {
        cudaGetLastError();
        return;  // freed by its owner, as before
    }
    try {
        DeviceBuffer dropped;
        Kept& k = kept();
        const std::lock_guard lock(k.mutex);  // released before `dropped` is freed
        if (k.closed) return;
        auto& list = k.labels[device];
        list.push_back(std::move(buffer));
        if (list.size() > kKeptPerDevice) {
            dropped = std::move(list.front());
            list.pop_front();
        }
    } catch (...) {
        // No room to keep it: its owner frees it, as before.
    }
}

std::size_t releaseResidentMemory(bool forGood) {
    std::map<int, std::vector<std::unique_ptr<GpuContext>>> contexts;
    std::map<int, std::deque<DeviceBuffer>> labels;
    {
        Kept& k = kept();
        const std::lock_guard lock(k.mutex);
        if (forGood) k.closed = true;
        contexts.swap(k.contexts);
        labels.swap(k.labels);
    }
    std::size_t bytes = 0;
    for (auto& [device, list] : labels) {
        const DeviceScope scope(device);
        for (const DeviceBuffer& b : list) bytes += b.bytes();
        list.clear();
    }
    for (auto& [device, list] : contexts) {
        const DeviceScope scope(device);
        list.clear();
    }
    return bytes;
}

}  // namespace lucent::gpu
