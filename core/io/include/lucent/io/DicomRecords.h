/// @brief DICOM header facts per image frame and the sorted slice list of a series (no DCMTK types).
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Vec3.h"

#include <string>
#include <vector>

namespace lucent::io {

/// What the loader needs from the header of one frame (a single-frame file has one).
struct DicomFrameHeader {
    std::string file;
    int frame = 0;            ///< frame index within the file
    int framesInFile = 1;
    std::string seriesUid, sopInstanceUid, studyUid;
    std::string patientName, patientId, studyDescription, seriesDescription, modality;
    std::string studyDate, accessionNumber;  ///< StudyDate (YYYYMMDD), AccessionNumber
    std::string transferSyntaxUid, transferSyntaxName;
    bool transferSyntaxSupported = true;
    int rows = 0, columns = 0;
    int instanceNumber = 0;
    int seriesNumber = -1;    ///< SeriesNumber; -1 when absent
    bool hasPosition = false;       ///< ImagePositionPatient present (per frame or per file)
    bool positionDerived = false;   ///< legacy multi-frame: stacked from the first frame's position
    bool hasOrientation = false;
    Vec3 position;
    Vec3 rowCosine{1, 0, 0}, columnCosine{0, 1, 0};
    bool hasPixelSpacing = false;
    double rowSpacing = 1.0;        ///< PixelSpacing[0]: between rows (along the column cosine)
    double columnSpacing = 1.0;     ///< PixelSpacing[1]: between columns (along the row cosine)
    double sliceThickness = 0.0, spacingBetweenSlices = 0.0;
    double slope = 1.0, intercept = 0.0;
    int bitsAllocated = 16, bitsStored = 16, highBit = 15, pixelRepresentation = 0, samplesPerPixel = 1;
    std::string photometric = "MONOCHROME2";
    /// WindowCenter / WindowWidth pairs (per frame in enhanced files) with their explanations.
    std::vector<NamedWindow> windows;
    /// What tells the time points of a multi-temporal series apart (each with its has* flag):
    /// TemporalPositionIdentifier (0020,0100) or an enhanced frame's TemporalPositionIndex
    /// (0020,9128); TriggerTime (0018,1060) or NominalCardiacTriggerDelayTime (0020,9153), in ms;
    /// AcquisitionNumber (0020,0012). NumberOfTemporalPositions (0020,0105) is 0 when absent.
    bool hasTemporalPosition = false, hasTriggerTime = false, hasAcquisitionNumber = false;
    int temporalPosition = 0, temporalPositions = 0, acquisitionNumber = 0;
    double triggerTime = 0.0;
    /// What tells the echoes of a multi-echo series apart (DicomEchoSplit.h): EchoNumbers (0018,0086)
    /// and EchoTime (0018,0081) in ms, or an enhanced MR frame's EffectiveEchoTime (0018,9082).
    bool hasEchoNumber = false, hasEchoTime = false;
    int echoNumber = 0;
    double echoTime = 0.0;
};

/// One slice of the volume: a frame of a file, or a filler for a missing slice.
struct DicomSlice {
    std::string file;
    int frame = 0;
    bool filler = false;
    double slope = 1.0, intercept = 0.0;
};

/// A loadable volume: its description and its slices in order along the slice normal.
struct DicomSeries {
    SeriesInfo info;
    std::vector<DicomSlice> slices;
    int bitsAllocated = 16, bitsStored = 16, highBit = 15, pixelRepresentation = 0;
    /// Why it cannot be loaded (colour images, unsupported codec); empty when it can.
    std::string unloadableReason;
    /// A multi-temporal series (its positions repeat over time): the slices of every time frame on
    /// the one grid of `slices`, in time order, timeFrames[0] being `slices`; empty for one volume.
    std::vector<std::vector<DicomSlice>> timeFrames;
};

/// Groups frames by SeriesInstanceUID, splits series that are not one volume (orientation, image
/// size), splits a series whose positions repeat into time frames (DicomTemporalSplit.h has the
/// rule), sorts slices along the normal, derives spacing from the positions, fills gaps and drops
/// duplicates, with a warning for every such decision. Pure logic, no file access.
std::vector<DicomSeries> assembleDicomSeries(std::vector<DicomFrameHeader> frames);

}  // namespace lucent::io
