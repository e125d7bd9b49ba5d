/// @brief The file suffixes Lucent reads and writes, written once: the readers' and writers' format
/// choice, the CLI's usage and errors and the viewer's file dialogs all come from these lists.
#pragma once

#include <array>
#include <cctype>
#include <string>
#include <string_view>

namespace lucent::io {

/// Volume files Lucent reads (and lists in a folder).
inline constexpr std::array<std::string_view, 6> kVolumeReadSuffixes{".nii", ".nii.gz", ".mha", ".mhd", ".nrrd", ".nhdr"};
/// Volume files Lucent writes (convert, connectivity maps, memberships); detached NRRD is read only.
inline constexpr std::array<std::string_view, 5> kVolumeWriteSuffixes{".nii", ".nii.gz", ".mha", ".mhd", ".nrrd"};
/// Label files Lucent writes (segment, export, islands): the volume formats, DICOM SEG and surfaces.
inline constexpr std::array<std::string_view, 8> kLabelWriteSuffixes{".nii", ".nii.gz", ".mha", ".mhd",
                                                                     ".nrrd", ".dcm", ".stl", ".obj"};
/// Label files Lucent reads back (File > Import labels): the volume formats and DICOM SEG.
inline constexpr std::array<std::string_view, 6> kLabelReadSuffixes{".nii", ".nii.gz", ".mha", ".mhd", ".nrrd", ".dcm"};
/// Everything a data path may end in (File > Open): volume files, DICOM files, Slicer's
/// segmentations (".seg.nrrd", a longer form of ".nrrd" that names a data file's base name).
inline constexpr std::array<std::string_view, 8> kDataSuffixes{".nii", ".nii.gz", ".mha", ".mhd",
                                                               ".nrrd", ".nhdr", ".dcm", ".seg.nrrd"};
/// Surface files (one mesh; `{label}` in the name: one file per label).
inline constexpr std::array<std::string_view, 2> kSurfaceSuffixes{".stl", ".obj"};

/// Whether `path` ends in one of `suffixes`, ignoring case.
template <std::size_t N>
bool hasSuffix(std::string_view path, const std::array<std::string_view, N>& suffixes) {
    for (std::string_view s : suffixes) {
        if (path.size() < s.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < s.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(path[path.size() - s.size() + i])) == s[i];
        if (same) return true;
    }
    return false;
}

/// The longest of `suffixes` that `path` ends in, ignoring case; empty when none does.
template <std::size_t N>
std::string_view longestSuffix(std::string_view path, const std::array<std::string_view, N>& suffixes) {
    std::string_view best;
    for (std::string_view s : suffixes)
        if (s.size() > best.size() && hasSuffix(path, std::array<std::string_view, 1>{s})) best = s;
    return best;
}

/// "*.nii *.nii.gz *.mha": a file dialog's pattern.
template <std::size_t N>
std::string globPattern(const std::array<std::string_view, N>& suffixes) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += std::string(i ? " *" : "*") + std::string(suffixes[i]);
    return out;
}

/// "{nii,nii.gz,mha}": a list for a usage line.
template <std::size_t N>
std::string suffixPattern(const std::array<std::string_view, N>& suffixes) {
    std::string out = "{";
    for (std::size_t i = 0; i < N; ++i) out += std::string(i ? "," : "") + std::string(suffixes[i].substr(1));
    return out + "}";
}

/// ".nii, .nii.gz or .mha": a list for a sentence.
template <std::size_t N>
std::string suffixSentence(const std::array<std::string_view, N>& suffixes) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(suffixes[i]);
    return out;
}

}  // namespace lucent::io
