/// @brief DCMTK pixel decoding: chooseRepresentation to little endian, then unpack 8/12/16-bit values.
#include "DicomPixelDecoder.h"

#include "DicomHeaderParser.h"
#include "lucent/core/Errors.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"

#include <dcmtk/dcmdata/dctk.h>

#include <algorithm>
#include <vector>

namespace lucent::io {

namespace {

/// Decompression allocates every frame at once: the header's sizes must fit the memory limit first.
void checkDecodedSize(DcmDataset* ds, const std::string& file) {
    Uint16 rows = 0, cols = 0, bitsAllocated = 16, samples = 1;
    Sint32 frames = 1;
    ds->findAndGetUint16(DCM_Rows, rows);
    ds->findAndGetUint16(DCM_Columns, cols);
    ds->findAndGetUint16(DCM_BitsAllocated, bitsAllocated);
    ds->findAndGetUint16(DCM_SamplesPerPixel, samples);
    ds->findAndGetSint32(DCM_NumberOfFrames, frames);
    imageBytes({cols, rows, std::max<Sint32>(1, frames), std::max<Uint16>(1, samples)},
               std::max<std::size_t>(1, bitsAllocated / 8), file);
}

}  // namespace

void decodeDicomFrames(const std::string& file, const std::vector<int>& frames, int bitsStored, int highBit,
                       bool isSigned, const FrameSink& sink) {
    // Out-of-range bit layouts would make the shifts below undefined.
    if (bitsStored < 1 || bitsStored > 16 || highBit < 0 || highBit > 31)
        throw IoError(file + ": BitsStored " + std::to_string(bitsStored) + " / HighBit " + std::to_string(highBit) +
                      " are not a valid bit layout (BitsStored 1 to 16 expected)");
    initialiseDcmtk();
    DcmFileFormat ff;
    OFCondition st = ff.loadFile(OFFilename(file.c_str()), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect);
    DcmDataset* ds = ff.getDataset();
    // Any failure here is fatal: a stream that ends inside the pixel data loads "successfully" in
    // part, and a silently zero-filled slice would be lost data.
    if (st.bad()) throw IoError(file + ": damaged or truncated DICOM file (" + std::string(st.text()) + ")");
    const DcmXfer xfer(ds->getOriginalXfer());
    if (xfer.isEncapsulated()) {
        checkDecodedSize(ds, file);
        st = ds->chooseRepresentation(EXS_LittleEndianExplicit, nullptr);
        if (st.bad() || !ds->canWriteXfer(EXS_LittleEndianExplicit))
            throw IoError(file + ": cannot decode " + xfer.getXferName() + " (" + xfer.getXferID() + ") pixel data: " +
                          st.text());
    }
    Uint16 rows = 0, cols = 0, bitsAllocated = 16;
    ds->findAndGetUint16(DCM_Rows, rows);
    ds->findAndGetUint16(DCM_Columns, cols);
    ds->findAndGetUint16(DCM_BitsAllocated, bitsAllocated);
    DcmElement* pixels = nullptr;
    if (ds->findAndGetElement(DCM_PixelData, pixels).bad() || !pixels) throw IoError(file + ": no pixel data");
    const std::size_t frameSize = std::size_t(rows) * cols;
    const std::size_t bytes = pixels->getLength();
    const std::size_t bytesPerPixel = bitsAllocated / 8;
    // Every requested frame must lie inside the pixel data before a value is read or a buffer sized.
    const int last = frames.empty() ? -1 : *std::max_element(frames.begin(), frames.end());
    if (last >= 0 && (std::size_t(last) + 1) * frameSize * bytesPerPixel > bytes)
        throw IoError(file + ": pixel data is truncated (" + std::to_string(bytes) + " bytes, frame " +
                      std::to_string(last) + " needs " +
                      std::to_string((std::size_t(last) + 1) * frameSize * bytesPerPixel) + ")");

    const void* raw = nullptr;
    if (bitsAllocated == 16) {
        Uint16* p = nullptr;
        if (pixels->getUint16Array(p).bad() || !p) throw IoError(file + ": pixel data cannot be read");
        raw = p;
    } else if (bitsAllocated == 8) {
        Uint8* p = nullptr;
        if (pixels->getUint8Array(p).bad() || !p) throw IoError(file + ": pixel data cannot be read");
        raw = p;
    } else {
        throw IoError(file + ": BitsAllocated " + std::to_string(bitsAllocated) + " is not supported (8 and 16 are)");
    }

    // Stored values occupy bits [highBit - bitsStored + 1, highBit]; sign-extend when signed.
    const int shift = std::max(0, highBit + 1 - bitsStored);
    const std::uint32_t mask = bitsStored >= 32 ? 0xffffffffu : ((1u << bitsStored) - 1u);
    const std::uint32_t signBit = 1u << (bitsStored - 1);
    std::vector<std::int32_t> values(frameSize);
    countIoWork({.bytesAllocated = frameSize * sizeof(std::int32_t)});
    for (int f : frames) {
        const std::size_t start = std::size_t(f) * frameSize;
        for (std::size_t i = 0; i < frameSize; ++i) {
            const std::uint32_t word = bitsAllocated == 16 ? static_cast<const Uint16*>(raw)[start + i]
                                                           : static_cast<const Uint8*>(raw)[start + i];
            std::uint32_t v = (word >> shift) & mask;
            if (isSigned && (v & signBit)) v |= ~mask;
            values[i] = static_cast<std::int32_t>(v);
        }
        sink(f, values.data(), frameSize);
    }
}

}  // namespace lucent::io
