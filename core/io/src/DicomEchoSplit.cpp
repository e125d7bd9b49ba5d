/// @brief Splits one grid's images by echo (EchoNumbers, else EchoTime) when its positions repeat.
#include "DicomEchoSplit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace lucent::io {

namespace {

/// A position to 0.01 mm (the assembler's duplicate rule), as a key.
std::tuple<long long, long long, long long> positionKey(const DicomFrameHeader& f) {
    return {std::llround(f.position.x * 100), std::llround(f.position.y * 100), std::llround(f.position.z * 100)};
}

/// Echo times to a microsecond, as a key (values written with a few decimals must compare equal).
long long timeKey(double ms) { return std::llround(ms * 1000); }

}  // namespace

std::vector<EchoPart> splitEchoes(std::vector<DicomFrameHeader>& images) {
    std::vector<EchoPart> out;
    auto whole = [&] {
        out.assign(1, EchoPart{});
        out[0].images = std::move(images);
        return out;
    };
    if (images.size() < 2) return whole();
    const bool byNumber = std::all_of(images.begin(), images.end(), [](const auto& f) { return f.hasEchoNumber; });
    const bool byTime = std::all_of(images.begin(), images.end(), [](const auto& f) { return f.hasEchoTime; });
    if (!byNumber && !byTime) return whole();
    auto echoKey = [&](const DicomFrameHeader& f) { return byNumber ? (long long)f.echoNumber : timeKey(f.echoTime); };
    std::set<long long> keys;
    for (const auto& f : images) keys.insert(echoKey(f));
    if (keys.size() < 2) return whole();  // the common case: one echo
    std::set<std::tuple<long long, long long, long long>> positions;
    for (const auto& f : images) positions.insert(positionKey(f));
    const bool repeats = std::all_of(images.begin(), images.end(), [](const auto& f) { return f.hasPosition; }) &&
                         positions.size() < images.size();
    if (!repeats) return whole();
    std::map<long long, std::vector<DicomFrameHeader>> groups;
    for (auto& f : images) groups[echoKey(f)].push_back(std::move(f));
    int rank = 0;
    for (auto& [value, list] : groups) {
        EchoPart part;
        part.label = byNumber ? int(value) : ++rank;
        const long long first = list.front().hasEchoTime ? timeKey(list.front().echoTime) : -1;
        part.hasEchoTime = std::all_of(list.begin(), list.end(), [&](const auto& f) {
            return f.hasEchoTime && timeKey(f.echoTime) == first;
        });
        part.echoTime = part.hasEchoTime ? list.front().echoTime : 0.0;
        part.images = std::move(list);
        out.push_back(std::move(part));
    }
    images.clear();
    return out;
}

std::string echoName(const EchoPart& part) {
    char buf[64];
    if (part.hasEchoTime)
        std::snprintf(buf, sizeof buf, "echo %d, TE %g ms", part.label, part.echoTime);
    else
        std::snprintf(buf, sizeof buf, "echo %d", part.label);
    return buf;
}

}  // namespace lucent::io
