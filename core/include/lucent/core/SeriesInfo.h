/// @brief Description of one loadable volume found under a path (a DICOM series or a volume file).
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/NamedWindow.h"

#include <string>
#include <vector>

namespace lucent {

struct SeriesInfo {
    /// Selects this volume in `lucent convert --series`: the SeriesInstanceUID, with "#N" appended
    /// when one series had to be split into several volumes (orientations, image sizes).
    std::string id;
    std::string uid;               ///< SeriesInstanceUID (volume files: the file path)
    std::string patientName;
    std::string patientId;
    std::string studyDescription;
    std::string studyUid;
    std::string studyDate;         ///< StudyDate as written (YYYYMMDD); empty for volume files
    std::string accessionNumber;
    std::string modality;
    std::string description;
    int seriesNumber = -1;         ///< DICOM SeriesNumber (0020,0011); -1 when absent (volume files)
    Geometry geometry;
    std::string transferSyntax;    ///< name of the transfer syntax (or the file format)
    std::string transferSyntaxUid; ///< empty for volume files
    std::vector<std::string> files;
    std::vector<std::string> warnings;
    int frames = 0;                ///< image frames read (before gap filling); of one time frame
    /// Volumes over time on this grid (a 4D file, a multi-temporal DICOM series); 1 for one volume.
    int timeFrames = 1;
    /// Display windows the images carry (the most common list among the slices), first = default.
    std::vector<NamedWindow> windows;
};

}  // namespace lucent
