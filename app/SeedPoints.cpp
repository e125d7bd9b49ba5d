/// @brief Reading seeds in millimetres and placing them on the grid.
#include "SeedPoints.h"

#include "JsonValue.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace lucent::app {

namespace {

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

/// Three finite comma-separated numbers, or false.
bool threeNumbers(const std::string& text, Vec3& out) {
    std::stringstream in(text);
    int n = 0;
    for (std::string part; std::getline(in, part, ',');) {
        const std::string p = trimmed(part);
        double d = 0;
        const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), d);
        if (n == 3 || p.empty() || ec != std::errc() || end != p.data() + p.size() || !std::isfinite(d)) return false;
        out[n++] = d;
    }
    return n == 3 && (text.empty() || text.back() != ',');
}

/// RAS and LPS differ in the signs of x and y.
Vec3 rasToLps(Vec3 ras) { return {-ras.x, -ras.y, ras.z}; }

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read the seed file " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<WorldSeed> readCsv(const std::string& path) {
    std::istringstream in(readText(path));
    std::vector<WorldSeed> out;
    int line = 0;
    bool first = true;
    for (std::string text; std::getline(in, text);) {
        ++line;
        text = trimmed(text);
        if (text.empty() || text[0] == '#') continue;
        Vec3 p;
        const bool ok = threeNumbers(text, p);
        // The first line may be a header (x,y,z); any other line must be a point.
        if (!ok && first) {
            first = false;
            continue;
        }
        first = false;
        if (!ok)
            throw std::runtime_error(path + " line " + std::to_string(line) + ": expected x,y,z in LPS mm, got '" +
                                     text + "'");
        out.push_back({p, path + " line " + std::to_string(line)});
    }
    return out;
}

/// One markups node's control points, converted from its coordinateSystem to LPS.
void markupPoints(const JsonValue& markup, const std::string& path, std::vector<WorldSeed>& out) {
    const JsonValue* system = markup.find("coordinateSystem");
    const std::string frame = system ? system->string : "LPS";  // Slicer's schema default
    if (frame != "LPS" && frame != "RAS")
        throw std::runtime_error(path + ": coordinateSystem '" + frame + "' is neither LPS nor RAS");
    if (const JsonValue* units = markup.find("coordinateUnits"); units && units->string != "mm")
        throw std::runtime_error(path + ": coordinateUnits '" + units->string + "' are not mm");
    const JsonValue* points = markup.find("controlPoints");
    if (!points) return;
    for (const JsonValue& point : points->array) {
        const std::string name = path + " point " + std::to_string(out.size() + 1);
        const JsonValue* position = point.find("position");
        if (!position || position->array.size() != 3) throw std::runtime_error(name + ": no position [x, y, z]");
        Vec3 p;
        for (int a = 0; a < 3; ++a) {
            if (position->array[a].type != JsonValue::Type::Number)
                throw std::runtime_error(name + ": a position is not numeric");
            p[a] = position->array[a].number;
        }
        out.push_back({frame == "RAS" ? rasToLps(p) : p, name});
    }
}

std::vector<WorldSeed> readMarkups(const std::string& path) {
    JsonValue doc;
    try {
        doc = parseJson(readText(path));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    const JsonValue* markups = doc.find("markups");
    if (!markups || markups->type != JsonValue::Type::Array)
        throw std::runtime_error(path + ": not a 3D Slicer markups file (no \"markups\" list)");
    std::vector<WorldSeed> out;
    for (const JsonValue& markup : markups->array) markupPoints(markup, path, out);
    return out;
}

}  // namespace

std::set<std::string> worldSeedOptions() { return {"--seed-lps", "--seed-ras", "--seeds"}; }

std::vector<WorldSeed> worldSeedsFromOptions(const CommandLine& cl) {
    std::vector<WorldSeed> out;
    for (const char* option : {"--seed-lps", "--seed-ras"})
        for (const auto& text : cl.values(option)) {
            Vec3 p;
            if (!threeNumbers(text, p))
                throw UsageError(std::string(option) + " needs 3 comma-separated millimetres x,y,z, got '" + text +
                                 "'");
            out.push_back({std::string(option) == "--seed-ras" ? rasToLps(p) : p, std::string(option) + " " + text});
        }
    for (const auto& path : cl.values("--seeds")) {
        auto points = readSeedFile(path);
        out.insert(out.end(), points.begin(), points.end());
    }
    return out;
}

std::vector<WorldSeed> readSeedFile(const std::string& path) {
    auto points = path.ends_with(".json") ? readMarkups(path) : readCsv(path);
    if (points.empty()) throw std::runtime_error(path + ": no seed points");
    return points;
}

VoxelIndex nearestVoxel(const Geometry& grid, const WorldSeed& seed) {
    const Vec3 c = grid.patientToVoxel(seed.lps);
    std::array<int, 3> ijk{};
    for (int a = 0; a < 3; ++a) {
        const double r = std::round(c[a]);
        // Also refuses NaN: a point is inside when it is within half a voxel of a centre on every axis.
        if (!(r >= 0 && r <= grid.dims[a] - 1)) {
            std::ostringstream s;
            s << "seed " << seed.source << " (LPS " << seed.lps.x << ", " << seed.lps.y << ", " << seed.lps.z
              << " mm, voxel " << c.x << ", " << c.y << ", " << c.z << ") lies outside the volume (" << grid.dims[0]
              << " x " << grid.dims[1] << " x " << grid.dims[2] << ")";
            throw std::runtime_error(s.str());
        }
        ijk[a] = int(r);
    }
    return {ijk[0], ijk[1], ijk[2]};
}

}  // namespace lucent::app
