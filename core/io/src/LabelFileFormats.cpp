/// @brief DICOM SEG and surface files as label exports: the label table becomes segments and surface names.
#include "LabelFileFormats.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomSeg.h"
#include "lucent/io/LabelSurface.h"
#include "lucent/io/SurfaceFile.h"

namespace lucent::io {

void writeSegFile(const LabelMap& labels, const LabelTable& table, const std::vector<std::uint8_t>& values,
                  const std::string& path, const LabelExportOptions& options) {
    std::vector<SegmentInfo> segments;
    for (auto v : values) {
        SegmentInfo s;
        s.label = v;
        s.name = table.nameOf(v);
        s.rgb = table.colourOf(v);
        segments.push_back(s);
    }
    writeDicomSeg(labels, options.sourceSliceFiles, segments, path);
}

void readSegFile(const std::string& path, const Geometry& reference, LabelFileContents& out) {
    SegImport seg = readDicomSeg(path, reference);
    out.labels = std::move(seg.labels);
    for (const SegmentInfo& s : seg.segments) {
        LabelInfo& info = out.table.ensure(s.label);
        if (!s.name.empty()) info.name = s.name;
        info.rgb = s.rgb;
    }
}

void writeSurfaces(const LabelMap& labels, const LabelTable& table, const std::vector<std::uint8_t>& values,
                   const std::string& path, const LabelExportOptions& options) {
    std::vector<NamedSurface> surfaces;
    try {
        surfaces = buildLabelSurfaces(labels, table, values, {}, options.progress);
    } catch (const IoError& e) {
        throw IoError("cannot write " + path + ": " + e.what());  // the builder does not know the file
    }
    writeSurfaceFile(surfaces, path, options.ras);
}

}  // namespace lucent::io
