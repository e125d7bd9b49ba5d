/// @brief NRRD codec: header fields, space directions and origin, raw and gzip encodings.
#include "lucent/io/NrrdFormat.h"

#include "HeaderFields.h"
#include "VoxelRead.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ReadLimits.h"

#include <bit>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

namespace lucent::io {

namespace {

bool scalarFromName(std::string t, ScalarType& out) {
    static const std::map<std::string, ScalarType> names = {
        {"uchar", ScalarType::UInt8}, {"unsigned char", ScalarType::UInt8}, {"uint8", ScalarType::UInt8},
        {"uint8_t", ScalarType::UInt8}, {"signed char", ScalarType::Int8}, {"int8", ScalarType::Int8},
        {"int8_t", ScalarType::Int8}, {"short", ScalarType::Int16}, {"short int", ScalarType::Int16},
        {"signed short", ScalarType::Int16}, {"signed short int", ScalarType::Int16}, {"int16", ScalarType::Int16},
        {"int16_t", ScalarType::Int16}, {"ushort", ScalarType::UInt16}, {"unsigned short", ScalarType::UInt16},
        {"unsigned short int", ScalarType::UInt16}, {"uint16", ScalarType::UInt16}, {"uint16_t", ScalarType::UInt16},
        {"int", ScalarType::Int32}, {"signed int", ScalarType::Int32}, {"int32", ScalarType::Int32},
        {"int32_t", ScalarType::Int32}, {"uint", ScalarType::UInt32}, {"unsigned int", ScalarType::UInt32},
        {"uint32", ScalarType::UInt32}, {"uint32_t", ScalarType::UInt32}, {"float", ScalarType::Float32},
        {"double", ScalarType::Float64}};
    const auto it = names.find(toLower(t));
    if (it == names.end()) return false;
    out = it->second;
    return true;
}

const char* scalarName(ScalarType t) {
    switch (t) {
    case ScalarType::UInt8: return "uchar";
    case ScalarType::Int8: return "signed char";
    case ScalarType::UInt16: return "ushort";
    case ScalarType::Int16: return "short";
    case ScalarType::UInt32: return "uint";
    case ScalarType::Int32: return "int";
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
    }
    return "uchar";
}

/// "(1,0,0) (0,1,0) none" -> vectors; "none" gives an empty optional-like flag.
std::vector<std::pair<bool, Vec3>> parseVectors(const std::string& text, const std::string& path) {
    std::vector<std::pair<bool, Vec3>> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '(') {
            const auto close = text.find(')', i);
            if (close == std::string::npos) throw IoError(path + ": malformed vector in '" + printable(text) + "'");
            std::string inner = text.substr(i + 1, close - i - 1);
            for (char& c : inner)
                if (c == ',') c = ' ';
            const auto v = parseNumbers(inner, path, "space directions", 3);
            out.push_back({true, {v[0], v[1], v[2]}});
            i = close + 1;
        } else if (text.compare(i, 4, "none") == 0) {
            out.push_back({false, {}});
            i += 4;
        } else {
            ++i;
        }
    }
    return out;
}

/// The header's fields (keys lower case) and where the attached data starts.
struct NrrdHeader {
    std::map<std::string, std::string> fields;
    std::vector<std::pair<std::string, std::string>> keyValues;
    std::size_t dataStart = 0;

    std::string get(const std::string& key) const {
        const auto it = fields.find(key);
        return it == fields.end() ? std::string() : it->second;
    }
};

/// The header's fields from `file` (a prefix of the file, `whole` when it is all of it); `complete`
/// false when the prefix ends before the blank line that ends the header (read more, parse again).
NrrdHeader parseHeader(std::string_view file, bool whole, const std::string& path, bool& complete) {
    complete = false;
    if (file.size() < 4 && !whole) return {};
    if (file.size() < 4 || file.substr(0, 4) != "NRRD") throw IoError(path + ": not a NRRD file (no NRRD magic)");
    NrrdHeader h;
    std::size_t pos = 0;
    bool firstLine = true;
    while (pos < file.size()) {
        std::size_t end = file.find('\n', pos);
        if (end == std::string_view::npos) {
            if (!whole) return h;  // a line not seen to its end is not judged
            end = file.size();
        }
        std::string line(file.substr(pos, end - pos));
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (firstLine) {
            firstLine = false;
            continue;
        }
        if (line.empty()) break;  // the blank line ends the header; attached data follows
        if (line[0] == '#') continue;
        if (const auto kv = line.find(":="); kv != std::string::npos) {
            h.keyValues.emplace_back(line.substr(0, kv), line.substr(kv + 2));
            continue;
        }
        const auto colon = line.find(": ");
        if (colon == std::string::npos) continue;
        h.fields[toLower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 2));
    }
    complete = true;
    h.dataStart = std::min(pos, file.size());
    return h;
}

