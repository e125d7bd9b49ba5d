/// @brief Device listing for builds without a CUDA compiler.
#include "lucent/gpu/DeviceInfo.h"

namespace lucent::gpu {

bool cudaCompiledIn() { return false; }
std::vector<DeviceInfo> listDevices() { return {}; }
bool hasDevice() { return false; }
void warmUp() {}
void releaseDevice() {}
std::string describeBackends() { return "CPU: reference engines\nCUDA: not compiled in (no CUDA compiler at build time; the CPU engines run)"; }

}  // namespace lucent::gpu
