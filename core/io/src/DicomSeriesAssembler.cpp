/// @brief From per-frame headers to sorted, checked series: grouping, ordering, spacing, gaps.
#include "lucent/io/DicomRecords.h"

#include "DicomEchoSplit.h"
#include "DicomTemporalSplit.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/GeometryCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace lucent::io {

namespace {

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

/// Frames that can share one volume grid: same image size and orientation (to 1e-3).
std::string gridKey(const DicomFrameHeader& f) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%dx%d|%.3f,%.3f,%.3f,%.3f,%.3f,%.3f|%d", f.columns, f.rows, f.rowCosine.x + 0.0,
                  f.rowCosine.y + 0.0, f.rowCosine.z + 0.0, f.columnCosine.x + 0.0, f.columnCosine.y + 0.0,
                  f.columnCosine.z + 0.0, f.hasPosition ? 1 : 0);
    return buf;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void describe(DicomSeries& s, const DicomFrameHeader& f) {
    s.info.uid = f.seriesUid;
    s.info.patientName = f.patientName;
    s.info.patientId = f.patientId;
    s.info.studyDescription = f.studyDescription;
    s.info.studyUid = f.studyUid;
    s.info.studyDate = f.studyDate;
    s.info.accessionNumber = f.accessionNumber;
    s.info.modality = f.modality;
    s.info.description = f.seriesDescription;
    s.info.seriesNumber = f.seriesNumber;
    s.bitsAllocated = f.bitsAllocated;
    s.bitsStored = f.bitsStored;
    s.highBit = f.highBit;
    s.pixelRepresentation = f.pixelRepresentation;
}

/// The window list most slices carry (CT series often vary the window per slice a little, or give
/// a few slices none); on a tie the list met first along the normal wins. Empty when none has one.
std::vector<NamedWindow> commonWindows(const std::vector<DicomFrameHeader>& frames) {
    std::vector<std::pair<const std::vector<NamedWindow>*, int>> counts;
    for (const auto& f : frames) {
        if (f.windows.empty()) continue;
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return *c.first == f.windows; });
        if (it == counts.end()) counts.emplace_back(&f.windows, 1);
        else ++it->second;
        if (counts.size() > 64) break;  // varies per slice: the lists seen so far are enough to choose
    }
    if (counts.empty()) return {};
    // max_element keeps the first of equal counts: the list met first along the normal.
    return *std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
                ->first;
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string text(Vec3 v) { return format("(%.6g, %.6g, %.6g)", v.x, v.y, v.z); }

/// Header values that cannot be used (not finite, zero, parallel) are treated as absent, with a
/// warning naming the file: sorting on NaN positions or a zero normal would scramble the slices.
void dropUnusableTags(std::vector<DicomFrameHeader>& frames, std::vector<std::string>& warn) {
    const DicomFrameHeader& f0 = frames.front();
    const Vec3 row = f0.rowCosine, col = f0.columnCosine;
    if (f0.hasOrientation && !(finite(row) && finite(col) && norm(cross(row, col)) > 1e-3)) {
        warn.push_back(printable(f0.file) + ": ImageOrientationPatient " + text(row) + " " + text(col) +
                       " is not two independent directions: treated as absent");
        for (auto& f : frames) {
            f.hasOrientation = false;
            f.rowCosine = {1, 0, 0};
            f.columnCosine = {0, 1, 0};
        }
    }
    const auto bad = std::find_if(frames.begin(), frames.end(),
                                  [](const DicomFrameHeader& f) { return f.hasPosition && !finite(f.position); });
    if (bad != frames.end()) {
        warn.push_back(printable(bad->file) + ": ImagePositionPatient " + text(bad->position) +
                       " is not finite: positions treated as absent");
        for (auto& f : frames) f.hasPosition = false;
    }
    if (f0.hasPixelSpacing && !(std::isfinite(f0.rowSpacing) && std::isfinite(f0.columnSpacing) && f0.rowSpacing > 0 &&
                                f0.columnSpacing > 0)) {
        warn.push_back(printable(f0.file) + ": PixelSpacing " + format("%.6g\\%.6g", f0.rowSpacing, f0.columnSpacing) +
                       " is not positive: treated as absent");
        for (auto& f : frames) {
            f.hasPixelSpacing = false;
            f.rowSpacing = f.columnSpacing = 1.0;
        }
    }
}

