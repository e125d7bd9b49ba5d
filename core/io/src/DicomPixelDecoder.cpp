/// @brief DCMTK pixel decoding: chooseRepresentation to little endian, then unpack 8/12/16-bit values.
#include "DicomPixelDecoder.h"

#include "DicomHeaderParser.h"
#include "lucent/core/Errors.h"

#include <dcmtk/dcmdata/dctk.h>

#include <vector>

namespace lucent::io {

void decodeDicomFrames(const std::string& file, const std::vector<int>& frames, int bitsStored, int highBit,
                       bool isSigned, const FrameSink& sink) {
    initialiseDcmtk();
    DcmFileFormat ff;
    OFCondition st = ff.loadFile(OFFilename(file.c_str()), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect);
    DcmDataset* ds = ff.getDataset();
    // Any failure here is fatal: a stream that ends inside the pixel data loads "successfully" in
    // part, and a silently zero-filled slice would be lost data.
    if (st.bad()) throw IoError(file + ": damaged or truncated DICOM file (" + std::string(st.text()) + ")");
    const DcmXfer xfer(ds->getOriginalXfer());
    if (xfer.isEncapsulated()) {
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
    for (int f : frames) {
        const std::size_t start = std::size_t(f) * frameSize;
        if ((start + frameSize) * bytesPerPixel > bytes)
            throw IoError(file + ": pixel data is truncated (" + std::to_string(bytes) + " bytes, frame " +
                          std::to_string(f) + " needs " + std::to_string((start + frameSize) * bytesPerPixel) + ")");
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
