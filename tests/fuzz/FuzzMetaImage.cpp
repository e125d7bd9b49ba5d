/// @brief libFuzzer target: MetaImage reading from memory (LOCAL data, or data.raw / data.raw.gz beside it).
#include "FuzzSupport.h"

#include "lucent/io/MetaImageFormat.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    lucent::fuzz::initialise();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    lucent::fuzz::fuzzVolumeFile(data, size, "fuzz.mha", lucent::io::MetaImageFormat::parse);
    return 0;
}
