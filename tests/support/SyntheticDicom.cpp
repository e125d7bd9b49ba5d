/// @brief DCMTK-based writer of synthetic series in every transfer syntax the loader reads.
#include "SyntheticDicom.h"

#include <dcmtk/dcmdata/dcrleerg.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmjpeg/djencode.h>
#include <dcmtk/dcmjpeg/djrplol.h>
#include <dcmtk/dcmjpls/djencode.h>
#include <dcmtk/dcmjpls/djrparam.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

namespace lucent::testing {

namespace {

void registerEncoders() {
    static std::once_flag once;
    std::call_once(once, [] {
        DJEncoderRegistration::registerCodecs();
        DJLSEncoderRegistration::registerCodecs();
        DcmRLEEncoderRegistration::registerCodecs();
    });
}

std::string numbers(std::initializer_list<double> values) {
    std::ostringstream s;
    s.precision(10);
    bool first = true;
    for (double v : values) {
        s << (first ? "" : "\\") << v;
        first = false;
    }
    return s.str();
}

void check(const OFCondition& c, const std::string& what) {
    if (c.bad()) throw std::runtime_error(what + ": " + c.text());
}

void putCommon(DcmDataset& ds, const SeriesSpec& spec, const std::string& sopInstance) {
    ds.putAndInsertString(DCM_SOPClassUID, UID_CTImageStorage);
    ds.putAndInsertString(DCM_SOPInstanceUID, sopInstance.c_str());
    ds.putAndInsertString(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.2.1125.9");
    ds.putAndInsertString(DCM_SeriesInstanceUID, spec.seriesUid.c_str());
    if (!spec.frameOfReferenceUid.empty())
        ds.putAndInsertString(DCM_FrameOfReferenceUID, spec.frameOfReferenceUid.c_str());
    ds.putAndInsertString(DCM_PatientName, "Synthetic^Phantom");
    ds.putAndInsertString(DCM_PatientID, "LUCENT-TEST");
    ds.putAndInsertString(DCM_StudyDescription, "unit test");
    ds.putAndInsertString(DCM_SeriesDescription, spec.description.c_str());
    ds.putAndInsertString(DCM_Modality, spec.modality.c_str());
    ds.putAndInsertUint16(DCM_SamplesPerPixel, 1);
    ds.putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
    ds.putAndInsertUint16(DCM_Rows, static_cast<Uint16>(spec.rows));
    ds.putAndInsertUint16(DCM_Columns, static_cast<Uint16>(spec.columns));
    ds.putAndInsertUint16(DCM_BitsAllocated, static_cast<Uint16>(spec.bitsAllocated));
    ds.putAndInsertUint16(DCM_BitsStored, static_cast<Uint16>(spec.bitsStored));
    ds.putAndInsertUint16(DCM_HighBit, static_cast<Uint16>(spec.bitsStored - 1));
    ds.putAndInsertUint16(DCM_PixelRepresentation, spec.isSigned ? 1 : 0);
}

/// Frame n holds slice slices[n], with offsets[n] (none: 0) added to its values.
void putPixels(DcmDataset& ds, const SeriesSpec& spec, const std::vector<int>& slices,
               const std::vector<std::int32_t>& offsets = {}) {
    const std::size_t n = std::size_t(spec.columns) * spec.rows;
    std::vector<SeriesSpec> frames(slices.size(), spec);
    for (std::size_t f = 0; f < offsets.size() && f < frames.size(); ++f) frames[f].valueOffset += offsets[f];
    if (spec.bitsAllocated == 8) {
        std::vector<Uint8> px;
        for (std::size_t f = 0; f < slices.size(); ++f)
            for (int j = 0; j < spec.rows; ++j)
                for (int i = 0; i < spec.columns; ++i)
                    px.push_back(static_cast<Uint8>(frames[f].storedValue(i, j, slices[f])));
        check(ds.putAndInsertUint8Array(DCM_PixelData, px.data(), px.size()), "pixel data");
    } else {
        std::vector<Uint16> px;
        px.reserve(n * slices.size());
        const std::uint32_t mask = (1u << spec.bitsStored) - 1u;
        for (std::size_t f = 0; f < slices.size(); ++f)
            for (int j = 0; j < spec.rows; ++j)
                for (int i = 0; i < spec.columns; ++i)
                    px.push_back(
                        static_cast<Uint16>(static_cast<std::uint32_t>(frames[f].storedValue(i, j, slices[f])) & mask));
        check(ds.putAndInsertUint16Array(DCM_PixelData, px.data(), px.size()), "pixel data");
    }
}

void save(DcmFileFormat& ff, const SeriesSpec& spec, const std::string& path) {
    registerEncoders();
    DcmDataset& ds = *ff.getDataset();
    E_TransferSyntax xfer = EXS_LittleEndianExplicit;
    switch (spec.encoding) {
    case Encoding::ExplicitLittle: break;
    case Encoding::ImplicitLittle: xfer = EXS_LittleEndianImplicit; break;
    case Encoding::ExplicitBig: xfer = EXS_BigEndianExplicit; break;
    case Encoding::Deflated: xfer = EXS_DeflatedLittleEndianExplicit; break;
    case Encoding::Rle: xfer = EXS_RLELossless; break;
    case Encoding::JpegLossless: xfer = EXS_JPEGProcess14SV1; break;
    case Encoding::JpegLs: xfer = EXS_JPEGLSLossless; break;
    }
    if (DcmXfer(xfer).isEncapsulated()) {
        if (spec.encoding == Encoding::JpegLossless) {
            DJ_RPLossless params;
            check(ds.chooseRepresentation(xfer, &params), "JPEG lossless encoding");
        } else if (spec.encoding == Encoding::JpegLs) {
            DJLSRepresentationParameter params(0, OFTrue);
            check(ds.chooseRepresentation(xfer, &params), "JPEG-LS encoding");
        } else {
            check(ds.chooseRepresentation(xfer, nullptr), "RLE encoding");
        }
        if (!ds.canWriteXfer(xfer)) throw std::runtime_error("cannot encode " + path);
    }
    check(ff.saveFile(path.c_str(), xfer), "save " + path);
}

}  // namespace

std::int32_t SeriesSpec::storedValue(int i, int j, int k) const {
    const std::int32_t range = bitsAllocated == 8 ? 256 : (1 << std::min(bitsStored, 15));
    const std::int32_t v = (i * 37 + j * 101 + k * 1009) % range;
    return (isSigned ? v - range / 2 : v) + valueOffset;
}

void writeSlice(const SeriesSpec& spec, int k, const Vec3& position, int instanceNumber, const std::string& path) {
    DcmFileFormat ff;
    DcmDataset& ds = *ff.getDataset();
    putCommon(ds, spec, spec.seriesUid + "." + std::to_string(k + 1) + "." + std::to_string(instanceNumber));
    ds.putAndInsertString(DCM_InstanceNumber, std::to_string(instanceNumber).c_str());
    const Vec3& r = spec.rowCosine;
    const Vec3& c = spec.columnCosine;
    ds.putAndInsertString(DCM_ImageOrientationPatient, numbers({r.x, r.y, r.z, c.x, c.y, c.z}).c_str());
    ds.putAndInsertString(DCM_ImagePositionPatient, numbers({position.x, position.y, position.z}).c_str());
    ds.putAndInsertString(DCM_PixelSpacing, numbers({spec.rowSpacing, spec.columnSpacing}).c_str());
    ds.putAndInsertString(DCM_SliceThickness, numbers({spec.sliceSpacing}).c_str());
    ds.putAndInsertString(DCM_SpacingBetweenSlices, "99");  // lies, as real data does
    ds.putAndInsertString(DCM_RescaleSlope, numbers({spec.slope}).c_str());
    ds.putAndInsertString(DCM_RescaleIntercept, numbers({spec.intercept}).c_str());
    if (!spec.windowCenter.empty()) ds.putAndInsertString(DCM_WindowCenter, spec.windowCenter.c_str());
    if (!spec.windowWidth.empty()) ds.putAndInsertString(DCM_WindowWidth, spec.windowWidth.c_str());
    if (!spec.windowExplanation.empty())
        ds.putAndInsertString(DCM_WindowCenterWidthExplanation, spec.windowExplanation.c_str());
    if (spec.temporalPosition >= 0)
        ds.putAndInsertString(DCM_TemporalPositionIdentifier, std::to_string(spec.temporalPosition).c_str());
    if (spec.temporalPositions >= 0)
        ds.putAndInsertString(DCM_NumberOfTemporalPositions, std::to_string(spec.temporalPositions).c_str());
    if (spec.acquisitionNumber >= 0)
        ds.putAndInsertString(DCM_AcquisitionNumber, std::to_string(spec.acquisitionNumber).c_str());
    if (spec.triggerTime >= 0) ds.putAndInsertString(DCM_TriggerTime, numbers({spec.triggerTime}).c_str());
    if (spec.echoNumber >= 0) ds.putAndInsertString(DCM_EchoNumbers, std::to_string(spec.echoNumber).c_str());
    if (spec.echoTime >= 0) ds.putAndInsertString(DCM_EchoTime, numbers({spec.echoTime}).c_str());
    putPixels(ds, spec, {k});
    save(ff, spec, path);
}

std::vector<std::string> writeSeries(const SeriesSpec& spec, const std::string& folder, unsigned shuffleSeed) {
    std::filesystem::create_directories(folder + "/sub");
    std::vector<int> order(spec.slices);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(shuffleSeed));
    std::vector<std::string> paths;
    for (std::size_t n = 0; n < order.size(); ++n) {
        const int k = order[n];
        // Every third file in a subfolder: the scan must recurse.
        const std::string path = folder + (n % 3 == 0 ? "/sub/" : "/") + "IM" + std::to_string(n) + ".dcm";
        writeSlice(spec, k, spec.position(k), int(n) + 1, path);
        paths.push_back(path);
    }
    return paths;
}

std::vector<std::vector<std::string>> writeTemporalSeries(const SeriesSpec& spec, int frames, TemporalTags tags,
                                                          const std::string& folder, unsigned shuffleSeed) {
    std::filesystem::create_directories(folder);
    std::mt19937 random(shuffleSeed);
    std::vector<std::pair<int, int>> images;  // (frame, slice), written in shuffled order
    for (int f = 0; f < frames; ++f)
        for (int k = 0; k < spec.slices; ++k) images.emplace_back(f, k);
    std::shuffle(images.begin(), images.end(), random);
    std::vector<int> instance(images.size());
    if (tags == TemporalTags::None) {
        // Frame by frame, shuffled within each frame: InstanceNumber order is the time order.
        std::vector<int> within(spec.slices);
        std::iota(within.begin(), within.end(), 1);
        std::vector<std::vector<int>> perFrame(frames, within);
        for (auto& order : perFrame) std::shuffle(order.begin(), order.end(), random);
        for (std::size_t n = 0; n < images.size(); ++n)
            instance[n] = images[n].first * spec.slices + perFrame[images[n].first][images[n].second];
    } else {
        std::iota(instance.begin(), instance.end(), 1);
        std::shuffle(instance.begin(), instance.end(), random);
    }
    std::vector<std::vector<std::string>> paths(frames, std::vector<std::string>(spec.slices));
    for (std::size_t n = 0; n < images.size(); ++n) {
        const auto [f, k] = images[n];
        SeriesSpec frame = spec;
        frame.valueOffset = spec.valueOffset + temporalOffset(f);
        if (tags == TemporalTags::PositionIdentifier) {
            frame.temporalPosition = f + 1;
            frame.temporalPositions = frames;
        } else if (tags == TemporalTags::TriggerTime) {
            frame.triggerTime = 100.0 * f + 0.25 * k;
        } else if (tags == TemporalTags::AcquisitionNumber) {
            frame.acquisitionNumber = f + 1;
        } else if (tags == TemporalTags::Echo) {
            frame.echoNumber = f + 1;
            frame.echoTime = 12.0 + 40.0 * f;
        }
        const std::string path = folder + "/IM" + std::to_string(n) + ".dcm";
        writeSlice(frame, k, spec.position(k), instance[n], path);
        paths[std::size_t(f)][std::size_t(k)] = path;
    }
    return paths;
}

namespace {
DcmItem* newMacro(DcmItem* group, const DcmTagKey& seq) {
    DcmItem* item = nullptr;
    group->findOrCreateSequenceItem(seq, item, -2);
    return item;
}
}  // namespace

void writeEnhancedMultiFrame(const SeriesSpec& spec, const std::string& path, int timeFrames) {
    DcmFileFormat ff;
    DcmDataset& ds = *ff.getDataset();
    putCommon(ds, spec, spec.seriesUid + ".100");
    ds.putAndInsertString(DCM_SOPClassUID, UID_EnhancedCTImageStorage);
    ds.putAndInsertString(DCM_NumberOfFrames, std::to_string(spec.slices * timeFrames).c_str());
    DcmItem* shared = nullptr;
    ds.findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
    const Vec3& r = spec.rowCosine;
    const Vec3& c = spec.columnCosine;
    newMacro(shared, DCM_PlaneOrientationSequence)
        ->putAndInsertString(DCM_ImageOrientationPatient, numbers({r.x, r.y, r.z, c.x, c.y, c.z}).c_str());
    DcmItem* measures = newMacro(shared, DCM_PixelMeasuresSequence);
    measures->putAndInsertString(DCM_PixelSpacing, numbers({spec.rowSpacing, spec.columnSpacing}).c_str());
    measures->putAndInsertString(DCM_SliceThickness, numbers({spec.sliceSpacing}).c_str());
    // Frames stored in reverse position order: the loader must sort by position. Time points
    // interleaved within each position (slice-major, as some scanners store them).
    std::vector<int> order, time;
    for (int k = spec.slices - 1; k >= 0; --k)
        for (int t = 0; t < timeFrames; ++t) {
            order.push_back(k);
            time.push_back(t);
        }
    std::vector<std::int32_t> offsets;
    for (int t : time) offsets.push_back(temporalOffset(t));
    for (std::size_t f = 0; f < order.size(); ++f) {
        DcmItem* frame = nullptr;
        ds.findOrCreateSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, -2);
        const Vec3 p = spec.position(order[f]);
        newMacro(frame, DCM_PlanePositionSequence)->putAndInsertString(DCM_ImagePositionPatient, numbers({p.x, p.y, p.z}).c_str());
        if (timeFrames > 1)
            newMacro(frame, DCM_FrameContentSequence)
                ->putAndInsertUint32(DCM_TemporalPositionIndex, Uint32(time[f] + 1));
        DcmItem* transform = newMacro(frame, DCM_PixelValueTransformationSequence);
        transform->putAndInsertString(DCM_RescaleSlope, numbers({spec.slope}).c_str());
        transform->putAndInsertString(DCM_RescaleIntercept, numbers({spec.intercept}).c_str());
    }
    putPixels(ds, spec, order, offsets);
    save(ff, spec, path);
}

