/// @brief DCMTK header parsing: patient/series tags, single-frame, enhanced and legacy multi-frame geometry.
#include "DicomHeaderParser.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"

#include <dcmtk/dcmdata/dccodec.h>
#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmjpeg/djdecode.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/oflog/oflog.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace lucent::io {

void initialiseDcmtk() {
    static std::once_flag once;
    std::call_once(once, [] {
        // DCMTK logs every oddity of real files (the MR sample's trailing zero bytes among them);
        // we report what matters ourselves, once per series.
        OFLog::configure(OFLogger::FATAL_LOG_LEVEL);
        DJDecoderRegistration::registerCodecs();
        DJLSDecoderRegistration::registerCodecs();
        DcmRLEDecoderRegistration::registerCodecs();
    });
}

namespace {

std::string str(DcmItem* item, const DcmTagKey& tag) {
    OFString v;
    if (item && item->findAndGetOFStringArray(tag, v).good()) return std::string(v.c_str());
    return {};
}

bool numbers(DcmItem* item, const DcmTagKey& tag, double* out, int n) {
    if (!item) return false;
    for (int i = 0; i < n; ++i) {
        Float64 v;
        if (item->findAndGetFloat64(tag, v, static_cast<unsigned long>(i)).bad()) return false;
        out[i] = v;
    }
    return true;
}

int integer(DcmItem* item, const DcmTagKey& tag, int fallback) {
    Uint16 u;
    if (item && item->findAndGetUint16(tag, u).good()) return u;
    Sint32 s;
    if (item && item->findAndGetSint32(tag, s).good()) return s;
    return fallback;
}

/// The first item of sequence `seq` within functional-group item `group`, or null.
DcmItem* macro(DcmItem* group, const DcmTagKey& seq) {
    DcmItem* item = nullptr;
    if (group && group->findAndGetSequenceItem(seq, item, 0).good()) return item;
    return nullptr;
}

/// Looks a value up in the per-frame group, then the shared group, then the top-level dataset.
bool lookup(DcmItem* perFrame, DcmItem* shared, DcmItem* top, const DcmTagKey& seq, const DcmTagKey& tag,
            double* out, int n) {
    return numbers(macro(perFrame, seq), tag, out, n) || numbers(macro(shared, seq), tag, out, n) ||
           numbers(top, tag, out, n);
}

/// WindowCenter / WindowWidth of `item` (both multi-valued, paired by index) with the matching
/// WindowCenterWidthExplanation; pairs with a width below 1 are invalid (PS3.3 C.11.2.1.2) and dropped.
/// At most kMaxWindows are kept: every frame record copies them, and a menu of more helps nobody.
std::vector<NamedWindow> windowsOf(DcmItem* item) {
    constexpr unsigned long kMaxWindows = 16;
    std::vector<NamedWindow> out;
    if (!item) return out;
    for (unsigned long i = 0; i < kMaxWindows; ++i) {
        Float64 center = 0, width = 0;
        if (item->findAndGetFloat64(DCM_WindowCenter, center, i).bad() ||
            item->findAndGetFloat64(DCM_WindowWidth, width, i).bad())
            break;
        if (!(width >= 1) || !std::isfinite(center)) continue;
        OFString name;
        if (item->findAndGetOFString(DCM_WindowCenterWidthExplanation, name, i).bad()) name.clear();
        out.push_back({center, width, trim(std::string_view(name.c_str(), name.length()))});
    }
    return out;
}

/// An enhanced file's windows sit in FrameVOILUTSequence (per frame, else shared); classic ones at the top.
std::vector<NamedWindow> frameWindows(DcmItem* perFrame, DcmItem* shared, DcmItem* top) {
    for (DcmItem* item : {macro(perFrame, DCM_FrameVOILUTSequence), macro(shared, DCM_FrameVOILUTSequence), top})
        if (auto w = windowsOf(item); !w.empty()) return w;
    return {};
}

/// Refuses a header whose sizes need more pixel data than the file holds, before anything is sized
/// from them: 2^31 frames or 65535 x 65535 pixels over a few kilobytes are a hostile header.
void checkPixelData(DcmDataset* ds, const DcmXfer& xfer, const DicomFrameHeader& h, int frames,
                    const std::string& file) {
    DcmElement* pixels = nullptr;
    if (ds->findAndGetElement(DCM_PixelData, pixels).bad() || !pixels) throw IoError(file + ": no pixel data");
    const std::string shape = "Rows " + std::to_string(h.rows) + " x Columns " + std::to_string(h.columns) +
                              " x NumberOfFrames " + std::to_string(frames);
    if (xfer.isEncapsulated()) {
        // Compressed: every frame needs at least one fragment (item 0 is the offset table).
        if (pixels->ident() != EVR_PixelData) return;
        auto* data = static_cast<DcmPixelData*>(pixels);
        E_TransferSyntax original = EXS_Unknown;
        const DcmRepresentationParameter* parameter = nullptr;
        data->getOriginalRepresentationKey(original, parameter);
        DcmPixelSequence* sequence = nullptr;
        if (data->getEncapsulatedRepresentation(original, parameter, sequence).bad() || !sequence) return;
        const unsigned long fragments = sequence->card() > 0 ? sequence->card() - 1 : 0;
        if (static_cast<unsigned long>(frames) > fragments)
            throw IoError(file + ": " + shape + ", but the compressed pixel data has " + std::to_string(fragments) +
                          " fragment(s) (one or more per frame expected)");
        return;
    }
    std::uint64_t bits = 1;
    bool overflow = false;
    for (const std::uint64_t f :
         {std::uint64_t(h.rows), std::uint64_t(h.columns), std::uint64_t(frames),
          std::uint64_t(std::max(1, h.samplesPerPixel)), std::uint64_t(std::max(1, h.bitsAllocated))})
        overflow = overflow || __builtin_mul_overflow(bits, f, &bits);
    const std::uint64_t have = pixels->getLengthField();
    if (overflow || (bits + 7) / 8 > have)
        throw IoError(file + ": pixel data holds " + std::to_string(have) + " bytes, but " + shape +
                      " x SamplesPerPixel " + std::to_string(h.samplesPerPixel) + " x BitsAllocated " +
                      std::to_string(h.bitsAllocated) + " need " +
                      (overflow ? std::string("over 2^64 bits") : std::to_string((bits + 7) / 8) + " bytes"));
}

/// Bytes of the frame records of `h` (one per frame: the struct and its strings' characters).
std::uint64_t frameRecordBytes(const DicomFrameHeader& h) {
    std::uint64_t bytes = sizeof(DicomFrameHeader);
    for (const std::string* s : {&h.file, &h.seriesUid, &h.sopInstanceUid, &h.studyUid, &h.patientName, &h.patientId,
                                 &h.studyDescription, &h.seriesDescription, &h.modality, &h.studyDate,
                                 &h.accessionNumber, &h.transferSyntaxUid, &h.transferSyntaxName, &h.photometric})
        bytes += s->size();
    return bytes;
}

/// Every frame becomes a record of several hundred bytes, which tiny frames do not pay for:
/// 2^20 frames of one 1-bit pixel fit in 128 KiB of pixel data, and their records took 3 GiB (found
/// by the fuzzer). The records of a file may take at most kRecordsPerFileByte times
/// its size, plus 1 MiB so that small files with a few hundred frames still load; real multi-frame
/// files (enhanced CT/MR, cine, DICOM SEG) stay far below.
void checkFrameRecords(const DicomFrameHeader& h, int frames, const std::string& file) {
    constexpr std::uint64_t kRecordsPerFileByte = 8, kRecordsFloor = std::uint64_t(1) << 20;
    std::error_code ec;
    const std::uint64_t fileBytes = std::filesystem::file_size(file, ec);
    const std::uint64_t allowed = (ec ? 0 : fileBytes) * kRecordsPerFileByte + kRecordsFloor;
    const std::uint64_t record = frameRecordBytes(h);
    if (record * std::uint64_t(frames) > allowed)
        throw IoError(file + ": NumberOfFrames " + std::to_string(frames) + " of " + std::to_string(h.rows) + " x " +
                      std::to_string(h.columns) + " pixels in a file of " + formatBytes(ec ? 0 : fileBytes) +
                      " would need " + formatBytes(record * std::uint64_t(frames)) +
                      " of frame records (at most " + std::to_string(allowed / record) +
                      " frames are accepted from a file of this size)");
}

/// An integer tag (IS, US, UL, SL) that is present and parses; false leaves `out` alone.
bool integerValue(DcmItem* item, const DcmTagKey& tag, int& out) {
    if (!item) return false;
    Sint32 s;
    Uint16 u;
    Uint32 l;
    if (item->findAndGetSint32(tag, s).good())
        out = s;
    else if (item->findAndGetUint16(tag, u).good())
        out = u;
    else if (item->findAndGetUint32(tag, l).good() && l <= 0x7fffffffu)
        out = int(l);
    else
        return false;
    return true;
}

/// The tags that tell the time points of a multi-temporal series apart: an enhanced frame's own
/// (FrameContent, CardiacSynchronization) first, then the classic ones of the file.
void readTemporalTags(DcmItem* perFrame, DcmItem* top, DicomFrameHeader& h) {
    h.hasTemporalPosition =
        integerValue(macro(perFrame, DCM_FrameContentSequence), DCM_TemporalPositionIndex, h.temporalPosition) ||
        integerValue(top, DCM_TemporalPositionIdentifier, h.temporalPosition);
    integerValue(top, DCM_NumberOfTemporalPositions, h.temporalPositions);
    h.hasTriggerTime = numbers(macro(perFrame, DCM_CardiacSynchronizationSequence), DCM_NominalCardiacTriggerDelayTime,
                               &h.triggerTime, 1) ||
                       numbers(top, DCM_TriggerTime, &h.triggerTime, 1);
    if (h.hasTriggerTime && !std::isfinite(h.triggerTime)) h.hasTriggerTime = false;
    h.hasAcquisitionNumber = integerValue(top, DCM_AcquisitionNumber, h.acquisitionNumber);
}

/// The tags that tell the echoes of a multi-echo series apart: an enhanced MR frame's own echo time
/// first, then the classic EchoNumbers and EchoTime of the file.
void readEchoTags(DcmItem* perFrame, DcmItem* top, DicomFrameHeader& h) {
    h.hasEchoNumber = integerValue(top, DCM_EchoNumbers, h.echoNumber);
    h.hasEchoTime = numbers(macro(perFrame, DCM_MREchoSequence), DCM_EffectiveEchoTime, &h.echoTime, 1) ||
                    numbers(top, DCM_EchoTime, &h.echoTime, 1);
    if (h.hasEchoTime && !std::isfinite(h.echoTime)) h.hasEchoTime = false;
}

bool hasDicmPreamble(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    char buf[132];
    return in.read(buf, 132) && std::memcmp(buf + 128, "DICM", 4) == 0;
}

}  // namespace