/// A multi-temporal series keeps its first time frame in `frames` and returns the others; one
/// volume returns none. Its warnings (and why it cannot load, if so) go to `s`.
std::vector<std::vector<DicomFrameHeader>> takeTimeFrames(std::vector<DicomFrameHeader>& frames, Vec3 normal,
                                                          DicomSeries& s) {
    TemporalSplit split = splitTimeFrames(frames, normal);
    if (!split.temporal) return {};
    s.info.warnings.insert(s.info.warnings.end(), split.warnings.begin(), split.warnings.end());
    if (split.frames.empty()) {
        s.unloadableReason = split.unloadableReason;  // listed with its geometry, loads nothing
        return {};
    }
    frames = std::move(split.frames.front());
    split.frames.erase(split.frames.begin());
    return std::move(split.frames);
}

/// Sorts the frames along the slice normal (InstanceNumber without positions, with a warning).
void sortAlongNormal(std::vector<DicomFrameHeader>& frames, const DicomFrameHeader& first, Vec3 normal,
                     std::vector<std::string>& warn) {
    auto along = [&](const DicomFrameHeader& f) { return dot(f.position, normal); };
    if (first.hasPosition) {
        std::stable_sort(frames.begin(), frames.end(), [&](const auto& a, const auto& b) {
            const double da = along(a), db = along(b);
            if (std::abs(da - db) > 1e-4) return da < db;
            return std::tie(a.instanceNumber, a.file, a.frame) < std::tie(b.instanceNumber, b.file, b.frame);
        });
    } else {
        std::stable_sort(frames.begin(), frames.end(), [](const auto& a, const auto& b) {
            return std::tie(a.instanceNumber, a.file, a.frame) < std::tie(b.instanceNumber, b.file, b.frame);
        });
        warn.push_back("no ImagePositionPatient: slices ordered by InstanceNumber");
    }
    if (std::any_of(frames.begin(), frames.end(), [](const auto& f) { return f.positionDerived; }))
        warn.push_back(format("multi-frame image without per-frame positions: frames stacked along the slice normal "
                              "every %.4g mm (from SpacingBetweenSlices or SliceThickness)",
                              first.spacingBetweenSlices > 0 ? first.spacingBetweenSlices : first.sliceThickness));
}

/// The sorted frames without duplicates: two frames at the same position (within 0.01 mm) keep the first.
std::vector<DicomFrameHeader> dropRepeatedPositions(std::vector<DicomFrameHeader>& frames, bool hasPosition,
                                                    Vec3 normal, std::vector<std::string>& warn) {
    std::vector<DicomFrameHeader> unique;
    std::vector<std::string> dropped;
    for (auto& f : frames) {
        if (hasPosition && !unique.empty() &&
            std::abs(dot(f.position, normal) - dot(unique.back().position, normal)) < 0.01) {
            std::string name = f.file;
            if (f.framesInFile > 1) name.append(" frame ").append(std::to_string(f.frame));
            dropped.push_back(std::move(name));
            continue;
        }
        unique.push_back(std::move(f));
    }
    if (!dropped.empty()) {
        std::string w = std::to_string(dropped.size()) + " slice(s) at an already used position dropped (the first "
                        "of each position was kept): ";
        for (std::size_t i = 0; i < dropped.size() && i < 5; ++i) w += (i ? ", " : "") + dropped[i];
        if (dropped.size() > 5) w += ", ...";
        warn.push_back(w);
    }
    return unique;
}

DicomSlice sliceOf(const DicomFrameHeader& f) { return DicomSlice{f.file, f.frame, false, f.slope, f.intercept}; }

/// What the positions say beyond the spacing: a sheared stack (gantry tilt), a SpacingBetweenSlices
/// that disagrees with them.
void checkPositions(const std::vector<DicomFrameHeader>& unique, const DicomFrameHeader& first, Vec3 normal,
                    double sliceSpacing, std::vector<std::string>& warn) {
    const double extent = dot(unique.back().position, normal) - dot(unique.front().position, normal);
    // A sheared stack (gantry tilt): positions drift within the slice plane.
    const Vec3 offset = unique.back().position - unique.front().position;
    const Vec3 inPlane = offset - normal * dot(offset, normal);
    // Rounding in real headers drifts by hundredths of a mm; a quarter voxel is worth a word.
    if (norm(inPlane) > 0.25 * std::min(first.rowSpacing, first.columnSpacing) && extent > 0) {
        const double tilt = std::atan2(norm(inPlane), extent) * 180.0 / 3.14159265358979;
        warn.push_back(format("slices are sheared (gantry tilt about %.3g degrees): the volume uses the slice "
                              "normal as its third axis, so the last slice is off by %.3g mm in its plane",
                              tilt, norm(inPlane)));
    }
    if (std::abs(first.spacingBetweenSlices) > 0 && std::abs(first.spacingBetweenSlices - sliceSpacing) > 0.01)
        warn.push_back(format("SpacingBetweenSlices says %.4g mm but the slice positions are %.4g mm apart: "
                              "the positions were used",
                              first.spacingBetweenSlices, sliceSpacing));
}

