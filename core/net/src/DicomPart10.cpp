/// @brief Walks the group-2 elements of a Part 10 meta header (explicit VR little endian) for the instance UID.
#include "lucent/net/DicomPart10.h"

#include <cstdint>

namespace lucent::net {

namespace {

std::uint32_t little(std::string_view s, std::size_t at, int bytes) {
    std::uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
    return v;
}

/// VRs whose explicit little endian header has 2 reserved bytes and a 4-byte length (PS3.5 7.1.2).
bool longLength(std::string_view vr) {
    for (const char* v : {"OB", "OD", "OF", "OL", "OV", "OW", "SQ", "SV", "UC", "UN", "UR", "UT", "UV"})
        if (vr == v) return true;
    return false;
}

}  // namespace

bool isPart10(std::string_view head) { return head.size() >= kPart10PrefixBytes && head.substr(128, 4) == "DICM"; }

std::string part10InstanceUid(std::string_view file) {
    if (!isPart10(file)) return {};
    std::size_t at = kPart10PrefixBytes;
    while (at + 8 <= file.size() && little(file, at, 2) == 0x0002) {
        const std::uint32_t element = little(file, at + 2, 2);
        const std::string_view vr = file.substr(at + 4, 2);
        std::size_t header = 8;
        std::uint64_t length = little(file, at + 6, 2);
        if (longLength(vr)) {
            if (at + 12 > file.size()) return {};
            header = 12;
            length = little(file, at + 8, 4);
        }
        if (at + header + length > file.size()) return {};
        if (element == 0x0003) {
            std::string uid(file.substr(at + header, length));
            while (!uid.empty() && (uid.back() == '\0' || uid.back() == ' ')) uid.pop_back();
            return uid;
        }
        at += header + length;
    }
    return {};
}

}  // namespace lucent::net
