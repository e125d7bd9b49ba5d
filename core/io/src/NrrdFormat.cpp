/// @brief NRRD codec: header fields, space directions and origin, raw and gzip encodings.
#include "lucent/io/NrrdFormat.h"

#include "HeaderFields.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"

#include <bit>
#include <filesystem>
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
            if (close == std::string::npos) throw IoError(path + ": malformed vector in '" + text + "'");
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

}  // namespace

RawImage NrrdFormat::read(const std::string& path) {
    const std::vector<char> file = readFile(path);
    if (file.size() < 4 || std::string(file.data(), 4) != "NRRD") throw IoError(path + ": not a NRRD file (no NRRD magic)");
    std::map<std::string, std::string> f;
    std::size_t pos = 0;
    bool firstLine = true;
    while (pos < file.size()) {
        std::size_t end = pos;
        while (end < file.size() && file[end] != '\n') ++end;
        std::string line(file.data() + pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (firstLine) {
            firstLine = false;
            continue;
        }
        if (line.empty()) break;  // the blank line ends the header; attached data follows
        if (line[0] == '#') continue;
        const auto colon = line.find(": ");
        if (colon == std::string::npos || line.find(":=") != std::string::npos) continue;  // key/value pairs
        f[toLower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 2));
    }
    auto get = [&](const char* k) { return f.count(k) ? f[k] : std::string(); };
    RawImage img;
    if (!scalarFromName(get("type"), img.type)) throw IoError(path + ": unsupported NRRD type '" + get("type") + "'");
    const int dimension = get("dimension").empty() ? 0 : std::stoi(get("dimension"));
    if (dimension < 2 || dimension > 4) throw IoError(path + ": NRRD dimension " + std::to_string(dimension) + " not supported");
    const auto sizes = parseNumbers(get("sizes"), path, "sizes", dimension);

    // Which axes are spatial: those with a space direction (or all the first three without one).
    std::vector<std::pair<bool, Vec3>> dirs;
    if (!get("space directions").empty()) dirs = parseVectors(get("space directions"), path);
    std::vector<int> spatialAxes;
    for (int a = 0; a < dimension; ++a)
        if (dirs.empty() ? a < 3 : (a < int(dirs.size()) && dirs[a].first)) spatialAxes.push_back(a);
    if (spatialAxes.size() > 3 || (dimension - spatialAxes.size()) > 1)
        throw IoError(path + ": NRRD axes not understood (" + get("sizes") + ")");
    for (std::size_t s = 0; s < spatialAxes.size(); ++s)
        if (spatialAxes[s] != int(s))
            throw IoError(path + ": NRRD with a leading non-spatial axis (vector data) is not a scalar volume");
    const std::string space = toLower(get("space"));
    const bool ras = space == "right-anterior-superior" || space == "ras" || space == "scanner-xyz";
    for (std::size_t s = 0; s < spatialAxes.size(); ++s) {
        const int a = spatialAxes[s];
        img.geometry.dims[s] = static_cast<int>(sizes[a]);
        if (!dirs.empty()) {
            Vec3 v = dirs[a].second;
            if (ras) v = {-v.x, -v.y, v.z};
            const double len = norm(v);
            img.geometry.spacing[s] = len > 0 ? len : 1.0;
            if (len > 0) img.geometry.direction.col[s] = v * (1.0 / len);
        }
    }
    for (std::size_t s = spatialAxes.size(); s < 3; ++s) img.geometry.dims[s] = 1;
    if (dirs.empty() && !get("spacings").empty()) {
        const auto sp = parseNumbers(get("spacings"), path, "spacings", dimension);
        for (std::size_t s = 0; s < spatialAxes.size(); ++s) img.geometry.spacing[s] = sp[spatialAxes[s]];
    }
    if (!get("space origin").empty()) {
        const auto o = parseVectors(get("space origin"), path);
        if (!o.empty() && o[0].first) {
            img.geometry.origin = o[0].second;
            if (ras) img.geometry.origin = {-img.geometry.origin.x, -img.geometry.origin.y, img.geometry.origin.z};
        }
    }
    img.frames = dimension == 4 ? static_cast<int>(sizes[3]) : 1;

    std::vector<char> payload;
    std::string dataFile = get("data file").empty() ? get("datafile") : get("data file");
    if (dataFile.empty()) {
        payload.assign(file.begin() + static_cast<std::ptrdiff_t>(std::min(pos, file.size())), file.end());
    } else {
        if (dataFile.find(' ') != std::string::npos || dataFile == "LIST")
            throw IoError(path + ": NRRD data file lists are not supported");
        payload = readFile((std::filesystem::path(path).parent_path() / dataFile).string());
    }
    const std::string encoding = toLower(get("encoding"));
    if (encoding == "gzip" || encoding == "gz") {
        payload = inflateBuffer({payload.data(), payload.size()}, path);
    } else if (encoding != "raw") {
        throw IoError(path + ": NRRD encoding '" + encoding + "' is not supported (raw and gzip are)");
    }
    const std::size_t need = img.frameBytes() * img.frames;
    if (payload.size() < need)
        throw IoError(path + ": truncated voxel data (" + std::to_string(payload.size()) + " bytes, " +
                      std::to_string(need) + " expected)");
    // byte skip -1 means the data is the last bytes of the (decoded) payload.
    const std::string skip = get("byte skip");
    const std::size_t offset = skip == "-1" ? payload.size() - need : (skip.empty() ? 0 : std::stoul(skip));
    img.bytes.assign(payload.begin() + static_cast<std::ptrdiff_t>(offset),
                     payload.begin() + static_cast<std::ptrdiff_t>(offset + need));
    const bool big = toLower(get("endian")) == "big";
    if (big != (std::endian::native == std::endian::big))
        swapBytes(img.bytes.data(), img.geometry.voxelCount() * img.frames, scalarSize(img.type));
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
      << g.origin.y << ',' << g.origin.z << ")\n\n";
    if (image.slope != 1.0 || image.intercept != 0.0)
        throw IoError(path + ": NRRD writer does not store a rescale slope/intercept");
    const std::string header = h.str();
    const std::string_view data(image.bytes.data(), image.bytes.size());
    if (gzip) {
        const auto gz = gzipBuffer({data});
        writeFileAtomically(path, {header, {gz.data(), gz.size()}});
    } else {
        writeFileAtomically(path, {header, data});
    }
}

}  // namespace lucent::io
