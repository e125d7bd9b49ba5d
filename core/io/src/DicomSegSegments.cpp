/// @brief The segments of a label layer for a DICOM SEG: one per label value present, from the label table.
#include "lucent/io/DicomSeg.h"

namespace lucent::io {

std::vector<SegmentInfo> segmentsOf(const LabelMap& labels, const LabelTable& table) {
    std::array<bool, 256> present{};
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) present[labels[i]] = true;
    std::vector<SegmentInfo> out;
    for (int value = 1; value < 256; ++value) {
        if (!present[value]) continue;
        SegmentInfo info;
        info.label = static_cast<std::uint8_t>(value);
        info.name = table.nameOf(info.label);
        info.rgb = table.colourOf(info.label);
        out.push_back(info);
    }
    return out;
}

}  // namespace lucent::io
