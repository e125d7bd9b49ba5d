/// @brief Multi-echo DICOM: a series whose images repeat every position once per echo splits into
/// one volume per echo (as dcm2niix and the series lists of PACS viewers show them), not into time frames.
#pragma once

#include "lucent/io/DicomRecords.h"

#include <string>
#include <vector>

namespace lucent::io {

/// The images of one echo.
struct EchoPart {
    int label = 0;                ///< EchoNumbers when the split was by it, else the rank by echo time (from 1)
    bool hasEchoTime = false;     ///< every image of the part has the same EchoTime
    double echoTime = 0.0;        ///< ms
    std::vector<DicomFrameHeader> images;
};

/// The rule. The images of one grid split by echo when their positions repeat and they carry two
/// or more echoes: told apart by EchoNumbers when every image has it, else by EchoTime (an enhanced
/// frame's EffectiveEchoTime) when every image has one; parts in ascending order. Otherwise (one
/// echo, tags missing on some images, positions that do not repeat) one part holds every image:
/// the temporal rule (DicomTemporalSplit.h) then looks at the repeats. `images` is moved from.
std::vector<EchoPart> splitEchoes(std::vector<DicomFrameHeader>& images);

/// "echo 2, TE 80 ms" (or "echo 2" without one echo time), for descriptions and warnings.
std::string echoName(const EchoPart& part);

}  // namespace lucent::io
