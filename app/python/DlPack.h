/// @brief The DLPack tensor structures (the ABI of dmlc/dlpack's dlpack.h, version 0.x: what
/// `__dlpack__` capsules named "dltensor" hold), written out here because Debian ships no dlpack.h.
/// Only what the module reads and writes.
#pragma once

#include <cstdint>

namespace lucent::python::dlpack {

enum DeviceType : std::int32_t { kCpu = 1, kCuda = 2, kCudaHost = 3 };
enum TypeCode : std::uint8_t { kInt = 0, kUInt = 1, kFloat = 2 };

struct Device {
    std::int32_t type;  // DeviceType
    std::int32_t id;
};

struct DataType {
    std::uint8_t code;  // TypeCode
    std::uint8_t bits;
    std::uint16_t lanes;
};

struct Tensor {
    void* data;
    Device device;
    std::int32_t ndim;
    DataType dtype;
    std::int64_t* shape;
    std::int64_t* strides;  // in items; null: C-contiguous
    std::uint64_t byteOffset;
};

struct ManagedTensor {
    Tensor tensor;
    void* managerContext;
    void (*deleter)(ManagedTensor* self);
};

/// The capsule names of the protocol: a producer's, and the one its consumer renames it to.
inline constexpr const char* kCapsuleName = "dltensor";
inline constexpr const char* kUsedCapsuleName = "used_dltensor";

}  // namespace lucent::python::dlpack