/// The slice list of positioned frames, with fillers where whole slices are missing; returns the
/// slice spacing the positions give.
double positionedSlices(DicomSeries& s, const std::vector<DicomFrameHeader>& unique, const DicomFrameHeader& first,
                        Vec3 normal) {
    auto& warn = s.info.warnings;
    auto along = [&](const DicomFrameHeader& f) { return dot(f.position, normal); };
    std::vector<double> steps;
    for (std::size_t i = 1; i < unique.size(); ++i) steps.push_back(along(unique[i]) - along(unique[i - 1]));
    const double nominal = median(steps);
    int filled = 0;
    bool irregular = false;
    double minStep = steps[0], maxStep = steps[0];
    for (std::size_t i = 1; i < unique.size(); ++i) {
        const double r = steps[i - 1] / nominal;
        const long whole = std::lround(r);
        if (r > 1.5 && std::abs(r - double(whole)) < 0.15) {
            for (long m = 1; m < whole; ++m) s.slices.push_back({{}, 0, true, 1.0, 0.0});
            filled += int(whole - 1);
            warn.push_back(format("missing slice(s): a gap of %.4g mm between positions %.4g and %.4g mm along "
                                  "the normal; filled with the lowest value",
                                  steps[i - 1], along(unique[i - 1]), along(unique[i])));
        } else if (std::abs(r - 1.0) > 0.05) {
            irregular = true;
        }
        minStep = std::min(minStep, steps[i - 1]);
        maxStep = std::max(maxStep, steps[i - 1]);
        s.slices.push_back(sliceOf(unique[i]));
    }
    double sliceSpacing = (along(unique.back()) - along(unique.front())) / double(s.slices.size() - 1);
    if (irregular)
        warn.push_back(format("non-uniform slice spacing (steps from %.4g to %.4g mm): the volume uses the mean "
                              "spacing %.4g mm, so slice positions are approximate",
                              minStep, maxStep, sliceSpacing));
    if (filled > 0 && !irregular) sliceSpacing = nominal;
    checkPositions(unique, first, normal, sliceSpacing, warn);
    return sliceSpacing;
}

/// Files, transfer syntaxes, windows, and whether this build can decode the series.
void describeContents(DicomSeries& s, const std::vector<DicomFrameHeader>& unique, const DicomFrameHeader& first) {
    auto& warn = s.info.warnings;
    s.info.frames = static_cast<int>(unique.size());
    std::set<std::string> seenFiles;
    for (const auto& sl : s.slices)
        if (!sl.filler && seenFiles.insert(sl.file).second) s.info.files.push_back(sl.file);
    std::set<std::string> syntaxes;
    for (const auto& f : unique) syntaxes.insert(f.transferSyntaxName);
    s.info.transferSyntax = first.transferSyntaxName;
    s.info.transferSyntaxUid = first.transferSyntaxUid;
    if (syntaxes.size() > 1) {
        std::string all;
        for (const auto& t : syntaxes) all += (all.empty() ? "" : ", ") + t;
        s.info.transferSyntax = "mixed: " + all;
    }
    s.info.windows = commonWindows(unique);
    for (const auto& f : unique) {
        if (!f.transferSyntaxSupported) {
            s.unloadableReason = f.file + ": transfer syntax " + f.transferSyntaxName + " (" + f.transferSyntaxUid +
                                 ") is not supported by this build's DCMTK";
            break;
        }
    }
    if (first.samplesPerPixel != 1 || (first.photometric.rfind("MONOCHROME", 0) != 0))
        s.unloadableReason =
            first.file + ": " + printable(first.photometric) + " colour images are not grey-scale volumes";
    if (first.bitsAllocated != 8 && first.bitsAllocated != 16)
        s.unloadableReason = first.file + ": BitsAllocated " + std::to_string(first.bitsAllocated) +
                             " is not supported (8 and 16 are)";
    if (!s.unloadableReason.empty()) warn.push_back("cannot be loaded: " + s.unloadableReason);
    if (first.photometric == "MONOCHROME1")
        warn.push_back("MONOCHROME1: stored values kept (low values are displayed bright by the modality)");
}

