/// @brief libFuzzer target: NIfTI-1 reading from memory (gzip when the input starts with its magic).
#include "FuzzSupport.h"

#include "lucent/io/NiftiFormat.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    lucent::fuzz::initialise();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The reader takes gzip from the name, as from a file's: both paths are reached.
    const bool gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    lucent::fuzz::fuzzVolumeFile(data, size, gz ? "fuzz.nii.gz" : "fuzz.nii", lucent::io::NiftiFormat::parse);
    return 0;
}
