/// @brief MetaImage codec. TransformMatrix lists the i-axis direction first, then j, then k (as ITK writes it).
#include "lucent/io/MetaImageFormat.h"

#include "HeaderFields.h"
#include "VoxelRead.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ReadLimits.h"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

namespace lucent::io {

namespace {

const std::map<std::string, ScalarType> kTypes = {
    {"MET_UCHAR", ScalarType::UInt8},   {"MET_CHAR", ScalarType::Int8},    {"MET_USHORT", ScalarType::UInt16},
    {"MET_SHORT", ScalarType::Int16},   {"MET_UINT", ScalarType::UInt32},  {"MET_INT", ScalarType::Int32},
    {"MET_FLOAT", ScalarType::Float32}, {"MET_DOUBLE", ScalarType::Float64}};

const char* typeName(ScalarType t) {
    for (const auto& [name, type] : kTypes)
        if (type == t) return name.c_str();
    return "MET_UCHAR";
}

bool isTrue(const std::string& v) { return toLower(v) == "true" || v == "1"; }

/// The header's fields, the data file named by its last field, and where inline data starts.
struct MetaHeader {
    std::map<std::string, std::string> fields;
    std::string dataFile;
    std::size_t dataStart = 0;

    std::string get(const std::string& key) const {
        const auto it = fields.find(key);
        return it == fields.end() ? std::string() : it->second;
    }
};

/// The header's fields from `file` (a prefix of the file, `whole` when it is all of it); `complete`
/// false when the prefix ends before ElementDataFile's line does (read more and parse again).
MetaHeader parseHeader(std::string_view file, bool whole, const std::string& path, bool& complete) {
    MetaHeader h;
    complete = false;
    std::size_t pos = 0;
    while (pos < file.size()) {
        std::size_t end = file.find('\n', pos);
        if (end == std::string_view::npos) {
            if (!whole) return h;  // a line not seen to its end is not judged
            end = file.size();
        }
        const std::string line(file.substr(pos, end - pos));
        pos = end + 1;
        const auto eq = line.find('=');
        if (eq == std::string::npos) {
            if (trim(line).empty()) continue;
            throw IoError(path + ": not a MetaImage header (line '" + printable(line.substr(0, 60)) + "')");
        }
        const std::string key = trim(line.substr(0, eq));
        h.fields[key] = trim(line.substr(eq + 1));
        if (key == "ElementDataFile") {  // always the last field; inline data follows it
            h.dataFile = h.fields[key];
            break;
        }
    }
    if (h.dataFile.empty() && !whole) return h;
    complete = true;
    if (h.dataFile.empty()) throw IoError(path + ": MetaImage header has no ElementDataFile");
    h.dataStart = std::min(pos, file.size());
    return h;
}

/// Scalar type, sizes, spacing, origin and axes; returns the sizes (axes, then frames) for the size check.
std::vector<std::int64_t> readAxes(const MetaHeader& h, const std::string& path, RawImage& img) {
    const auto ndims = static_cast<int>(parseInteger(h.get("NDims"), path, "NDims", 0, 16, 0));
    if (ndims < 2 || ndims > 4) throw IoError(path + ": NDims " + std::to_string(ndims) + " not supported (2 to 4)");
    if (!h.get("ElementNumberOfChannels").empty() && h.get("ElementNumberOfChannels") != "1")
        throw IoError(path + ": multi-channel MetaImage (ElementNumberOfChannels " +
                      printable(h.get("ElementNumberOfChannels")) + ") is not a scalar volume");
    const auto typeIt = kTypes.find(h.get("ElementType"));
    if (typeIt == kTypes.end())
        throw IoError(path + ": unsupported ElementType '" + printable(h.get("ElementType")) + "'");
    img.type = typeIt->second;

    const auto dims = parseIntegers(h.get("DimSize"), path, "DimSize", ndims, 1, std::numeric_limits<int>::max());
    const int spatial = std::min(ndims, 3);
    Geometry& g = img.geometry;
    for (int a = 0; a < 3; ++a) g.dims[a] = a < spatial ? static_cast<int>(dims[a]) : 1;
    img.frames = ndims == 4 ? static_cast<int>(dims[3]) : 1;
    const std::string spacingKey = h.get("ElementSpacing").empty() ? "ElementSize" : "ElementSpacing";
    if (!h.get(spacingKey).empty()) {
        const auto sp = parseNumbers(h.get(spacingKey), path, spacingKey, spatial);
        for (int a = 0; a < spatial; ++a) g.spacing[a] = sp[a];
    }
    for (const char* k : {"Offset", "Origin", "Position"}) {
        if (h.get(k).empty()) continue;
        const auto o = parseNumbers(h.get(k), path, k, spatial);
        for (int a = 0; a < spatial; ++a) g.origin[a] = o[a];
        break;
    }
    for (const char* k : {"TransformMatrix", "Rotation", "Orientation"}) {
        if (h.get(k).empty()) continue;
        const auto m = parseNumbers(h.get(k), path, k, static_cast<std::size_t>(spatial * spatial));
        for (int c = 0; c < spatial; ++c)
            for (int r = 0; r < spatial; ++r) g.direction.col[c][r] = m[c * spatial + r];
        break;
    }
    return {g.dims[0], g.dims[1], g.dims[2], img.frames};
}

/// Where the voxels are: inline or in the data file (after HeaderSize), compressed or not.
VoxelSource voxelSource(const MetaHeader& h, const std::string& path) {
    VoxelSource src;
    src.file = path;
    src.offset = h.dataStart;
    if (h.dataFile != "LOCAL") {
        if (h.dataFile.find('%') != std::string::npos || h.dataFile == "LIST")
            throw IoError(path + ": MetaImage slice lists (ElementDataFile " + printable(h.dataFile) +
                          ") are not supported");
        src.file = dataFilePath(path, h.dataFile);
        src.offset = 0;
    }
    src.compressed = isTrue(h.get("CompressedData"));
    // HeaderSize -1: the voxels are the last bytes of the data file.
    const std::int64_t headerSize =
        parseInteger(h.get("HeaderSize"), path, "HeaderSize", -1, std::numeric_limits<std::int64_t>::max(), 0);
    if (h.dataFile != "LOCAL" && headerSize == -1 && !src.compressed)
        src.atEnd = true;
    else if (h.dataFile != "LOCAL" && headerSize > 0)
        src.offset = std::uint64_t(headerSize);
    src.swapped = isTrue(h.get("BinaryDataByteOrderMSB")) || isTrue(h.get("ElementByteOrderMSB"));
    return src;
}

}  // namespace

RawImage MetaImageFormat::read(const std::string& path) {
    ByteFile file(path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage MetaImageFormat::parse(const std::vector<char>& bytes, const std::string& path) {
    ByteFile file({bytes.data(), bytes.size()}, path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage MetaImageFormat::readHeader(ByteFile& file) {
    const std::string& path = file.path();
    MetaHeader h;
    parseGrowingPrefix(file, [&](std::string_view bytes, bool whole) {
        bool complete = false;
        h = parseHeader(bytes, whole, path, complete);
        return complete;
    });
    RawImage img;
    // Sizes are checked (positive, no overflow, within memory) before anything is allocated.
    const auto sizes = readAxes(h, path, img);  // sets the type too: read before its size is used
    imageBytes(sizes, scalarSize(img.type), path);
    img.source = voxelSource(h, path);
    if (h.dataFile != "LOCAL") img.dataFiles.push_back(img.source.file);
    checkVoxelSource(img, img.frameBytes() * std::size_t(img.frames), file);
    return img;
}

void MetaImageFormat::write(const RawImage& image, const std::string& path) {
    const Geometry& g = image.geometry;
    const bool four = image.frames > 1;
    std::ostringstream h;
    h.precision(17);
    h << "ObjectType = Image\nNDims = " << (four ? 4 : 3) << "\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
      << "CompressedData = False\nTransformMatrix =";
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) h << ' ' << g.direction.col[c][r];
    h << (four ? " 0\n" : "\n");
    h << "Offset = " << g.origin.x << ' ' << g.origin.y << ' ' << g.origin.z << (four ? " 0" : "") << "\n";
    h << "AnatomicalOrientation = RAI\n";  // ITK's name for LPS coordinates
    h << "ElementSpacing = " << g.spacing.x << ' ' << g.spacing.y << ' ' << g.spacing.z << (four ? " 1" : "") << "\n";
    h << "DimSize = " << g.dims[0] << ' ' << g.dims[1] << ' ' << g.dims[2];
    if (four) h << ' ' << image.frames;
    h << "\nElementType = " << typeName(image.type) << "\n";
    if (image.slope != 1.0 || image.intercept != 0.0)
        throw IoError(path + ": MetaImage cannot store a rescale slope/intercept");
    const std::string_view data = image.voxelBytes();
    if (toLower(path).ends_with(".mhd")) {
        const auto rawPath = std::filesystem::path(path).replace_extension(".raw");
        writeFileAtomically(rawPath.string(), {data});
        h << "ElementDataFile = " << rawPath.filename().string() << "\n";
        const std::string header = h.str();
        writeFileAtomically(path, {header});
    } else {
        h << "ElementDataFile = LOCAL\n";
        const std::string header = h.str();
        writeFileAtomically(path, {header, data});
    }
}

}  // namespace lucent::io
