/// @brief Reads a binary DICOM SEG onto a reference grid: frames placed by plane position, never resampled.
#include "lucent/io/DicomSeg.h"

#include "DicomSegSource.h"
#include "lucent/core/Errors.h"
#include "lucent/core/LabelTable.h"

#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmfg/fgpixmsr.h>
#include <dcmtk/dcmfg/fgplanor.h>
#include <dcmtk/dcmfg/fgplanpo.h>
#include <dcmtk/dcmfg/fgseg.h>
#include <dcmtk/dcmseg/segdoc.h>
#include <dcmtk/dcmseg/segment.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <set>

namespace lucent::io {

namespace {

CodedConcept codedConcept(CodeSequenceMacro& code) {
    OFString value, scheme, meaning;
    code.getCodeValue(value);
    code.getCodingSchemeDesignator(scheme);
    code.getCodeMeaning(meaning);
    return {value.c_str(), scheme.c_str(), meaning.c_str()};
}

/// The label recorded by writeDicomSeg ("Lucent label N"), or 0.
int recordedLabel(DcmSegment& segment) {
    OFString description;
    segment.getSegmentDescription(description);
    const std::string prefix = "Lucent label ";
    const std::string d = description.c_str();
    if (d.rfind(prefix, 0) != 0) return 0;
    try {
        std::size_t used = 0;
        const int n = std::stoi(d.substr(prefix.size()), &used);
        return used == d.size() - prefix.size() && n >= 1 && n <= 255 ? n : 0;
    } catch (const std::exception&) {
        return 0;
    }
}

std::vector<SegmentInfo> readSegments(DcmSegmentation& seg, const std::string& path) {
    const std::size_t n = seg.getNumberOfSegments();
    if (n == 0) throw IoError(path + ": the SEG has no segments");
    std::vector<SegmentInfo> out;
    std::set<int> recorded;
    for (std::size_t number = 1; number <= n; ++number) {
        DcmSegment* segment = seg.getSegment(number);
        if (!segment) throw IoError(path + ": segment " + std::to_string(number) + " cannot be read");
        SegmentInfo info;
        const int label = recordedLabel(*segment);
        recorded.insert(label);
        info.label = static_cast<std::uint8_t>(label);
        OFString name;
        segment->getSegmentLabel(name);
        info.name = name.c_str();
        info.category = codedConcept(segment->getSegmentedPropertyCategoryCode());
        info.type = codedConcept(segment->getSegmentedPropertyTypeCode());
        info.algorithmFamily = codedConcept(segment->getSegmentationAlgorithmIdentification().getAlgorithmFamilyCode());
        Uint16 l = 0, a = 0, b = 0;
        info.rgb = segment->getRecommendedDisplayCIELabValue(l, a, b).good() ? dicomLabToRgb({l, a, b})
                                                                             : std::array<std::uint8_t, 3>{};
        out.push_back(info);
    }
    // Labels recorded by Lucent for every segment, all distinct: keep them; else number them.
    if (recorded.count(0) || recorded.size() != n) {
        if (n > 255) throw IoError(path + ": " + std::to_string(n) + " segments do not fit 8-bit labels (255 at most)");
        for (std::size_t i = 0; i < n; ++i) out[i].label = static_cast<std::uint8_t>(i + 1);
    }
    for (std::size_t number = 1; number <= n; ++number) {
        Uint16 l = 0, a = 0, b = 0;
        if (seg.getSegment(number)->getRecommendedDisplayCIELabValue(l, a, b).bad())
            out[number - 1].rgb = LabelTable::defaultColour(out[number - 1].label);
    }
    return out;
}

/// A functional group of frame f (per-frame first, then shared), or IoError naming what is missing.
template <typename Group>
Group& group(DcmSegmentation& seg, Uint32 f, DcmFGTypes::E_FGType type, const std::string& path, const char* what) {
    FGBase* g = seg.getFunctionalGroups().get(f, type);
    if (!g) throw IoError(path + ": frame " + std::to_string(f + 1) + " has no " + what);
    return *static_cast<Group*>(g);
}

/// Checks frame f's orientation and pixel spacing against the reference grid.
void checkPlane(DcmSegmentation& seg, Uint32 f, const Geometry& ref, const std::string& path) {
    Float64 o[6];
    if (group<FGPlaneOrientationPatient>(seg, f, DcmFGTypes::EFG_PLANEORIENTPATIENT, path, "plane orientation")
            .getImageOrientationPatient(o[0], o[1], o[2], o[3], o[4], o[5])
            .bad())
        throw IoError(path + ": frame " + std::to_string(f + 1) + " has no ImageOrientationPatient");
    const Vec3 r = normalized({o[0], o[1], o[2]}), c = normalized({o[3], o[4], o[5]});
    if (norm(r - ref.direction.col[0]) > kSegOrientationTolerance ||
        norm(c - ref.direction.col[1]) > kSegOrientationTolerance)
        throw IoError(path + ": orientation differs from the volume's: rows " + pointText(r) + ", columns " +
                      pointText(c) + " against " + pointText(ref.direction.col[0]) + ", " +
                      pointText(ref.direction.col[1]) + " (resampling a SEG onto another grid is not done)");
    auto& measures = group<FGPixelMeasures>(seg, f, DcmFGTypes::EFG_PIXELMEASURES, path, "pixel measures");
    Float64 rowSpacing = 0, columnSpacing = 0;
    if (measures.getPixelSpacing(rowSpacing, 0).bad() || measures.getPixelSpacing(columnSpacing, 1).bad())
        throw IoError(path + ": frame " + std::to_string(f + 1) + " has no PixelSpacing");
    auto differs = [](double a, double b) { return std::abs(a - b) > kSegSpacingTolerance * std::max(a, b); };
    if (differs(rowSpacing, ref.spacing.y) || differs(columnSpacing, ref.spacing.x))
        throw IoError(path + ": pixel spacing " + decimalString(rowSpacing) + " x " + decimalString(columnSpacing) +
                      " mm differs from the volume's " + decimalString(ref.spacing.y) + " x " +
                      decimalString(ref.spacing.x) + " mm (resampling a SEG onto another grid is not done)");
}

/// The slice of the reference grid that frame f lies on, or IoError.
int sliceOf(DcmSegmentation& seg, Uint32 f, const Geometry& ref, const std::string& path) {
    Float64 x = 0, y = 0, z = 0;
    if (group<FGPlanePosPatient>(seg, f, DcmFGTypes::EFG_PLANEPOSPATIENT, path, "plane position")
            .getImagePositionPatient(x, y, z)
            .bad())
        throw IoError(path + ": frame " + std::to_string(f + 1) + " has no ImagePositionPatient");
    std::string why;
    const int k = sliceAt(ref, {x, y, z}, why);
    if (k < 0)
        throw IoError(path + ": frame " + std::to_string(f + 1) + " at " + why +
                      " (resampling a SEG onto another grid is not done)");
    return k;
}

Uint16 segmentOf(DcmSegmentation& seg, Uint32 f, const std::string& path) {
    Uint16 number = 0;
    if (group<FGSegmentation>(seg, f, DcmFGTypes::EFG_SEGMENTATION, path, "segment identification")
            .getReferencedSegmentNumber(number)
            .bad() ||
        number < 1 || number > seg.getNumberOfSegments())
        throw IoError(path + ": frame " + std::to_string(f + 1) + " names no valid segment");
    return number;
}

}  // namespace

SegImport readDicomSeg(const std::string& path, const Geometry& reference) {
    auto ff = loadDicomDataset(path, true);
    DcmDataset& ds = *ff->getDataset();
    if (stringOf(ds, DCM_SOPClassUID) != UID_SegmentationStorage)
        throw IoError(path + ": not a DICOM Segmentation (SOP Class " + stringOf(ds, DCM_SOPClassUID) + ")");
    Uint16 rows = 0, columns = 0, bits = 0;
    ds.findAndGetUint16(DCM_Rows, rows);
    ds.findAndGetUint16(DCM_Columns, columns);
    ds.findAndGetUint16(DCM_BitsAllocated, bits);
    if (stringOf(ds, DCM_SegmentationType) != "BINARY" || bits != 1)
        throw IoError(path + ": a " + stringOf(ds, DCM_SegmentationType) +
                      " segmentation; only BINARY (1 bit per pixel) SEGs are read");
    if (rows != reference.dims[1] || columns != reference.dims[0])
        throw IoError(path + ": frames of " + std::to_string(rows) + " x " + std::to_string(columns) +
                      " pixels, the volume's slices are " + std::to_string(reference.dims[1]) + " x " +
                      std::to_string(reference.dims[0]) + " (resampling a SEG onto another grid is not done)");

    DcmSegmentation* loaded = nullptr;
    const OFCondition status = DcmSegmentation::loadDataset(ds, loaded);
    std::unique_ptr<DcmSegmentation> seg(loaded);
    if (status.bad() || !seg) throw IoError(path + ": not a readable DICOM SEG (" + status.text() + ")");

    SegImport out{LabelMap(reference), readSegments(*seg, path)};
    // The bits are taken from the pixel data directly: frame f's pixel p is bit f * rows * columns
    // + p, least significant bit first (frames are not byte-aligned when rows * columns is odd).
    const std::size_t frames = seg->getNumberOfFrames(), perFrame = reference.sliceSize();
    const Uint8* pixels = nullptr;
    unsigned long length = 0;
    if (ds.findAndGetUint8Array(DCM_PixelData, pixels, &length).bad() || !pixels ||
        std::uint64_t(length) * 8 < std::uint64_t(frames) * perFrame)
        throw IoError(path + ": pixel data shorter than " + std::to_string(frames) + " frames of " +
                      std::to_string(perFrame) + " bits");

    // Segment-number order (stable), so that where segments overlap the later one wins.
    std::vector<Uint16> segmentOfFrame(frames);
    for (Uint32 f = 0; f < frames; ++f) segmentOfFrame[f] = segmentOf(*seg, f, path);
    std::vector<Uint32> order(frames);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](Uint32 a, Uint32 b) { return segmentOfFrame[a] < segmentOfFrame[b]; });
    for (const Uint32 f : order) {
        checkPlane(*seg, f, reference, path);
        const int k = sliceOf(*seg, f, reference, path);
        const std::uint8_t label = out.segments[segmentOfFrame[f] - 1].label;
        std::uint8_t* slice = out.labels.data() + std::size_t(k) * perFrame;
        const std::uint64_t base = std::uint64_t(f) * perFrame;
        for (std::size_t p = 0; p < perFrame; ++p) {
            const std::uint64_t bit = base + p;
            if (pixels[bit >> 3] & (1u << (bit & 7))) slice[p] = label;
        }
    }
    return out;
}

bool isDicomSegFile(const std::string& path) {
    try {
        auto ff = loadDicomDataset(path, false);
        return stringOf(*ff->getDataset(), DCM_SOPClassUID) == UID_SegmentationStorage;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace lucent::io
