/// @brief LUCENT_HD marks functions compiled for host and device, so CPU and CUDA engines share maths.
#pragma once

#ifdef __CUDACC__
#define LUCENT_HD __host__ __device__
#else
#define LUCENT_HD
#endif
