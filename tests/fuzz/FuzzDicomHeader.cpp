/// @brief libFuzzer target: the DICOM header parser on one file, then the series assembler on its frames.
#include "FuzzSupport.h"

#include "DicomHeaderParser.h"
#include "lucent/core/Errors.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    lucent::fuzz::initialise();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lucent::io;
    const std::string file = lucent::fuzz::writeScratchFile(data, size, "fuzz.dcm");
    std::vector<DicomFrameHeader> frames;
    try {
        parseDicomHeader(file, frames);
    } catch (const lucent::IoError&) {
        return 0;  // a refusal naming the file: what a folder scan turns into a skipped file
    }
    // What a scan does next with the records: group, split, sort, derive the geometry.
    assembleDicomSeries(std::move(frames));
    return 0;
}