HeaderOutcome parseDicomHeader(const std::string& file, std::vector<DicomFrameHeader>& frames) {
    initialiseDcmtk();
    const bool preamble = hasDicmPreamble(file);
    DcmFileFormat ff;
    // Values over 4 KB (pixel data) stay on disk: the header pass reads little of each file.
    const OFCondition status = ff.loadFile(OFFilename(file.c_str()), EXS_Unknown, EGL_noChange, 4096, ERM_autoDetect);
    DcmDataset* ds = ff.getDataset();
    if (status.bad()) {
        if (!preamble) return HeaderOutcome::NotDicom;
        // Real files carry junk after the dataset (the MR sample ends in 2.4 MB of zeros): what
        // was parsed before the junk is kept when it is a complete image header.
        if (!ds || !ds->tagExists(DCM_PixelData) || !ds->tagExists(DCM_Rows))
            throw IoError(file + ": not readable as DICOM (" + status.text() + ")");
    }
    if (!preamble && !ds->tagExists(DCM_SOPClassUID)) return HeaderOutcome::NotDicom;
    if (str(ds, DCM_SOPClassUID) == UID_SegmentationStorage) return HeaderOutcome::Segmentation;
    if (!ds->tagExists(DCM_PixelData) || !ds->tagExists(DCM_Rows)) return HeaderOutcome::NotImage;

    DicomFrameHeader h;
    h.file = file;
    h.seriesUid = str(ds, DCM_SeriesInstanceUID);
    h.sopInstanceUid = str(ds, DCM_SOPInstanceUID);
    h.studyUid = str(ds, DCM_StudyInstanceUID);
    h.patientName = str(ds, DCM_PatientName);
    h.patientId = str(ds, DCM_PatientID);
    h.studyDescription = str(ds, DCM_StudyDescription);
    h.seriesDescription = str(ds, DCM_SeriesDescription);
    h.modality = str(ds, DCM_Modality);
    h.studyDate = str(ds, DCM_StudyDate);
    h.accessionNumber = str(ds, DCM_AccessionNumber);
    const DcmXfer xfer(ds->getOriginalXfer());
    h.transferSyntaxUid = xfer.getXferID();
    h.transferSyntaxName = xfer.getXferName();
    h.transferSyntaxSupported =
        !xfer.isEncapsulated() || DcmCodecList::canChangeCoding(xfer.getXfer(), EXS_LittleEndianExplicit);
    h.rows = integer(ds, DCM_Rows, 0);
    h.columns = integer(ds, DCM_Columns, 0);
    h.instanceNumber = integer(ds, DCM_InstanceNumber, 0);
    h.seriesNumber = integer(ds, DCM_SeriesNumber, -1);
    h.bitsAllocated = integer(ds, DCM_BitsAllocated, 16);
    h.bitsStored = integer(ds, DCM_BitsStored, h.bitsAllocated);
    h.highBit = integer(ds, DCM_HighBit, h.bitsStored - 1);
    h.pixelRepresentation = integer(ds, DCM_PixelRepresentation, 0);
    h.samplesPerPixel = integer(ds, DCM_SamplesPerPixel, 1);
    h.photometric = str(ds, DCM_PhotometricInterpretation);
    if (h.photometric.empty()) h.photometric = "MONOCHROME2";
    numbers(ds, DCM_SliceThickness, &h.sliceThickness, 1);
    numbers(ds, DCM_SpacingBetweenSlices, &h.spacingBetweenSlices, 1);
    if (h.rows <= 0 || h.columns <= 0) throw IoError(file + ": image has no Rows/Columns");
    const int frameCount = std::max(1, integer(ds, DCM_NumberOfFrames, 1));
    h.framesInFile = frameCount;
    checkPixelData(ds, xfer, h, frameCount, file);
    checkFrameRecords(h, frameCount, file);

    DcmItem* shared = macro(ds, DCM_SharedFunctionalGroupsSequence);
    DcmSequenceOfItems* perFrameSeq = nullptr;
    const bool enhanced =
        ds->findAndGetSequence(DCM_PerFrameFunctionalGroupsSequence, perFrameSeq).good() && perFrameSeq &&
        perFrameSeq->card() >= static_cast<unsigned long>(frameCount);

    double v[6];
    for (int f = 0; f < frameCount; ++f) {
        DicomFrameHeader fh = h;
        fh.frame = f;
        DcmItem* perFrame = enhanced ? perFrameSeq->getItem(static_cast<unsigned long>(f)) : nullptr;
        if (lookup(perFrame, shared, ds, DCM_PlaneOrientationSequence, DCM_ImageOrientationPatient, v, 6)) {
            fh.hasOrientation = true;
            fh.rowCosine = normalized({v[0], v[1], v[2]});
            fh.columnCosine = normalized({v[3], v[4], v[5]});
        }
        if (lookup(perFrame, shared, ds, DCM_PixelMeasuresSequence, DCM_PixelSpacing, v, 2)) {
            fh.hasPixelSpacing = true;
            fh.rowSpacing = v[0];
            fh.columnSpacing = v[1];
        }
        if (lookup(perFrame, shared, ds, DCM_PixelMeasuresSequence, DCM_SliceThickness, v, 1)) fh.sliceThickness = v[0];
        if (lookup(perFrame, shared, ds, DCM_PixelMeasuresSequence, DCM_SpacingBetweenSlices, v, 1))
            fh.spacingBetweenSlices = v[0];
        if (lookup(perFrame, shared, ds, DCM_PixelValueTransformationSequence, DCM_RescaleSlope, v, 1) && v[0] != 0)
            fh.slope = v[0];
        if (lookup(perFrame, shared, ds, DCM_PixelValueTransformationSequence, DCM_RescaleIntercept, v, 1))
            fh.intercept = v[0];
        if (lookup(perFrame, shared, ds, DCM_PlanePositionSequence, DCM_ImagePositionPatient, v, 3)) {
            fh.hasPosition = true;
            fh.position = {v[0], v[1], v[2]};
            if (frameCount > 1 && !numbers(macro(perFrame, DCM_PlanePositionSequence), DCM_ImagePositionPatient, v, 3)) {
                // Legacy multi-frame: one position for all frames; stack along the normal.
                const double step = fh.spacingBetweenSlices > 0 ? fh.spacingBetweenSlices
                                                                : (fh.sliceThickness > 0 ? fh.sliceThickness : 1.0);
                fh.position = fh.position + normalized(cross(fh.rowCosine, fh.columnCosine)) * (step * f);
                fh.positionDerived = true;
            }
        }
        fh.windows = frameWindows(perFrame, shared, ds);
        readTemporalTags(perFrame, ds, fh);
        readEchoTags(perFrame, ds, fh);
        fh.instanceNumber = h.instanceNumber * 100000 + f;  // orders frames when positions are absent
        frames.push_back(std::move(fh));
    }
    countIoWork({.frameRecords = std::uint64_t(frameCount)});
    return HeaderOutcome::Image;
}

}  // namespace lucent::io
