/// @brief libFuzzer target: the DICOM pixel decoder on one file, with the frames and bit layout its header gives.
#include "FuzzSupport.h"

#include "DicomHeaderParser.h"
#include "DicomPixelDecoder.h"
#include "lucent/core/Errors.h"

#include <numeric>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    lucent::fuzz::initialise();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lucent::io;
    const std::string file = lucent::fuzz::writeScratchFile(data, size, "fuzz.dcm");
    // As a load does: the header first (its checks guard the decoder), then every frame it lists.
    std::vector<DicomFrameHeader> headers;
    try {
        if (parseDicomHeader(file, headers) != HeaderOutcome::Image || headers.empty()) return 0;
        const DicomFrameHeader& h = headers.front();
        std::vector<int> frames(headers.size());
        std::iota(frames.begin(), frames.end(), 0);
        std::int64_t sum = 0;
        decodeDicomFrames(file, frames, h.bitsStored, h.highBit, h.pixelRepresentation == 1,
                          [&](int, const std::int32_t* values, std::size_t count) {
                              // Every value handed out is read, so a short buffer shows.
                              sum = std::accumulate(values, values + count, sum);
                          });
        (void)sum;
    } catch (const lucent::IoError&) {
    }
    return 0;
}
