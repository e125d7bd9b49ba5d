/// @brief Writes a label map as a binary DICOM SEG with dcmseg (the recipe of DESIGN.md section 3).
#include "lucent/io/DicomSeg.h"

#include "DicomSegSource.h"
#include "lucent/core/Errors.h"
#include "lucent/core/Version.h"
#include "lucent/io/FileUtil.h"

#include <dcmtk/dcmdata/dcostrmb.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmfg/fgderimg.h>
#include <dcmtk/dcmfg/fgfracon.h>
#include <dcmtk/dcmfg/fgpixmsr.h>
#include <dcmtk/dcmfg/fgplanor.h>
#include <dcmtk/dcmfg/fgplanpo.h>
#include <dcmtk/dcmiod/iodreferences.h>
#include <dcmtk/dcmseg/segdoc.h>
#include <dcmtk/dcmseg/segment.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <set>


namespace lucent::io {

namespace {

/// What the SEG takes from slice k's source file.
struct SourceSlice {
    std::string sopClassUid, sopInstanceUid;
    Vec3 position;  ///< its ImagePositionPatient: the frame's plane position, so SEG and source agree
};

void check(const OFCondition& c, const std::string& path, const std::string& what) {
    if (c.bad()) throw IoError("cannot write " + path + ": " + what + " (" + c.text() + ")");
}

/// Labels present, all segments valid and non-empty; "label 3 is empty" otherwise.
void checkSegments(const LabelMap& labels, const std::vector<SegmentInfo>& segments, const std::string& path) {
    if (segments.empty()) throw IoError("cannot write " + path + ": no segments to write");
    std::array<std::size_t, 256> counts{};
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) ++counts[labels[i]];
    std::set<int> seen;
    for (const SegmentInfo& s : segments) {
        if (s.label == 0) throw IoError("cannot write " + path + ": label 0 is the background, not a segment");
        if (!seen.insert(s.label).second)
            throw IoError("cannot write " + path + ": label " + std::to_string(s.label) + " is listed twice");
        if (counts[s.label] == 0)
            throw IoError("cannot write " + path + ": label " + std::to_string(s.label) + " is empty");
    }
}

/// Reads slice k's source header and checks it against the geometry (position, orientation, size).
SourceSlice readSource(const std::string& file, const Geometry& g, int k, std::unique_ptr<DcmFileFormat>& keep) {
    auto ff = loadDicomDataset(file, false);
    DcmDataset& ds = *ff->getDataset();
    const std::string where = "slice " + std::to_string(k) + " (" + file + ")";
    SourceSlice s{stringOf(ds, DCM_SOPClassUID), stringOf(ds, DCM_SOPInstanceUID)};
    if (s.sopClassUid.empty() || s.sopInstanceUid.empty())
        throw IoError(where + ": no SOP Class / SOP Instance UID to reference");
    Sint32 frames = 1;
    if (ds.findAndGetSint32(DCM_NumberOfFrames, frames).good() && frames > 1)
        throw IoError(where + ": a frame of a multi-frame file (" + std::to_string(frames) +
                      " frames); DICOM SEG export supports single-frame source series only");
    Uint16 rows = 0, cols = 0;
    ds.findAndGetUint16(DCM_Rows, rows);
    ds.findAndGetUint16(DCM_Columns, cols);
    if (rows != g.dims[1] || cols != g.dims[0])
        throw IoError(where + ": " + std::to_string(rows) + " x " + std::to_string(cols) +
                      " pixels, the label map's slices are " + std::to_string(g.dims[1]) + " x " +
                      std::to_string(g.dims[0]));
    double p[3], o[6];
    if (!numbersOf(ds, DCM_ImagePositionPatient, p, 3) || !numbersOf(ds, DCM_ImageOrientationPatient, o, 6))
        throw IoError(where + ": no ImagePositionPatient / ImageOrientationPatient");
    s.position = {p[0], p[1], p[2]};
    std::string why;
    if (sliceAt(g, s.position, why) != k)
        throw IoError(where + ": ImagePositionPatient " +
                      (why.empty() ? "lies on another slice of the label map" : why) +
                      " (a sheared or irregular series; its SEG could not be read back onto this grid)");
    const Vec3 r = g.direction.col[0], c = g.direction.col[1];
    const double dr = norm(normalized(Vec3{o[0], o[1], o[2]}) - r), dc = norm(normalized(Vec3{o[3], o[4], o[5]}) - c);
    if (dr > kSegOrientationTolerance || dc > kSegOrientationTolerance)
        throw IoError(where + ": ImageOrientationPatient differs from the label map's orientation");
    keep = std::move(ff);
    return s;
}

/// The SEG's dataset as the bytes of a DICOM file (meta header included), for writeFileAtomically.
std::string serialise(DcmFileFormat& ff, const std::string& path) {
    const E_TransferSyntax xfer = EXS_LittleEndianExplicit;
    check(ff.validateMetaInfo(xfer), path, "file meta information");
    std::string bytes;
    std::vector<char> buffer(1 << 20);
    DcmOutputBufferStream stream(buffer.data(), buffer.size());
    ff.transferInit();
    OFCondition c = EC_StreamNotifyClient;
    while (c == EC_StreamNotifyClient) {
        c = ff.write(stream, xfer, EET_ExplicitLength, nullptr);
        stream.flush();
        void* chunk = nullptr;
        offile_off_t length = 0;
        stream.flushBuffer(chunk, length);
        bytes.append(static_cast<const char*>(chunk), static_cast<std::size_t>(length));
    }
    ff.transferEnd();
    check(c, path, "encoding the dataset");
    return bytes;
}

/// One segment: label text, codes, algorithm (semi-automatic "Lucent" + version), CIELab colour.
DcmSegment* makeSegment(const SegmentInfo& info, const std::string& path) {
    const std::string name = info.name.empty() ? "Label " + std::to_string(info.label) : info.name;
    DcmSegment* segment = nullptr;
    check(
        DcmSegment::create(
            segment, name.c_str(),
            CodeSequenceMacro(info.category.value.c_str(), info.category.scheme.c_str(), info.category.meaning.c_str()),
            CodeSequenceMacro(info.type.value.c_str(), info.type.scheme.c_str(), info.type.meaning.c_str()),
            DcmSegTypes::SAT_SEMIAUTOMATIC, "Lucent"),
        path, "segment of label " + std::to_string(info.label));
    std::unique_ptr<DcmSegment> owned(segment);
    // The label value survives the round trip here: segment numbers must run 1..N.
    check(segment->setSegmentDescription(("Lucent label " + std::to_string(info.label)).c_str()), path,
          "segment description");
    const auto lab = rgbToDicomLab(info.rgb);
    check(segment->setRecommendedDisplayCIELabValue(lab[0], lab[1], lab[2]), path, "segment colour");
    AlgorithmIdentificationMacro& algorithm = segment->getSegmentationAlgorithmIdentification();
    check(
        algorithm.getAlgorithmFamilyCode().set(info.algorithmFamily.value.c_str(), info.algorithmFamily.scheme.c_str(),
                                               info.algorithmFamily.meaning.c_str()),
        path, "algorithm family");
    check(algorithm.setAlgorithmName("Lucent"), path, "algorithm name");
    check(algorithm.setAlgorithmVersion(kVersion), path, "algorithm version");
    return owned.release();
}

/// Orientation and pixel measures, shared by every frame.
void addSharedGroups(DcmSegmentation& seg, const Geometry& g, const std::string& path) {
    const Vec3 r = g.direction.col[0], c = g.direction.col[1];
    std::unique_ptr<FGPlaneOrientationPatient> orientation(FGPlaneOrientationPatient::createMinimal(
        decimalString(r.x).c_str(), decimalString(r.y).c_str(), decimalString(r.z).c_str(), decimalString(c.x).c_str(),
        decimalString(c.y).c_str(), decimalString(c.z).c_str()));
    if (!orientation) throw IoError("cannot write " + path + ": plane orientation");
    check(seg.addForAllFrames(*orientation), path, "plane orientation");
    FGPixelMeasures measures;
    // PixelSpacing is (between rows, between columns) = (spacing j, spacing i).
    check(measures.setPixelSpacing((decimalString(g.spacing.y) + "\\" + decimalString(g.spacing.x)).c_str()), path,
          "pixel spacing");
    check(measures.setSliceThickness(decimalString(g.spacing.z).c_str()), path, "slice thickness");
    check(measures.setSpacingBetweenSlices(decimalString(g.spacing.z).c_str()), path, "slice spacing");
    check(seg.addForAllFrames(measures), path, "pixel measures");
}

/// The slices that hold `label`: a segment's frames (an empty frame says nothing a reader needs,
/// and a 3-segment label of a 150-slice series wrote 450 frames, most of them empty).
std::vector<int> slicesHolding(const LabelMap& labels, std::uint8_t label) {
    const Geometry& g = labels.geometry();
    std::vector<int> out;
    for (int k = 0; k < g.dims[2]; ++k) {
        const std::uint8_t* slice = labels.data() + std::size_t(k) * g.sliceSize();
        if (std::find(slice, slice + g.sliceSize(), label) != slice + g.sliceSize()) out.push_back(k);
    }
    return out;
}

/// Segment n, slice k: plane position, dimension indices (n, k + 1), derivation image.
void addFrames(DcmSegmentation& seg, const LabelMap& labels, const SegmentInfo& info, Uint16 segmentNumber,
               const std::vector<SourceSlice>& sources, const std::string& path) {
    const Geometry& g = labels.geometry();
    std::vector<Uint8> mask(g.sliceSize());
    for (int k : slicesHolding(labels, info.label)) {
        const std::uint8_t* slice = labels.data() + std::size_t(k) * g.sliceSize();
        for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = slice[i] == info.label ? 1 : 0;
        const Vec3 p = sources[k].position;
        std::unique_ptr<FGPlanePosPatient> position(FGPlanePosPatient::createMinimal(
            decimalString(p.x).c_str(), decimalString(p.y).c_str(), decimalString(p.z).c_str()));
        if (!position) throw IoError("cannot write " + path + ": plane position of slice " + std::to_string(k));
        FGFrameContent content;
        check(content.setDimensionIndexValues(segmentNumber, 0), path, "dimension index");
        check(content.setDimensionIndexValues(Uint32(k + 1), 1), path, "dimension index");
        ImageSOPInstanceReferenceMacro source;
        check(source.setReferencedSOPClassUID(sources[k].sopClassUid.c_str()), path, "source class");
        check(source.setReferencedSOPInstanceUID(sources[k].sopInstanceUid.c_str()), path, "source instance");
        OFVector<ImageSOPInstanceReferenceMacro> images;
        images.push_back(source);
        std::unique_ptr<FGDerivationImage> derivation(
            DcmSegmentation::createDerivationImageFG(images, "Segmented in Lucent"));
        if (!derivation) throw IoError("cannot write " + path + ": derivation image of slice " + std::to_string(k));
        OFVector<FGBase*> groups;
        groups.push_back(position.get());
        groups.push_back(&content);
        groups.push_back(derivation.get());
        check(seg.addFrame(mask.data(), segmentNumber, groups), path, "frame of slice " + std::to_string(k));
    }
}

/// The pixel data of all frames, in the order addFrames adds them (segment by segment, the slices
/// holding it), one bit per pixel, least significant bit first, frames back to back without padding.
/// DCMTK 3.6.7 packs frames whose pixel count is not a multiple of 8 wrongly (concatFrames drops
/// the bits that its shift carries out of a frame's last byte), so the SEG gets these bytes.
std::vector<Uint8> packFrames(const LabelMap& labels, const std::vector<SegmentInfo>& segments) {
    const std::size_t perSlice = labels.geometry().sliceSize();
    std::vector<std::vector<int>> slices;
    std::size_t frames = 0;
    for (const SegmentInfo& info : segments) frames += (slices.emplace_back(slicesHolding(labels, info.label))).size();
    std::vector<Uint8> bits((((perSlice * frames + 7) / 8) + 1) & ~std::size_t(1), 0);  // even length
    std::size_t bit = 0;
    for (std::size_t n = 0; n < segments.size(); ++n)
        for (int k : slices[n]) {
            const std::uint8_t* slice = labels.data() + std::size_t(k) * perSlice;
            for (std::size_t p = 0; p < perSlice; ++p, ++bit)
                if (slice[p] == segments[n].label) bits[bit >> 3] |= Uint8(1u << (bit & 7));
        }
    return bits;
}

}  // namespace