void writeLegacyMultiFrame(const SeriesSpec& spec, const std::string& path) {
    DcmFileFormat ff;
    DcmDataset& ds = *ff.getDataset();
    putCommon(ds, spec, spec.seriesUid + ".200");
    ds.putAndInsertString(DCM_NumberOfFrames, std::to_string(spec.slices).c_str());
    const Vec3& r = spec.rowCosine;
    const Vec3& c = spec.columnCosine;
    ds.putAndInsertString(DCM_ImageOrientationPatient, numbers({r.x, r.y, r.z, c.x, c.y, c.z}).c_str());
    const Vec3 p = spec.position(0);
    ds.putAndInsertString(DCM_ImagePositionPatient, numbers({p.x, p.y, p.z}).c_str());
    ds.putAndInsertString(DCM_PixelSpacing, numbers({spec.rowSpacing, spec.columnSpacing}).c_str());
    ds.putAndInsertString(DCM_SpacingBetweenSlices, numbers({spec.sliceSpacing}).c_str());
    ds.putAndInsertString(DCM_RescaleSlope, numbers({spec.slope}).c_str());
    ds.putAndInsertString(DCM_RescaleIntercept, numbers({spec.intercept}).c_str());
    std::vector<int> order(spec.slices);
    std::iota(order.begin(), order.end(), 0);
    putPixels(ds, spec, order);
    save(ff, spec, path);
}

}  // namespace lucent::testing