/// Orders one grid-consistent group and builds its geometry.
DicomSeries buildVolume(std::vector<DicomFrameHeader> frames) {
    DicomSeries s;
    auto& warn = s.info.warnings;
    dropUnusableTags(frames, warn);
    const DicomFrameHeader first = frames.front();  // a copy: frames are moved from below
    describe(s, first);
    const Vec3 normal = normalized(cross(first.rowCosine, first.columnCosine));
    if (!first.hasOrientation) warn.push_back("no ImageOrientationPatient: axial orientation assumed");
    if (!first.hasPixelSpacing) warn.push_back("no PixelSpacing: 1 mm pixels assumed");
    // Time frames 1.. of a multi-temporal series; `frames` keeps frame 0, built below as one volume.
    auto later = first.hasPosition ? takeTimeFrames(frames, normal, s) : std::vector<std::vector<DicomFrameHeader>>{};
    sortAlongNormal(frames, first, normal, warn);
    const std::vector<DicomFrameHeader> unique = dropRepeatedPositions(frames, first.hasPosition, normal, warn);

    Geometry& g = s.info.geometry;
    g.dims = {first.columns, first.rows, 1};
    g.spacing = {first.columnSpacing, first.rowSpacing, 1.0};
    g.direction = Mat3::fromColumns(first.rowCosine, first.columnCosine, normal);
    g.origin = unique.front().position;
    double sliceSpacing = first.spacingBetweenSlices > 0 ? first.spacingBetweenSlices
                                                         : (first.sliceThickness > 0 ? first.sliceThickness : 1.0);
    s.slices.push_back(sliceOf(unique.front()));
    if (unique.size() > 1 && first.hasPosition)
        sliceSpacing = positionedSlices(s, unique, first, normal);
    else
        for (std::size_t i = 1; i < unique.size(); ++i) s.slices.push_back(sliceOf(unique[i]));
    g.dims[2] = static_cast<int>(s.slices.size());
    attachTimeFrames(s, std::move(later), normal);
    g.spacing.z = sliceSpacing > 0 ? sliceSpacing : 1.0;
    try {
        checkGeometry(g, first.file, warn);  // the same sanity as every volume file
    } catch (const IoError& e) {
        s.unloadableReason = e.what();
    }
    describeContents(s, unique, first);
    return s;
}

}  // namespace

std::vector<DicomSeries> assembleDicomSeries(std::vector<DicomFrameHeader> frames) {
    // Series in order of their first file; frames of a series keep their scan order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<DicomFrameHeader>> bySeries;
    for (auto& f : frames) {
        auto& list = bySeries[f.seriesUid];
        if (list.empty()) order.push_back(f.seriesUid);
        list.push_back(std::move(f));
    }
    std::vector<DicomSeries> out;
    for (const auto& uid : order) {
        auto& list = bySeries[uid];
        std::vector<std::string> keyOrder;
        std::map<std::string, std::vector<DicomFrameHeader>> groups;
        for (auto& f : list) {
            auto& g = groups[gridKey(f)];
            if (g.empty()) keyOrder.push_back(gridKey(f));
            g.push_back(std::move(f));
        }
        // Largest part first, so "#1" is the main volume of a series with a few localisers.
        std::stable_sort(keyOrder.begin(), keyOrder.end(),
                         [&](const auto& a, const auto& b) { return groups[a].size() > groups[b].size(); });
        for (std::size_t p = 0; p < keyOrder.size(); ++p) {
            std::vector<EchoPart> echoes = splitEchoes(groups[keyOrder[p]]);
            for (EchoPart& echo : echoes) {
                DicomSeries s = buildVolume(std::move(echo.images));
                s.info.id = uid;
                if (keyOrder.size() > 1) {
                    s.info.id = uid + "#" + std::to_string(p + 1);
                    s.info.warnings.insert(
                        s.info.warnings.begin(),
                        "series is not one volume: its images differ in orientation or size (localiser or projection "
                        "images?), so it was split into " + std::to_string(keyOrder.size()) + " volumes; this is part " +
                            std::to_string(p + 1) + " with " + std::to_string(s.info.frames) + " image(s)");
                }
                if (echoes.size() > 1) {
                    // Echoes are different contrasts of the same slices: volumes of their own, not time.
                    s.info.id += "#e" + std::to_string(echo.label);
                    const std::string name = echoName(echo);
                    s.info.description += (s.info.description.empty() ? "" : " ") + ("(" + name + ")");
                    s.info.warnings.insert(s.info.warnings.begin(),
                                           "multi-echo series: its images repeat every position once per echo, so "
                                           "each of its " + std::to_string(echoes.size()) +
                                               " echoes is a volume of its own; this is " + name);
                }
                out.push_back(std::move(s));
            }
        }
    }
    return out;
}

}  // namespace lucent::io
