/// @brief MetaImage codec. TransformMatrix lists the i-axis direction first, then j, then k (as ITK writes it).
#include "lucent/io/MetaImageFormat.h"

#include "HeaderFields.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"

#include <cstdio>
#include <filesystem>
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

}  // namespace

RawImage MetaImageFormat::read(const std::string& path) {
    const std::vector<char> file = readFile(path);
    std::map<std::string, std::string> fields;
    std::size_t pos = 0;
    std::string dataFile;
    while (pos < file.size()) {
        std::size_t end = pos;
        while (end < file.size() && file[end] != '\n') ++end;
        const std::string line(file.data() + pos, end - pos);
        pos = end + 1;
        const auto eq = line.find('=');
        if (eq == std::string::npos) {
            if (trim(line).empty()) continue;
            throw IoError(path + ": not a MetaImage header (line '" + line.substr(0, 60) + "')");
        }
        const std::string key = trim(line.substr(0, eq));
        fields[key] = trim(line.substr(eq + 1));
        if (key == "ElementDataFile") {  // always the last field; inline data follows it
            dataFile = fields[key];
            break;
        }
    }
    if (dataFile.empty()) throw IoError(path + ": MetaImage header has no ElementDataFile");
    auto get = [&](const std::string& k) { return fields.count(k) ? fields[k] : std::string(); };

    const int ndims = std::stoi(get("NDims").empty() ? "0" : get("NDims"));
    if (ndims < 2 || ndims > 4) throw IoError(path + ": NDims " + std::to_string(ndims) + " not supported (2 to 4)");
    if (!get("ElementNumberOfChannels").empty() && get("ElementNumberOfChannels") != "1")
        throw IoError(path + ": multi-channel MetaImage (ElementNumberOfChannels " + get("ElementNumberOfChannels") +
                      ") is not a scalar volume");
    RawImage img;
    const auto typeIt = kTypes.find(get("ElementType"));
    if (typeIt == kTypes.end()) throw IoError(path + ": unsupported ElementType '" + get("ElementType") + "'");
    img.type = typeIt->second;

    const auto dims = parseNumbers(get("DimSize"), path, "DimSize", ndims);
    const int spatial = std::min(ndims, 3);
    for (int a = 0; a < 3; ++a) img.geometry.dims[a] = a < spatial ? static_cast<int>(dims[a]) : 1;
    img.frames = ndims == 4 ? static_cast<int>(dims[3]) : 1;
    std::string spacingKey = get("ElementSpacing").empty() ? "ElementSize" : "ElementSpacing";
    if (!get(spacingKey).empty()) {
        const auto sp = parseNumbers(get(spacingKey), path, spacingKey, spatial);
        for (int a = 0; a < spatial; ++a) img.geometry.spacing[a] = sp[a];
    }
    for (const char* k : {"Offset", "Origin", "Position"}) {
        if (get(k).empty()) continue;
        const auto o = parseNumbers(get(k), path, k, spatial);
        for (int a = 0; a < spatial; ++a) img.geometry.origin[a] = o[a];
        break;
    }
    for (const char* k : {"TransformMatrix", "Rotation", "Orientation"}) {
        if (get(k).empty()) continue;
        const auto m = parseNumbers(get(k), path, k, static_cast<std::size_t>(spatial * spatial));
        for (int c = 0; c < spatial; ++c)
            for (int r = 0; r < spatial; ++r) img.geometry.direction.col[c][r] = m[c * spatial + r];
        break;
    }
    const bool msb = isTrue(get("BinaryDataByteOrderMSB")) || isTrue(get("ElementByteOrderMSB"));
    const bool compressed = isTrue(get("CompressedData"));

    std::vector<char> payload;
    if (dataFile == "LOCAL") {
        payload.assign(file.begin() + static_cast<std::ptrdiff_t>(std::min(pos, file.size())), file.end());
    } else {
        if (dataFile.find('%') != std::string::npos || dataFile == "LIST")
            throw IoError(path + ": MetaImage slice lists (ElementDataFile " + dataFile + ") are not supported");
        const auto dataPath = (std::filesystem::path(path).parent_path() / dataFile).string();
        payload = readFile(dataPath);
        const std::string headerSize = get("HeaderSize");
        if (!headerSize.empty() && std::stol(headerSize) > 0)
            payload.erase(payload.begin(), payload.begin() + std::min<long>(std::stol(headerSize), long(payload.size())));
    }
    if (compressed) payload = inflateBuffer({payload.data(), payload.size()}, path);
    const std::size_t need = img.frameBytes() * img.frames;
    if (payload.size() < need)
        throw IoError(path + ": truncated voxel data (" + std::to_string(payload.size()) + " bytes, " +
                      std::to_string(need) + " expected)");
    payload.resize(need);
    img.bytes = std::move(payload);
    if (msb) swapBytes(img.bytes.data(), img.geometry.voxelCount() * img.frames, scalarSize(img.type));
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
    const std::string_view data(image.bytes.data(), image.bytes.size());
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
