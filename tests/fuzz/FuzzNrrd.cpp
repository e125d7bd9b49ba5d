/// @brief libFuzzer target: NRRD reading from memory (attached data, or data.raw / data.raw.gz beside it).
#include "FuzzSupport.h"

#include "lucent/io/NrrdFormat.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    lucent::fuzz::initialise();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    lucent::fuzz::fuzzVolumeFile(data, size, "fuzz.nrrd", lucent::io::NrrdFormat::parse);
    return 0;
}
