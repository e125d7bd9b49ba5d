/// @brief VoxelBuffer's borrowed bytes (the Python module's NumPy arrays): used in place, never
/// freed or reallocated here; a copy or a resize owns its bytes.
#include "lucent/core/Volume.h"
#include "lucent/core/VoxelBuffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lucent {
namespace {

TEST(VoxelBuffer, BorrowedBytesAreUsedInPlaceAndOutliveTheBuffer) {
    std::vector<std::int16_t> owner{1, 2, 3, 4, 5, 6, 7, 8};
    {
        Geometry g;
        g.dims = {2, 2, 2};
        Volume v(g, PixelType::Int16, VoxelBuffer::borrowed(reinterpret_cast<char*>(owner.data()), 16));
        EXPECT_EQ(v.int16Data(), owner.data());  // no copy
        EXPECT_EQ(v.value(1, 1, 1), 8);
        Volume moved = std::move(v);
        EXPECT_EQ(moved.int16Data(), owner.data());
    }  // freeing borrowed bytes here would be a double free of the vector's (ASan: the sanitizer pass)
    EXPECT_EQ(owner[7], 8);
}

TEST(VoxelBuffer, ACopyOrAResizeOfBorrowedBytesOwnsItsBytes) {
    std::vector<char> owner{'a', 'b', 'c', 'd'};
    const VoxelBuffer borrowed = VoxelBuffer::borrowed(owner.data(), owner.size());
    EXPECT_TRUE(borrowed.isBorrowed());
    VoxelBuffer copy = borrowed;
    EXPECT_FALSE(copy.isBorrowed());
    EXPECT_NE(copy.data(), owner.data());
    EXPECT_EQ(std::string(copy.data(), 4), "abcd");
    VoxelBuffer grown = VoxelBuffer::borrowed(owner.data(), owner.size());
    grown.resize(6);
    EXPECT_FALSE(grown.isBorrowed());
    EXPECT_NE(grown.data(), owner.data());
    EXPECT_EQ(std::string(grown.data(), 4), "abcd");
    grown.data()[0] = 'z';
    EXPECT_EQ(owner[0], 'a');  // the owner's bytes are never written through a resized buffer
}

}  // namespace
}  // namespace lucent
