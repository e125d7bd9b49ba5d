/// @brief Binary STL and Wavefront OBJ writers for label surfaces, built in memory and written atomically.
#include "lucent/io/SurfaceFile.h"

#include "lucent/core/Errors.h"
#include "lucent/core/Vec3.h"
#include "lucent/io/FileUtil.h"

#include <charconv>
#include <cstring>
#include <limits>

namespace lucent::io {

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// LPS -> RAS negates x and y: a half turn about z, so windings and outward normals survive it.
Vec3 point(const SurfaceMesh& m, std::uint32_t index, bool ras) {
    const float* p = &m.points[3 * std::size_t(index)];
    const double s = ras ? -1.0 : 1.0;
    return {s * p[0], s * p[1], double(p[2])};
}

void putFloat(std::string& out, double value) {
    const float f = static_cast<float>(value);
    char bytes[4];
    std::memcpy(bytes, &f, 4);  // STL is little-endian, as every machine we build for
    out.append(bytes, 4);
}

/// Shortest text that reads back to the same float, whatever the locale.
void putText(std::string& out, double value) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value)).ptr;
    out.append(buffer, end);
}

std::string stl(const std::vector<NamedSurface>& surfaces, const std::string& path, bool ras) {
    std::size_t triangles = 0;
    for (const auto& s : surfaces) triangles += s.mesh.triangleCount();
    if (triangles > std::numeric_limits<std::uint32_t>::max())
        throw IoError(path + ": " + std::to_string(triangles) + " triangles do not fit a binary STL");
    // 3D Slicer looks for "SPACE=LPS" / "SPACE=RAS" in the header to know the frame.
    std::string header = std::string("SPACE=") + (ras ? "RAS" : "LPS") + " Lucent label surface, millimetres";
    header.resize(80, ' ');
    std::string out = header;
    out.reserve(84 + triangles * 50);
    const auto count = static_cast<std::uint32_t>(triangles);
    char countBytes[4];
    std::memcpy(countBytes, &count, 4);
    out.append(countBytes, 4);
    for (const auto& s : surfaces)
        for (std::size_t t = 0; t < s.mesh.triangles.size(); t += 3) {
            const Vec3 a = point(s.mesh, s.mesh.triangles[t], ras), b = point(s.mesh, s.mesh.triangles[t + 1], ras),
                       c = point(s.mesh, s.mesh.triangles[t + 2], ras);
            const Vec3 n = normalized(cross(b - a, c - a));
            for (const Vec3& v : {n, a, b, c})
                for (int i = 0; i < 3; ++i) putFloat(out, v[i]);
            out.append(2, '\0');  // attribute byte count
        }
    return out;
}

/// An OBJ object/group name: one token, printable (white space and control characters become '_').
std::string objName(const NamedSurface& s) {
    std::string name = s.name.empty() ? "label_" + std::to_string(s.label) : s.name;
    for (char& c : name)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) c = '_';
    return name;
}

std::string obj(const std::vector<NamedSurface>& surfaces, bool ras) {
    std::string out = std::string("# SPACE=") + (ras ? "RAS" : "LPS") + "\n# Lucent label surfaces, millimetres\n";
    std::size_t base = 1;  // OBJ indices are 1-based and global over the file
    for (const auto& s : surfaces) {
        const std::string name = objName(s);
        out += "o " + name + "\ng " + name + "\n";
        const double flip = ras ? -1.0 : 1.0;
        for (std::size_t p = 0; p < s.mesh.pointCount(); ++p) {
            const Vec3 v = point(s.mesh, static_cast<std::uint32_t>(p), ras);
            out += "v ";
            for (int i = 0; i < 3; ++i) putText(out, v[i]), out += i < 2 ? ' ' : '\n';
        }
        const bool normals = s.mesh.normals.size() == s.mesh.points.size();
        for (std::size_t p = 0; normals && p < s.mesh.pointCount(); ++p) {
            const float* n = &s.mesh.normals[3 * p];
            out += "vn ";
            putText(out, flip * n[0]), out += ' ', putText(out, flip * n[1]), out += ' ', putText(out, n[2]);
            out += '\n';
        }
        for (std::size_t t = 0; t < s.mesh.triangles.size(); t += 3) {
            out += 'f';
            for (int v = 0; v < 3; ++v) {
                const std::string index = std::to_string(base + s.mesh.triangles[t + v]);
                out += ' ' + index;
                if (normals) out += "//" + index;
            }
            out += '\n';
        }
        base += s.mesh.pointCount();
    }
    return out;
}

}  // namespace

bool isSurfaceFileName(const std::string& path) {
    const std::string lower = toLower(path);
    return endsWith(lower, ".stl") || endsWith(lower, ".obj");
}

void writeSurfaceFile(const std::vector<NamedSurface>& surfaces, const std::string& path, bool ras) {
    const std::string lower = toLower(path);
    const bool isStl = endsWith(lower, ".stl");
    if (!isStl && !endsWith(lower, ".obj")) throw IoError(path + ": not a surface file name (.stl or .obj)");
    if (surfaces.empty()) throw IoError(path + ": no surface to write");
    for (const auto& s : surfaces) {
        if (s.mesh.empty()) throw IoError(path + ": the surface of " + objName(s) + " is empty");
        if (s.mesh.points.size() % 3 || s.mesh.triangles.size() % 3)
            throw IoError(path + ": the surface of " + objName(s) + " is malformed");
        for (const std::uint32_t index : s.mesh.triangles)
            if (index >= s.mesh.pointCount())
                throw IoError(path + ": the surface of " + objName(s) + " refers to a point it does not have");
    }
    const std::string bytes = isStl ? stl(surfaces, path, ras) : obj(surfaces, ras);
    writeFileAtomically(path, {bytes});
}

}  // namespace lucent::io