void writeDicomSeg(const LabelMap& labels, const std::vector<std::string>& sliceFiles,
                   const std::vector<SegmentInfo>& segments, const std::string& path) {
    const Geometry& g = labels.geometry();
    if (g.voxelCount() == 0) throw IoError("cannot write " + path + ": the label map is empty (no voxels)");
    if (g.dims[0] > 65535 || g.dims[1] > 65535)
        throw IoError("cannot write " + path + ": slices over 65535 pixels a side do not fit DICOM");
    if (sliceFiles.size() != std::size_t(g.dims[2]))
        throw IoError("cannot write " + path + ": " + std::to_string(sliceFiles.size()) + " source files for " +
                      std::to_string(g.dims[2]) + " slices");
    checkSegments(labels, segments, path);

    std::vector<SourceSlice> sources;
    std::unique_ptr<DcmFileFormat> first;
    IODReferences references;
    for (int k = 0; k < g.dims[2]; ++k) {
        if (sliceFiles[k].empty())
            throw IoError("cannot write " + path + ": slice " + std::to_string(k) +
                          " has no source file (a gap filled when the series was loaded); every SEG frame must "
                          "reference its source image");
        std::unique_ptr<DcmFileFormat> keep;
        try {
            sources.push_back(readSource(sliceFiles[k], g, k, keep));
        } catch (const IoError& e) {
            throw IoError("cannot write " + path + ": source " + e.what());
        }
        auto reference = std::make_unique<IODReference>(IODReference::LEVEL_STUDY);
        if (!reference->readFromItem(*keep->getDataset()) || !references.add(reference.get()))
            throw IoError("cannot write " + path + ": source " + sliceFiles[k] +
                          " lacks the study / series / instance UIDs to reference");
        reference.release();  // references owns it now
        if (!first) first = std::move(keep);
    }
    DcmDataset& source = *first->getDataset();

    DcmSegmentation* created = nullptr;
    check(DcmSegmentation::createBinarySegmentation(
              created, Uint16(g.dims[1]), Uint16(g.dims[0]),
              IODGeneralEquipmentModule::EquipmentInfo("Lucent", "Lucent", "1", kVersion),
              ContentIdentificationMacro("1", "SEGMENTATION", "Label map segmented in Lucent", "Lucent^")),
          path, "segmentation object");
    std::unique_ptr<DcmSegmentation> seg(created);
    check(seg->importFromSourceImage(source), path, "patient, study and frame of reference of " + sliceFiles[0]);
    // Series Number is type 1 in a SEG (saving fails without it); no numbering scheme is ours to follow.
    check(seg->getSegmentationSeriesModule().setSeriesNumber("9901"), path, "series number");
    check(seg->getSeries().setSeriesDescription("Lucent segmentation"), path, "series description");

    // Dimensions: segment, then the slice's position (both on one organisation).
    char uid[100];
    const OFString organisation = dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT);
    IODMultiframeDimensionModule& dims = seg->getDimensions();
    check(dims.addDimensionIndex(DCM_ReferencedSegmentNumber, organisation, DCM_SegmentIdentificationSequence,
                                 "ReferencedSegmentNumber"),
          path, "segment dimension");
    check(dims.addDimensionIndex(DCM_ImagePositionPatient, organisation, DCM_PlanePositionSequence,
                                 "ImagePositionPatient"),
          path, "position dimension");

    addSharedGroups(*seg, g, path);
    for (const SegmentInfo& info : segments) {
        DcmSegment* segment = makeSegment(info, path);
        Uint16 number = 0;
        const OFCondition added = seg->addSegment(segment, number);
        if (added.bad()) delete segment;
        check(added, path, "segment of label " + std::to_string(info.label));
        addFrames(*seg, labels, info, number, sources, path);
    }
    if (seg->getCommonInstanceReference().addReferences(references, stringOf(source, DCM_StudyInstanceUID).c_str()) !=
        sources.size())
        throw IoError("cannot write " + path + ": the source instances could not all be referenced");

    DcmFileFormat ff;
    check(seg->writeDataset(*ff.getDataset()), path, "segmentation dataset");
    const std::vector<Uint8> pixels = packFrames(labels, segments);
    check(ff.getDataset()->putAndInsertUint8Array(DCM_PixelData, pixels.data(), pixels.size()), path, "pixel data");
    const std::string bytes = serialise(ff, path);
    writeFileAtomically(path, {bytes});
}

}  // namespace lucent::io