/// Fills the geometry and frame count from dimension, sizes, space directions / spacings and
/// origin; returns the sizes (spatial axes, then frames) for the size check.
std::vector<std::int64_t> readAxes(const NrrdHeader& h, const std::string& path, RawImage& img) {
    const auto dimension = static_cast<int>(parseInteger(h.get("dimension"), path, "dimension", 0, 16, 0));
    if (dimension < 2 || dimension > 4)
        throw IoError(path + ": NRRD dimension " + std::to_string(dimension) + " not supported (2 to 4)");
    const auto sizes = parseIntegers(h.get("sizes"), path, "sizes", dimension, 1, std::numeric_limits<int>::max());

    // Which axes are spatial: those with a space direction (or all the first three without one).
    std::vector<std::pair<bool, Vec3>> dirs;
    if (!h.get("space directions").empty()) dirs = parseVectors(h.get("space directions"), path);
    std::vector<int> spatialAxes;
    for (int a = 0; a < dimension; ++a)
        if (dirs.empty() ? a < 3 : (a < int(dirs.size()) && dirs[a].first)) spatialAxes.push_back(a);
    if (spatialAxes.size() > 3 || (dimension - spatialAxes.size()) > 1)
        throw IoError(path + ": NRRD axes not understood (" + printable(h.get("sizes")) + ")");
    for (std::size_t s = 0; s < spatialAxes.size(); ++s)
        if (spatialAxes[s] != int(s))
            throw IoError(path + ": NRRD with a leading non-spatial axis (vector data) is not a scalar volume");
    const std::string space = toLower(h.get("space"));
    const bool ras = space == "right-anterior-superior" || space == "ras" || space == "scanner-xyz";
    Geometry& g = img.geometry;
    for (std::size_t s = 0; s < spatialAxes.size(); ++s) {
        g.dims[s] = static_cast<int>(sizes[s]);
        if (dirs.empty()) continue;
        Vec3 v = dirs[s].second;
        if (ras) v = {-v.x, -v.y, v.z};
        // A zero vector stays zero (spacing 0): checkGeometry repairs it and says so.
        const double len = norm(v);
        g.spacing[s] = len;
        g.direction.col[s] = len > 0 ? v * (1.0 / len) : Vec3{};
    }
    for (std::size_t s = spatialAxes.size(); s < 3; ++s) g.dims[s] = 1;
    if (spatialAxes.size() == 2 && !dirs.empty())
        g.direction.col[2] = normalized(cross(g.direction.col[0], g.direction.col[1]));
    if (dirs.empty() && !h.get("spacings").empty()) {
        const auto sp = parseNumbers(h.get("spacings"), path, "spacings", spatialAxes.size());
        for (std::size_t s = 0; s < spatialAxes.size(); ++s) g.spacing[s] = sp[s];
    }
    if (!h.get("space origin").empty()) {
        const auto o = parseVectors(h.get("space origin"), path);
        if (!o.empty() && o[0].first)
            g.origin = ras ? Vec3{-o[0].second.x, -o[0].second.y, o[0].second.z} : o[0].second;
    }
    img.frames = dimension == 4 ? static_cast<int>(sizes[3]) : 1;
    return {g.dims[0], g.dims[1], g.dims[2], img.frames};
}

/// The detached data file's name ("data file" or its old spelling "datafile"); empty when attached.
std::string dataFileName(const NrrdHeader& h) {
    return h.get("data file").empty() ? h.get("datafile") : h.get("data file");
}

