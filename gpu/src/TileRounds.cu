/// @brief Batched rounds with one read-back per batch.
#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "TileQueue.cuh"
#include "TileRounds.h"

#include <algorithm>
#include <cstring>

namespace lucent::gpu {

TileQueueView TileQueue::view() const {
    auto* base = m_memory.as<std::uint32_t>();
    const std::size_t n = m_tiles;
    return {base, base + 3 * n, base + 3 * n + 3, m_tiles, m_round};
}

TileQueueView TileQueue::advance() {
    ++m_round;
    return view();
}

const std::uint32_t* TileQueue::nextCount() const { return view().counts + (m_round + 1) % 3; }

void TileQueue::reset(void* stream) {
    cudaCheck(cudaMemsetAsync(m_memory.get(), 0, (4 * std::size_t(m_tiles) + 3) * sizeof(std::uint32_t),
                              static_cast<cudaStream_t>(stream)),
              "tile queue");
    m_round = 0;
}

RoundFigures::RoundFigures() = default;

RoundFigures::~RoundFigures() {
    if (m_host) cudaFreeHost(m_host);
}

void RoundFigures::allocate() {
    if (m_host) return;
    m_device = std::make_unique<DeviceBuffer>(8 * sizeof(std::uint32_t), "round figures");
    cudaCheck(cudaHostAlloc(reinterpret_cast<void**>(&m_host), 9 * sizeof(std::uint32_t), cudaHostAllocDefault), "pinned memory");
}

std::uint32_t* RoundFigures::device() const { return m_device->as<std::uint32_t>(); }

RoundsDone runRounds(TileQueue& queue, RoundFigures& figures, void* streamHandle, int maxRounds,
                     const std::function<void(const TileQueueView&)>& launch) {
    auto stream = static_cast<cudaStream_t>(streamHandle);
    figures.allocate();
    std::uint32_t* host = figures.host();
    const std::uint32_t init[8] = {~0u, ~0u, ~0u, 0, 0, 0, 0, 0};
    std::memcpy(host, init, sizeof init);
    cudaCheck(cudaMemcpyAsync(figures.device(), host, sizeof init, cudaMemcpyHostToDevice, stream), "round figures");
    RoundsDone done;
    int left = std::max(1, maxRounds);
    bool converged = false;
    // The first batch is 4 rounds: a read-back costs about as much as a few empty rounds.
    for (int batch = 4; left > 0 && !converged; batch = std::min(batch * 2, 16)) {
        const int n = std::min(batch, left);
        for (int b = 0; b < n; ++b) launch(queue.advance());
        launchCheck("propagation round");
        left -= n;
        // The queue's count and the figures in one read-back: a step waits for the device once a batch.
        cudaCheck(cudaMemcpyAsync(host + 8, queue.nextCount(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream), "tile queue");
        cudaCheck(cudaMemcpyAsync(host, figures.device(), 8 * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream), "round figures");
        cudaCheck(cudaStreamSynchronize(stream), "propagation");
        converged = host[8] == 0;
    }
    const std::uint32_t next = host[8];
    done.tilesLeft = next;
    done.visits = host[6];
    done.rounds = int(host[7]);
    if (host[0] != ~0u)
        done.changed = VoxelBox{{int(host[0]), int(host[1]), int(host[2])}, {int(host[3]), int(host[4]), int(host[5])}};
    return done;
}

}  // namespace lucent::gpu
