/// @brief Independent STL / OBJ readers and mesh checks (closed, manifold, oriented, volume, bounds) for surface tests.
#pragma once

#include "lucent/core/Vec3.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace lucent::testing {

/// A triangle soup welded on exact coordinates (as a reader would), with the file's header.
struct ReadMesh {
    std::string header;
    std::vector<Vec3> points;
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    return {std::istreambuf_iterator<char>(in), {}};
}

/// Binary STL: 80-byte header, uint32 count, 50 bytes per triangle; vertices welded by exact value.
inline ReadMesh readBinaryStl(const std::string& path) {
    const std::string bytes = fileBytes(path);
    if (bytes.size() < 84) throw std::runtime_error(path + ": shorter than an STL header");
    ReadMesh mesh;
    mesh.header = bytes.substr(0, 80);
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() != 84 + 50 * std::size_t(count)) throw std::runtime_error(path + ": size does not match count");
    std::map<std::tuple<float, float, float>, std::uint32_t> weld;
    for (std::uint32_t t = 0; t < count; ++t) {
        std::array<std::uint32_t, 3> tri{};
        for (int v = 0; v < 3; ++v) {
            float xyz[3];
            std::memcpy(xyz, bytes.data() + 84 + 50 * std::size_t(t) + 12 + 12 * v, 12);
            const auto key = std::make_tuple(xyz[0], xyz[1], xyz[2]);
            auto [it, added] = weld.emplace(key, std::uint32_t(mesh.points.size()));
            if (added) mesh.points.push_back({xyz[0], xyz[1], xyz[2]});
            tri[v] = it->second;
        }
        mesh.triangles.push_back(tri);
    }
    return mesh;
}

/// OBJ: one mesh per `g` group (vertices indexed globally, as the format says); comments go to header.
inline std::map<std::string, ReadMesh> readObj(const std::string& path) {
    std::istringstream in(fileBytes(path));
    std::vector<Vec3> all;
    std::map<std::string, ReadMesh> groups;
    std::map<std::string, std::map<std::uint32_t, std::uint32_t>> local;  // global -> group index
    std::string header, group = "default", line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string tag;
        words >> tag;
        if (tag == "#")
            header += line + "\n";
        else if (tag == "v") {
            Vec3 p;
            words >> p.x >> p.y >> p.z;
            all.push_back(p);
        } else if (tag == "g")
            words >> group;
        else if (tag == "f") {
            std::array<std::uint32_t, 3> tri{};
            for (int v = 0; v < 3; ++v) {
                std::string ref;
                words >> ref;
                const std::uint32_t global = std::uint32_t(std::stoul(ref.substr(0, ref.find('/')))) - 1;
                if (global >= all.size()) throw std::runtime_error(path + ": face refers past the vertices");
                auto [it, added] = local[group].emplace(global, std::uint32_t(groups[group].points.size()));
                if (added) groups[group].points.push_back(all[global]);
                tri[v] = it->second;
            }
            groups[group].triangles.push_back(tri);
        }
    }
    for (auto& [name, mesh] : groups) mesh.header = header;
    return groups;
}

struct MeshReport {
    std::size_t badEdges = 0;  ///< directed edges not matched by exactly one opposite edge
    double volume = 0;         ///< signed enclosed volume, mm^3 (> 0: outward winding)
    Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
};

/// Closed and consistently oriented means: every directed edge occurs once and its reverse once,
/// so every edge has exactly two triangles, which traverse it in opposite directions.
inline MeshReport analyse(const ReadMesh& mesh) {
    MeshReport r;
    std::vector<std::uint64_t> directed;  // (from << 32) | to, sorted
    directed.reserve(mesh.triangles.size() * 3);
    for (const auto& t : mesh.triangles)
        for (int e = 0; e < 3; ++e) directed.push_back(std::uint64_t(t[e]) << 32 | t[(e + 1) % 3]);
    std::sort(directed.begin(), directed.end());
    auto occurrences = [&](std::uint64_t edge) {
        const auto [first, last] = std::equal_range(directed.begin(), directed.end(), edge);
        return last - first;
    };
    for (const std::uint64_t edge : directed)
        if (occurrences(edge) != 1 || occurrences(edge << 32 | edge >> 32) != 1) ++r.badEdges;
    for (const auto& t : mesh.triangles)
        r.volume += dot(mesh.points[t[0]], cross(mesh.points[t[1]], mesh.points[t[2]])) / 6.0;
    for (const Vec3& p : mesh.points)
        for (int a = 0; a < 3; ++a) {
            r.lo[a] = std::min(r.lo[a], p[a]);
            r.hi[a] = std::max(r.hi[a], p[a]);
        }
    return r;
}

}  // namespace lucent::testing