/// Where the voxels are: data file or attached data, line skip, encoding, byte skip.
VoxelSource voxelSource(const NrrdHeader& h, const std::string& path, std::size_t need) {
    const std::string encoding = toLower(h.get("encoding"));
    const bool gzip = encoding == "gzip" || encoding == "gz";
    if (!gzip && encoding != "raw")
        throw IoError(path + ": NRRD encoding '" + printable(encoding) + "' is not supported (raw and gzip are)");
    const std::int64_t lineSkip =
        parseInteger(h.get("line skip"), path, "line skip", 0, std::numeric_limits<std::int64_t>::max(), 0);
    const std::int64_t byteSkip =
        parseInteger(h.get("byte skip"), path, "byte skip", -1, std::numeric_limits<std::int64_t>::max(), 0);
    if (byteSkip == -1 && gzip)
        throw IoError(path + ": NRRD byte skip -1 needs raw encoding (the gzip stream has no known end)");
    // Skipped bytes of a gzip stream are inflated too: they count against the memory limit.
    if (gzip && std::uint64_t(byteSkip) > readLimitBytes() - need)
        throw IoError(path + ": NRRD byte skip " + std::to_string(byteSkip) + " plus " + formatBytes(need) +
                      " of voxels is more than one image may take on this machine");
    const std::string dataFile = dataFileName(h);
    if (dataFile.find(' ') != std::string::npos || dataFile == "LIST")
        throw IoError(path + ": NRRD data file lists are not supported");
    VoxelSource src;
    src.file = dataFile.empty() ? path : dataFilePath(path, dataFile);
    src.offset = dataFile.empty() ? h.dataStart : 0;
    src.lineSkip = lineSkip;
    src.compressed = gzip;
    src.atEnd = byteSkip == -1;  // the voxels are the last bytes of the data
    src.skip = byteSkip > 0 ? std::uint64_t(byteSkip) : 0;
    return src;
}

}  // namespace

RawImage NrrdFormat::read(const std::string& path) {
    ByteFile file(path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage NrrdFormat::parse(const std::vector<char>& bytes, const std::string& path) {
    ByteFile file({bytes.data(), bytes.size()}, path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage NrrdFormat::readHeader(ByteFile& file) {
    const std::string& path = file.path();
    NrrdHeader h;
    parseGrowingPrefix(file, [&](std::string_view bytes, bool whole) {
        bool complete = false;
        h = parseHeader(bytes, whole, path, complete);
        return complete;
    });
    RawImage img;
    img.keyValues = h.keyValues;
    if (!scalarFromName(h.get("type"), img.type))
        throw IoError(path + ": unsupported NRRD type '" + printable(h.get("type")) + "'");
    const std::string endian = toLower(h.get("endian"));
    if (!endian.empty() && endian != "little" && endian != "big")
        throw IoError(path + ": NRRD endian '" + printable(h.get("endian")) + "' is neither little nor big");
    // Sizes are checked (positive, no overflow, within memory) before anything is allocated.
    const auto sizes = readAxes(h, path, img);
    const std::size_t need = imageBytes(sizes, scalarSize(img.type), path);
    img.source = voxelSource(h, path, need);
    img.source.swapped = (endian == "big") != (std::endian::native == std::endian::big);
    if (img.source.file != path) img.dataFiles.push_back(img.source.file);
    checkVoxelSource(img, need, file);
    return img;
}

void NrrdFormat::write(const RawImage& image, const std::string& path, bool gzip) {
    const Geometry& g = image.geometry;
    std::ostringstream h;
    h.precision(17);
    const bool four = image.frames > 1;
    h << "NRRD0004\n# Complete NRRD file format specification at:\n# http://teem.sourceforge.net/nrrd/format.html\n"
      << "type: " << scalarName(image.type) << "\ndimension: " << (four ? 4 : 3)
      << "\nspace: left-posterior-superior\nsizes: " << g.dims[0] << ' ' << g.dims[1] << ' ' << g.dims[2];
    if (four) h << ' ' << image.frames;
    h << "\nspace directions:";
    for (int a = 0; a < 3; ++a) {
        const Vec3 v = g.direction.col[a] * g.spacing[a];
        h << " (" << v.x << ',' << v.y << ',' << v.z << ')';
    }
    h << (four ? " none" : "") << "\nkinds: domain domain domain" << (four ? " list" : "")
      << "\nendian: little\nencoding: " << (gzip ? "gzip" : "raw") << "\nspace origin: (" << g.origin.x << ','
      << g.origin.y << ',' << g.origin.z << ")\n";
    for (const auto& [key, value] : image.keyValues) {
        // The header is line-based and ":=" separates key from value: neither may break that.
        if (key.empty() || key.find(":=") != std::string::npos || key.find_first_of("\r\n") != std::string::npos ||
            value.find_first_of("\r\n") != std::string::npos)
            throw IoError(path + ": NRRD key/value pair '" + key + "' cannot be written (line break or ':=' in the key)");
        h << key << ":=" << value << '\n';
    }
    h << '\n';
    if (image.slope != 1.0 || image.intercept != 0.0)
        throw IoError(path + ": NRRD writer does not store a rescale slope/intercept");
    const std::string header = h.str();
    const std::string_view data = image.voxelBytes();
    if (gzip) {
        const GzipStream gz = gzipParts({data});
        std::vector<std::string_view> parts = gz.parts();
        parts.insert(parts.begin(), header);
        writeFileAtomically(path, parts);
    } else {
        writeFileAtomically(path, {header, data});
    }
}

}  // namespace lucent::io
