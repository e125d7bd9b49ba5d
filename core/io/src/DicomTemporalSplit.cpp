/// @brief Time frames of a multi-temporal series: which tag tells them apart, grouping, complete frames only.
#include "DicomTemporalSplit.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace lucent::io {

namespace {

/// mm along the normal within which two images share a position: the assembler's duplicate rule.
constexpr double kSamePosition = 0.01;

/// A header value that may tell time points apart.
struct TimeKey {
    const char* name;
    bool (*has)(const DicomFrameHeader&);
    double (*value)(const DicomFrameHeader&);
};

/// In the order of preference: the standard's own time index, then the cardiac phase time, then
/// the acquisition (dynamic series repeat the acquisition once per time point).
const TimeKey kKeys[] = {
    {"TemporalPositionIdentifier", [](const DicomFrameHeader& f) { return f.hasTemporalPosition; },
     [](const DicomFrameHeader& f) { return double(f.temporalPosition); }},
    {"TriggerTime", [](const DicomFrameHeader& f) { return f.hasTriggerTime; },
     [](const DicomFrameHeader& f) { return f.triggerTime; }},
    {"AcquisitionNumber", [](const DicomFrameHeader& f) { return f.hasAcquisitionNumber; },
     [](const DicomFrameHeader& f) { return double(f.acquisitionNumber); }},
};

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

/// The images grouped by position along the normal, in ascending order.
struct Positions {
    std::vector<std::vector<std::size_t>> members;  ///< image indices per position
    std::vector<double> along;                      ///< mm along the normal, per position
    std::vector<std::size_t> of;                    ///< position of each image
    std::size_t most = 0;                           ///< the most images at one position
    bool even = true;                               ///< every position has `most` images
};

Positions positionsOf(const std::vector<DicomFrameHeader>& images, Vec3 normal) {
    std::vector<double> along(images.size());
    for (std::size_t i = 0; i < images.size(); ++i) along[i] = dot(images[i].position, normal);
    std::vector<std::size_t> order(images.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return along[a] < along[b]; });
    Positions p;
    p.of.resize(images.size());
    for (std::size_t i : order) {
        if (p.members.empty() || along[i] - p.along.back() >= kSamePosition) {
            p.members.emplace_back();
            p.along.push_back(along[i]);
        }
        p.members.back().push_back(i);
        p.of[i] = p.members.size() - 1;
    }
    for (const auto& m : p.members) p.most = std::max(p.most, m.size());
    for (const auto& m : p.members) p.even = p.even && m.size() == p.most;
    return p;
}

/// Every image carries `key`, and at each position the images' values differ.
bool separates(const TimeKey& key, const std::vector<DicomFrameHeader>& images, const Positions& p) {
    if (!std::all_of(images.begin(), images.end(), key.has)) return false;
    for (const auto& m : p.members) {
        std::vector<double> values;
        for (std::size_t i : m) values.push_back(key.value(images[i]));
        std::sort(values.begin(), values.end());
        if (std::adjacent_find(values.begin(), values.end()) != values.end()) return false;
    }
    return true;
}

/// No position holds one SOP instance twice (a folder copied into itself holds duplicates, not time).
bool distinctInstances(const std::vector<DicomFrameHeader>& images, const Positions& p) {
    for (const auto& m : p.members) {
        std::set<std::pair<std::string, int>> seen;
        for (std::size_t i : m) {
            const auto& f = images[i];
            if (!seen.emplace(f.sopInstanceUid.empty() ? f.file : f.sopInstanceUid, f.frame).second) return false;
        }
    }
    return true;
}

/// Frame r takes the r-th image of every position, ordered by `key` (when given), then InstanceNumber.
std::vector<std::vector<std::size_t>> byRank(const std::vector<DicomFrameHeader>& images, const Positions& p,
                                             const TimeKey* key) {
    std::vector<std::vector<std::size_t>> groups(p.most);
    for (auto m : p.members) {
        std::stable_sort(m.begin(), m.end(), [&](std::size_t a, std::size_t b) {
            const auto& x = images[a];
            const auto& y = images[b];
            const double kx = key ? key->value(x) : 0.0, ky = key ? key->value(y) : 0.0;
            return std::tie(kx, x.instanceNumber, x.file, x.frame) < std::tie(ky, y.instanceNumber, y.file, y.frame);
        });
        for (std::size_t r = 0; r < m.size(); ++r) groups[r].push_back(m[r]);
    }
    return groups;
}

/// "7.5, 10 mm": where a frame has no image (at most five named).
std::string missingPositions(const std::vector<std::size_t>& group, const Positions& p) {
    std::vector<bool> present(p.members.size(), false);
    for (std::size_t i : group) present[p.of[i]] = true;
    std::string text;
    int named = 0, missing = 0;
    for (std::size_t k = 0; k < present.size(); ++k) {
        if (present[k]) continue;
        if (++missing <= 5)
            text += (named++ ? ", " : "") + number(p.along[k]);
        else if (missing == 6)
            text += ", ...";
    }
    return std::to_string(missing) + " of the " + std::to_string(p.members.size()) + " positions (" + text +
           " mm along the slice normal)";
}

}  // namespace

