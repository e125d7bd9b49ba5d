// @brief What a snake stage's hand-over between blocks costs by itself on this device: `items`
// blocks each publish one 80-byte result, then every block reads all of them, `stages` times.
//  - grid: cooperative groups' grid.sync(), then the reads (what SnakeReplica.h does today);
//  - counter: one monotone counter, red.release to arrive and ld.acquire to wait, then the reads;
//  - flags: no barrier; each result carries its stage, published by st.release, and readers wait
//    on the results themselves (ld.acquire); a three-buffer ring and a read counter keep a writer
//    from overwriting results a slow block has not read.
// Not built by CMake: nvcc -std=c++17 -arch=sm_90 -O3 tests/gpu/barrier-bench.cu -o /tmp/b && /tmp/b
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

struct alignas(16) Item {
    long long s[8];
    int info, stamp, pad[2];
};

__device__ unsigned ldAcquire(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ void stRelease(unsigned* p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ void redRelease(unsigned* p, unsigned v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

template <int Mode>
__global__ void __launch_bounds__(384, 1) stages(Item* ring, int items, int count, unsigned* bar, unsigned* readDone,
                                                 long long* sink) {
    const int G = gridDim.x;
    long long acc = 0;
    for (int k = 0; k < count; ++k) {
        Item* h = ring + (k % 3) * items;
        if (Mode == 2 && threadIdx.x == 0 && k >= 3)  // results of stage k - 3 read by every block
            while (ldAcquire(readDone) < unsigned(k - 2) * G) {
            }
        __syncthreads();
        if (blockIdx.x < items) {
            Item& it = h[blockIdx.x];
            if (threadIdx.x < 8) __stcg(&it.s[threadIdx.x], (long long)k * 8 + threadIdx.x + acc % 3);
            if (threadIdx.x == 8) __stcg(&it.info, k);
            __syncthreads();
            if (Mode == 2 && threadIdx.x == 0) {
                __threadfence();
                stRelease(reinterpret_cast<unsigned*>(&it.stamp), unsigned(k + 1));
            }
        }
        if (Mode == 0) cooperative_groups::this_grid().sync();
        if (Mode == 1) {
            __syncthreads();
            if (threadIdx.x == 0) {
                redRelease(bar, 1);
                while (ldAcquire(bar) < unsigned(k + 1) * G) {
                }
            }
            __syncthreads();
        }
        if (threadIdx.x < items) {
            const Item& it = h[threadIdx.x];
            if (Mode == 2)
                while (ldAcquire(reinterpret_cast<const unsigned*>(&it.stamp)) != unsigned(k + 1)) {
                }
            acc += __ldcg(&it.s[0]) + __ldcg(&it.s[1]) + __ldcg(&it.info);
        }
        __syncthreads();
        if (Mode == 2 && threadIdx.x == 0) redRelease(readDone, 1);
    }
    if (acc == 42) sink[0] = acc;
}

template <int Mode>
float run(int items, int count) {
    Item* ring;
    unsigned *bar, *readDone;
    long long* sink;
    cudaMalloc(&ring, 3 * items * sizeof(Item));
    cudaMalloc(&bar, 4);
    cudaMalloc(&readDone, 4);
    cudaMalloc(&sink, 8);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float best = 1e9;
    for (int r = 0; r < 7; ++r) {
        cudaMemset(ring, 0, 3 * items * sizeof(Item));
        cudaMemset(bar, 0, 4);
        cudaMemset(readDone, 0, 4);
        void* args[] = {&ring, &items, &count, &bar, &readDone, &sink};
        cudaEventRecord(a);
        cudaError_t e = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(stages<Mode>), dim3(sms), dim3(384), args, 0, 0);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        if (e != cudaSuccess || cudaGetLastError() != cudaSuccess) {
            printf("launch failed: %s\n", cudaGetErrorString(e));
            return -1;
        }
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (ms < best) best = ms;
    }
    return best * 1000.f / count;
}

int main() {
    const int count = 20000;
    for (int items : {1, 8, 74, 132}) {
        printf("items %3d: grid.sync %.3f us, counter %.3f us, flags %.3f us a stage\n", items, run<0>(items, count),
               run<1>(items, count), run<2>(items, count));
    }
}
