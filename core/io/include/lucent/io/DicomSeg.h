/// @brief DICOM Segmentation (SEG) objects: label maps written through DCMTK's dcmseg and read back onto a grid.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent::io {

/// A coded concept (DICOM Code Sequence item): code value, coding scheme designator, meaning.
struct CodedConcept {
    std::string value;
    std::string scheme;
    std::string meaning;
    bool operator==(const CodedConcept&) const = default;
};

/// SNOMED CT "Tissue": the default segmented property category and type.
inline const CodedConcept kTissue{"85756007", "SCT", "Tissue"};

/// Algorithm families (DICOM CID 7162) a caller can name per segment.
inline const CodedConcept kNeighborhoodAnalysis{"123101", "DCM", "Neighborhood Analysis"};  ///< region growing, FC
inline const CodedConcept kClusterAnalysis{"123107", "DCM", "Cluster Analysis"};            ///< fuzzy C-means
inline const CodedConcept kManualProcessing{"123109", "DCM", "Manual Processing"};          ///< painting
inline const CodedConcept kDeformableModels{"123111", "DCM", "Deformable Models"};          ///< snakes

/// One segment: the voxels of `label`, with how it is named, coded and coloured.
struct SegmentInfo {
    std::uint8_t label = 1;
    std::string name;                                      ///< Segment Label (the label's name); empty: "Label N"
    std::array<std::uint8_t, 3> rgb{230, 40, 40};          ///< written as the recommended CIELab colour
    CodedConcept category = kTissue;                       ///< Segmented Property Category
    CodedConcept type = kTissue;                           ///< Segmented Property Type
    CodedConcept algorithmFamily = kNeighborhoodAnalysis;  ///< of the semi-automatic algorithm "Lucent"
};

/// One segment per label value present in `labels` (increasing), named and coloured as `table`
/// says (LabelTable's defaults for a value it lacks), with the default codes: what "one segment per
/// label" means for a label layer.
std::vector<SegmentInfo> segmentsOf(const LabelMap& labels, const LabelTable& table);

/// Writes `labels` as a binary DICOM SEG at `path` (atomically: a temporary beside it, renamed).
/// `sliceFiles[k]` is the DICOM file of slice k (Volume::metadata().sliceFiles); every slice needs
/// one, single-frame. The SEG takes the patient, study and frame of reference of the first source
/// file, has one segment per entry of `segments` (algorithm type SEMIAUTOMATIC, name "Lucent",
/// version from CMake's project()), and one frame per slice per segment (dimension indices:
/// segment number, slice number k + 1). Frame (n, k) carries slice k's source instance as its
/// derivation image and that instance's own ImagePositionPatient as its plane position (which
/// must lie on slice k of the label map's geometry within a fifth of a voxel per axis: real
/// headers round positions); orientation and pixel spacing are the geometry's, shared by all
/// frames. The source instances are listed in the common instance reference.
/// Throws IoError naming the problem: a label without voxels ("label 3 is empty"), no segments, a
/// slice without a source file, a source file that is multi-frame, unreadable, of another size,
/// orientation (1e-4) or position; or, when writing fails, the output file. Nothing is left at
/// `path` on failure (and an existing file there stays as it was).
void writeDicomSeg(const LabelMap& labels, const std::vector<std::string>& sliceFiles,
                   const std::vector<SegmentInfo>& segments, const std::string& path);

/// A SEG read back onto a reference grid.
struct SegImport {
    LabelMap labels;                    ///< on the reference geometry; a voxel takes its segment's label
    std::vector<SegmentInfo> segments;  ///< in segment-number order
};

/// Reads the binary SEG `path` onto `reference`: each frame is placed by its plane position. The
/// frames must lie on the reference grid: same rows and columns, orientation within 1e-4, pixel
/// spacing within 1e-4 relative, each position within a fifth of a voxel of a slice origin per
/// axis (the writer's rule); anything else is an IoError naming the file and what differs (a SEG
/// is never resampled). A segment keeps the label that writeDicomSeg recorded in its Segment
/// Description ("Lucent label N"); when any segment lacks one (another program's SEG) or two share
/// one, segment n becomes label n, and more than 255 segments are an IoError. Where segments
/// overlap, the later segment (in segment-number order) wins. Colours come back from the CIELab
/// values (within the rounding of the 16-bit encoding); a segment without one gets its label's
/// default colour (LabelTable). Fractional SEGs are refused.
SegImport readDicomSeg(const std::string& path, const Geometry& reference);

/// True when `path` is a DICOM file of the Segmentation Storage SOP class (never throws).
bool isDicomSegFile(const std::string& path);

/// sRGB (0..255) to DICOM's 16-bit CIELab encoding (Recommended Display CIELab Value), and back.
std::array<std::uint16_t, 3> rgbToDicomLab(const std::array<std::uint8_t, 3>& rgb);
std::array<std::uint8_t, 3> dicomLabToRgb(const std::array<std::uint16_t, 3>& lab);

}  // namespace lucent::io
