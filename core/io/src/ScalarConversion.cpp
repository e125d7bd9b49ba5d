/// @brief In-place scalar conversion: blocks staged through a small local array, passes that never overlap.
#include "ScalarConversion.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace lucent::io {

namespace {

/// Scalars per parallel part and per staged block.
constexpr std::size_t kPart = std::size_t(1) << 22, kBlock = 4096;

/// Calls body(begin, end) over [0, n) in parts of kPart on all cores.
template <typename Body>
void inParts(std::size_t n, Body&& body) {
    const std::size_t parts = (n + kPart - 1) / kPart;
    parallelFor(parts, 0, [&](std::size_t p) { body(p * kPart, std::min(n, (p + 1) * kPart)); });
}

template <typename T>
void swapRange(char* data, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) std::reverse(data + i * sizeof(T), data + (i + 1) * sizeof(T));
}

template <typename From>
std::pair<double, double> rangeOf(const char* data, std::size_t count) {
    std::vector<std::pair<From, From>> parts((count + kPart - 1) / kPart);
    parallelFor(parts.size(), 0, [&](std::size_t p) {
        const std::size_t begin = p * kPart, end = std::min(count, begin + kPart);
        From lo = std::numeric_limits<From>::max(), hi = std::numeric_limits<From>::lowest();
        for (std::size_t i = begin; i < end; ++i) {
            From v;
            std::memcpy(&v, data + i * sizeof(From), sizeof v);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        parts[p] = {lo, hi};
    });
    double lo = 0, hi = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        lo = p == 0 ? double(parts[p].first) : std::min(lo, double(parts[p].first));
        hi = p == 0 ? double(parts[p].second) : std::max(hi, double(parts[p].second));
    }
    return {lo, hi};
}

template <typename To>
To convertValue(double v) {
    if constexpr (std::is_same_v<To, std::int16_t>) {
        return static_cast<std::int16_t>(std::clamp(std::round(v), double(std::numeric_limits<std::int16_t>::min()),
                                                    double(std::numeric_limits<std::int16_t>::max())));
    } else {
        return static_cast<float>(v);
    }
}

/// Converts scalars [begin, end) block by block (each block read whole before it is written),
/// backwards when `backwards`.
template <typename From, typename To>
void convertRange(char* buffer, std::size_t begin, std::size_t end, bool backwards, double slope, double intercept) {
    const bool identity = slope == 1.0 && intercept == 0.0;
    From in[kBlock];
    To out[kBlock];
    const std::size_t blocks = (end - begin + kBlock - 1) / kBlock;
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t first = backwards ? (end - std::min(end - begin, (b + 1) * kBlock)) : begin + b * kBlock;
        const std::size_t last = backwards ? end - b * kBlock : std::min(end, first + kBlock);
        const std::size_t n = last - first;
        std::memcpy(in, buffer + first * sizeof(From), n * sizeof(From));
        if (identity && std::is_integral_v<From> && std::is_integral_v<To>) {
            for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<To>(in[i]);  // fits: checked by the caller
        } else {
            for (std::size_t i = 0; i < n; ++i) out[i] = convertValue<To>(double(in[i]) * slope + intercept);
        }
        std::memcpy(buffer + first * sizeof(To), out, n * sizeof(To));
    }
}

template <typename From, typename To>
void convertAll(char* buffer, std::size_t count, double slope, double intercept) {
    constexpr std::size_t s = sizeof(From), t = sizeof(To);
    auto pass = [&](std::size_t begin, std::size_t end, bool backwards) {
        const std::size_t parts = (end - begin + kPart - 1) / kPart;
        parallelFor(parts, 0, [&](std::size_t p) {
            const std::size_t a = begin + p * kPart, b = std::min(end, a + kPart);
            convertRange<From, To>(buffer, a, b, backwards, slope, intercept);
        });
    };
    if (s == t) return pass(0, count, false);  // each scalar stays in its own bytes
    if (s < t) {
        // Widening: scalars [ceil(left * s / t), left) write at or past byte left * s, where no
        // unconverted input lies; the last few run back to front on one thread.
        std::size_t left = count;
        while (left > kPart) {
            const std::size_t from = (left * s + t - 1) / t;
            pass(from, left, true);
            left = from;
        }
        return convertRange<From, To>(buffer, 0, left, true, slope, intercept);
    }
    // Narrowing: the first scalars front to back on one thread, then [done, done * s / t) write
    // below byte done * s, where every input has been read.
    std::size_t done = std::min(count, kPart);
    convertRange<From, To>(buffer, 0, done, false, slope, intercept);
    while (done < count) {
        const std::size_t to = std::min(count, done * s / t);
        pass(done, to, false);
        done = to;
    }
}

template <typename To>
void convertFrom(char* buffer, std::size_t count, ScalarType from, double slope, double intercept) {
    switch (from) {
    case ScalarType::UInt8: return convertAll<std::uint8_t, To>(buffer, count, slope, intercept);
    case ScalarType::Int8: return convertAll<std::int8_t, To>(buffer, count, slope, intercept);
    case ScalarType::UInt16: return convertAll<std::uint16_t, To>(buffer, count, slope, intercept);
    case ScalarType::Int16: return convertAll<std::int16_t, To>(buffer, count, slope, intercept);
    case ScalarType::UInt32: return convertAll<std::uint32_t, To>(buffer, count, slope, intercept);
    case ScalarType::Int32: return convertAll<std::int32_t, To>(buffer, count, slope, intercept);
    case ScalarType::Float32: return convertAll<float, To>(buffer, count, slope, intercept);
    case ScalarType::Float64: return convertAll<double, To>(buffer, count, slope, intercept);
    }
}

}  // namespace

void swapBytesInParallel(char* data, std::size_t count, std::size_t size) {
    if (size == 1) return;
    inParts(count, [&](std::size_t begin, std::size_t end) {
        switch (size) {
        case 2: return swapRange<std::uint16_t>(data, begin, end);
        case 4: return swapRange<std::uint32_t>(data, begin, end);
        case 8: return swapRange<std::uint64_t>(data, begin, end);
        default: swapBytes(data + begin * size, end - begin, size);
        }
    });
}

std::pair<double, double> storedRange(const char* data, std::size_t count, ScalarType type) {
    if (count == 0) return {0.0, 0.0};
    switch (type) {
    case ScalarType::UInt8: return rangeOf<std::uint8_t>(data, count);
    case ScalarType::Int8: return rangeOf<std::int8_t>(data, count);
    case ScalarType::UInt16: return rangeOf<std::uint16_t>(data, count);
    case ScalarType::Int16: return rangeOf<std::int16_t>(data, count);
    case ScalarType::UInt32: return rangeOf<std::uint32_t>(data, count);
    case ScalarType::Int32: return rangeOf<std::int32_t>(data, count);
    case ScalarType::Float32: return rangeOf<float>(data, count);
    case ScalarType::Float64: return rangeOf<double>(data, count);
    }
    return {0.0, 0.0};
}

void convertInPlace(char* buffer, std::size_t count, ScalarType from, PixelType to, double slope, double intercept) {
    const bool identity = slope == 1.0 && intercept == 0.0;
    if (identity && ((from == ScalarType::Int16 && to == PixelType::Int16) ||
                     (from == ScalarType::Float32 && to == PixelType::Float32)))
        return;
    if (to == PixelType::Int16)
        convertFrom<std::int16_t>(buffer, count, from, slope, intercept);
    else
        convertFrom<float>(buffer, count, from, slope, intercept);
}

}  // namespace lucent::io
