// @brief The checkpoint scan's ceiling on this device: read a 150 MP int16 slice and write 32 bytes
// for every 8 pixels (the records' traffic), a group a thread and grid-stride; and a 300 MB
// device-to-device copy. Not built by CMake: nvcc -arch=sm_90 -O3 tests/gpu/scan-ceiling.cu -o /tmp/c && /tmp/c
#include <cuda_runtime.h>
#include <cstdio>
__global__ void expand(const int4* in, int4* out, long long groups) {
    for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < groups;
         g += (long long)gridDim.x * blockDim.x) {
        int4 v = in[g];
        out[2 * g] = make_int4(v.x ^ 1, v.y, 0, 0);
        out[2 * g + 1] = v;
    }
}
int main() {
    const long long px = 12247LL * 12247, groups = px / 8;
    int4 *in, *out;
    cudaMalloc(&in, groups * 16);
    cudaMalloc(&out, groups * 32);
    cudaMemset(in, 1, groups * 16);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int blocks : {132 * 8, 132 * 16, 132 * 64, int((groups + 255) / 256)}) {
        float best = 1e9;
        for (int r = 0; r < 20; ++r) {
            cudaEventRecord(a);
            expand<<<blocks, 256>>>(in, out, groups);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            if (ms < best) best = ms;
        }
        printf("expand blocks %d: %.3f ms, %.0f GB/s\n", blocks, best, groups * 48 / best / 1e6);
    }
    float best = 1e9;
    for (int r = 0; r < 20; ++r) {
        cudaEventRecord(a);
        cudaMemcpy(out, in, groups * 16, cudaMemcpyDeviceToDevice);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (ms < best) best = ms;
    }
    printf("memcpy 300 MB: %.3f ms, %.0f GB/s (read+write)\n", best, groups * 32 / best / 1e6);
}
