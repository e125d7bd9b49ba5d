/// @brief The file image's scalar sizes, stored values and byte order (RawLayout.h).
#include "lucent/io/RawLayout.h"

#include <algorithm>
#include <cstring>

namespace lucent::io {

std::size_t scalarSize(ScalarType type) {
    switch (type) {
    case ScalarType::UInt8:
    case ScalarType::Int8: return 1;
    case ScalarType::UInt16:
    case ScalarType::Int16: return 2;
    case ScalarType::UInt32:
    case ScalarType::Int32:
    case ScalarType::Float32: return 4;
    case ScalarType::Float64: return 8;
    }
    return 1;
}

namespace {
template <typename T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
}  // namespace

double RawImage::storedValue(std::size_t index) const {
    const char* p = bytes.data() + index * scalarSize(type);
    switch (type) {
    case ScalarType::UInt8: return load<std::uint8_t>(p);
    case ScalarType::Int8: return load<std::int8_t>(p);
    case ScalarType::UInt16: return load<std::uint16_t>(p);
    case ScalarType::Int16: return load<std::int16_t>(p);
    case ScalarType::UInt32: return load<std::uint32_t>(p);
    case ScalarType::Int32: return load<std::int32_t>(p);
    case ScalarType::Float32: return load<float>(p);
    case ScalarType::Float64: return load<double>(p);
    }
    return 0;
}

void swapBytes(char* data, std::size_t count, std::size_t size) {
    if (size == 1) return;
    for (std::size_t i = 0; i < count; ++i) std::reverse(data + i * size, data + (i + 1) * size);
}

}  // namespace lucent::io