TemporalSplit splitTimeFrames(const std::vector<DicomFrameHeader>& all, Vec3 normal) {
    TemporalSplit out;
    if (all.size() < 2 || !all.front().hasPosition) return out;
    // A file found twice (a copy beside the original) is one image: the same SOP instance cannot
    // be two time points, and left in, it would hide the time tags' pattern.
    std::vector<DicomFrameHeader> images;
    std::set<std::pair<std::string, int>> instances;
    for (const auto& f : all)
        if (f.sopInstanceUid.empty() || instances.emplace(f.sopInstanceUid, f.frame).second) images.push_back(f);
    const std::size_t copies = all.size() - images.size();
    const Positions p = positionsOf(images, normal);
    if (p.most < 2) return out;  // no position repeats: one volume

    // The groups, and a name for each frame in messages.
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::string> names;
    for (const TimeKey& key : kKeys) {
        if (!separates(key, images, p)) continue;
        std::map<double, std::vector<std::size_t>> byValue;
        for (std::size_t i = 0; i < images.size(); ++i) byValue[key.value(images[i])].push_back(i);
        if (byValue.size() == p.most) {
            for (auto& [value, group] : byValue) {
                names.push_back(std::string(key.name) + " " + number(value));
                groups.push_back(std::move(group));
            }
            out.key = key.name;
        } else if (p.even) {
            // Trigger times measured slice by slice: the i-th time at each position is phase i.
            groups = byRank(images, p, &key);
            out.key = std::string(key.name) + " (in order at each position: the values vary from slice to slice)";
        } else {
            continue;  // as many values as images (per-slice numbers): says nothing about time
        }
        break;
    }
    if (groups.empty()) {
        // Nothing tells them apart: k distinct images at every position are k frames, in the order
        // the scanner numbered them; anything else stays one volume whose repeats are duplicates.
        if (!p.even || !distinctInstances(images, p)) return out;
        groups = byRank(images, p, nullptr);
        out.key = "InstanceNumber order (no TemporalPositionIdentifier, TriggerTime or AcquisitionNumber differs)";
    }
    out.temporal = true;
    if (copies > 0)
        out.warnings.push_back(std::to_string(copies) +
                               " image(s) repeating an SOP instance already read were dropped");
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].size() != p.members.size()) {
            const std::string name = std::to_string(g + 1) + " of " + std::to_string(groups.size()) +
                                     (names.empty() ? std::string() : " (" + names[g] + ")");
            out.warnings.push_back("time frame " + name + " has no image at " + missingPositions(groups[g], p) +
                                   ": that frame is left out, the complete ones are loaded");
            continue;
        }
        std::vector<DicomFrameHeader> frame;
        for (std::size_t i : groups[g]) frame.push_back(images[i]);
        out.frames.push_back(std::move(frame));
    }
    const int stated = images.front().temporalPositions;
    if (stated > 0 && std::size_t(stated) != groups.size())
        out.warnings.push_back("NumberOfTemporalPositions says " + std::to_string(stated) + ", but " +
                               std::to_string(groups.size()) + " time frames were found (by " + out.key + ")");
    const std::string slices = std::to_string(p.members.size());
    if (out.frames.empty())
        out.unloadableReason = "the slice positions repeat over " + std::to_string(groups.size()) +
                               " time frames (by " + out.key +
                               "), but not one of them has an image at every one of the " + slices + " positions";
    else if (out.frames.size() == 1)
        out.warnings.push_back("the slice positions repeat over time (by " + out.key +
                               "), but only one time frame is complete: it is loaded as the volume");
    else
        out.warnings.push_back("multi-temporal series: " + std::to_string(out.frames.size()) + " time frames of " +
                               slices + " slices on one grid, told apart by " + out.key + "; the first is used");
    return out;
}

void attachTimeFrames(DicomSeries& series, std::vector<std::vector<DicomFrameHeader>> later, Vec3 normal) {
    if (later.empty()) return;
    series.timeFrames.clear();
    series.timeFrames.push_back(series.slices);
    for (auto& frame : later) {
        std::stable_sort(frame.begin(), frame.end(), [&](const DicomFrameHeader& a, const DicomFrameHeader& b) {
            return dot(a.position, normal) < dot(b.position, normal);
        });
        // splitTimeFrames gives every frame the same positions, so frame 0's images map one to one.
        std::vector<DicomSlice> slices = series.slices;
        std::size_t next = 0;
        for (auto& slice : slices) {
            if (slice.filler || next >= frame.size()) continue;
            const DicomFrameHeader& f = frame[next++];
            slice = DicomSlice{f.file, f.frame, false, f.slope, f.intercept};
            if (!f.transferSyntaxSupported && series.unloadableReason.empty())
                series.unloadableReason = f.file + ": transfer syntax " + f.transferSyntaxName + " (" +
                                          f.transferSyntaxUid + ") is not supported by this build's DCMTK";
        }
        series.timeFrames.push_back(std::move(slices));
    }
    series.info.timeFrames = int(series.timeFrames.size());
}

}  // namespace lucent::io
