/// @brief NIfTI-1 codec: header parsing, qform/sform geometry, RAS <-> LPS.
#include "lucent/io/NiftiFormat.h"

#include "NiftiHeader.h"
#include "VoxelRead.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ReadLimits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace lucent::io {

namespace {

enum : std::int16_t {
    DT_UINT8 = 2, DT_INT16 = 4, DT_INT32 = 8, DT_FLOAT32 = 16, DT_FLOAT64 = 64,
    DT_INT8 = 256, DT_UINT16 = 512, DT_UINT32 = 768
};

bool scalarFromDatatype(std::int16_t dt, ScalarType& out) {
    switch (dt) {
    case DT_UINT8: out = ScalarType::UInt8; return true;
    case DT_INT8: out = ScalarType::Int8; return true;
    case DT_INT16: out = ScalarType::Int16; return true;
    case DT_UINT16: out = ScalarType::UInt16; return true;
    case DT_INT32: out = ScalarType::Int32; return true;
    case DT_UINT32: out = ScalarType::UInt32; return true;
    case DT_FLOAT32: out = ScalarType::Float32; return true;
    case DT_FLOAT64: out = ScalarType::Float64; return true;
    default: return false;
    }
}

std::int16_t datatypeFromScalar(ScalarType t) {
    switch (t) {
    case ScalarType::UInt8: return DT_UINT8;
    case ScalarType::Int8: return DT_INT8;
    case ScalarType::Int16: return DT_INT16;
    case ScalarType::UInt16: return DT_UINT16;
    case ScalarType::Int32: return DT_INT32;
    case ScalarType::UInt32: return DT_UINT32;
    case ScalarType::Float32: return DT_FLOAT32;
    case ScalarType::Float64: return DT_FLOAT64;
    }
    return DT_UINT8;
}

template <typename T>
void swapField(T& v) {
    swapBytes(reinterpret_cast<char*>(&v), 1, sizeof v);
}

void swapHeader(NiftiHeader& h) {
    swapField(h.sizeof_hdr);
    for (auto& d : h.dim) swapField(d);
    swapField(h.datatype);
    swapField(h.bitpix);
    for (auto& p : h.pixdim) swapField(p);
    swapField(h.vox_offset);
    swapField(h.scl_slope);
    swapField(h.scl_inter);
    swapField(h.qform_code);
    swapField(h.sform_code);
    for (float* f : {&h.quatern_b, &h.quatern_c, &h.quatern_d, &h.qoffset_x, &h.qoffset_y, &h.qoffset_z})
        swapField(*f);
    for (int i = 0; i < 4; ++i) {
        swapField(h.srow_x[i]);
        swapField(h.srow_y[i]);
        swapField(h.srow_z[i]);
    }
}

// RAS <-> LPS: negate x and y. The same map both ways.
Vec3 flipXY(Vec3 v) { return {-v.x, -v.y, v.z}; }

/// Splits a 3x3 linear part (columns = axis step vectors, LPS) into spacing and unit directions. A
/// zero column stays zero (spacing 0, no direction): checkGeometry repairs it and says so.
void setAxes(Geometry& g, Vec3 c0, Vec3 c1, Vec3 c2) {
    const Vec3 cols[3] = {c0, c1, c2};
    for (int a = 0; a < 3; ++a) {
        const double s = norm(cols[a]);
        g.spacing[a] = s;
        g.direction.col[a] = s > 0 ? cols[a] * (1.0 / s) : Vec3{};
    }
}

Geometry geometryFromHeader(const NiftiHeader& h) {
    Geometry g;
    for (int a = 0; a < 3; ++a) g.dims[a] = h.dim[0] > a ? h.dim[a + 1] : 1;
    const Vec3 pixdim{std::abs(h.pixdim[1]), std::abs(h.pixdim[2]), std::abs(h.pixdim[3])};
    if (h.sform_code > 0) {
        setAxes(g, flipXY({h.srow_x[0], h.srow_y[0], h.srow_z[0]}), flipXY({h.srow_x[1], h.srow_y[1], h.srow_z[1]}),
                flipXY({h.srow_x[2], h.srow_y[2], h.srow_z[2]}));
        g.origin = flipXY({h.srow_x[3], h.srow_y[3], h.srow_z[3]});
    } else if (h.qform_code > 0) {
        const double b = h.quatern_b, c = h.quatern_c, d = h.quatern_d;
        const double a = std::sqrt(std::max(0.0, 1.0 - (b * b + c * c + d * d)));
        const double qfac = h.pixdim[0] < 0 ? -1.0 : 1.0;
        const Vec3 r0{a * a + b * b - c * c - d * d, 2 * (b * c + a * d), 2 * (b * d - a * c)};
        const Vec3 r1{2 * (b * c - a * d), a * a + c * c - b * b - d * d, 2 * (c * d + a * b)};
        const Vec3 r2{2 * (b * d + a * c), 2 * (c * d - a * b), a * a + d * d - c * c - b * b};
        // The rotation gives the directions even where pixdim is 0 (checkGeometry assumes 1 mm then).
        g.direction = Mat3::fromColumns(flipXY(r0), flipXY(r1), flipXY(r2 * qfac));
        g.spacing = pixdim;
        g.origin = flipXY({h.qoffset_x, h.qoffset_y, h.qoffset_z});
    } else {
        // Analyze-style: no orientation; NIfTI says x = i * pixdim[1] etc. in RAS.
        g.direction = Mat3::fromColumns({-1, 0, 0}, {0, -1, 0}, {0, 0, 1});
        g.spacing = pixdim;
    }
    return g;
}

/// Quaternion (b, c, d) and qfac of a proper-or-improper rotation, as nifti1_io's mat44_to_quatern.
void rotationToQuaternion(const Mat3& m, float& qb, float& qc, float& qd, float& qfac) {
    double r11 = m.at(0, 0), r12 = m.at(0, 1), r13 = m.at(0, 2);
    double r21 = m.at(1, 0), r22 = m.at(1, 1), r23 = m.at(1, 2);
    double r31 = m.at(2, 0), r32 = m.at(2, 1), r33 = m.at(2, 2);
    qfac = 1.0f;
    if (m.determinant() < 0) {
        qfac = -1.0f;
        r13 = -r13;
        r23 = -r23;
        r33 = -r33;
    }
    double a = r11 + r22 + r33 + 1.0, b, c, d;
    if (a > 0.5) {
        a = 0.5 * std::sqrt(a);
        b = 0.25 * (r32 - r23) / a;
        c = 0.25 * (r13 - r31) / a;
        d = 0.25 * (r21 - r12) / a;
    } else {
        const double xd = 1.0 + r11 - (r22 + r33), yd = 1.0 + r22 - (r11 + r33), zd = 1.0 + r33 - (r11 + r22);
        if (xd > 1.0) {
            b = 0.5 * std::sqrt(xd);
            c = 0.25 * (r12 + r21) / b;
            d = 0.25 * (r13 + r31) / b;
            a = 0.25 * (r32 - r23) / b;
        } else if (yd > 1.0) {
            c = 0.5 * std::sqrt(yd);
            b = 0.25 * (r12 + r21) / c;
            d = 0.25 * (r23 + r32) / c;
            a = 0.25 * (r13 - r31) / c;
        } else {
            d = 0.5 * std::sqrt(zd);
            b = 0.25 * (r13 + r31) / d;
            c = 0.25 * (r23 + r32) / d;
            a = 0.25 * (r21 - r12) / d;
        }
        if (a < 0.0) {
            b = -b;
            c = -c;
            d = -d;
        }
    }
    qb = static_cast<float>(b);
    qc = static_cast<float>(c);
    qd = static_cast<float>(d);
}

}  // namespace

namespace {

/// The header at the start of `bytes`, in host byte order (`swapped` says whether it was not),
/// with its magic and dimensions checked.
NiftiHeader parseHeader(std::string_view bytes, const std::string& path, bool& swapped) {
    if (bytes.size() < sizeof(NiftiHeader)) throw IoError(path + ": too short for a NIfTI-1 header");
    NiftiHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    swapped = false;
    if (h.sizeof_hdr != 348) {
        swapHeader(h);
        swapped = true;
        if (h.sizeof_hdr != 348) throw IoError(path + ": not a NIfTI-1 file (sizeof_hdr is not 348)");
    }
    if (std::memcmp(h.magic, "n+1", 4) != 0)
        throw IoError(path + ": not a single-file NIfTI-1 image (magic is not n+1; .hdr/.img pairs are not read)");
    if (h.dim[0] < 1 || h.dim[0] > 7)
        throw IoError(path + ": invalid dim[0] " + std::to_string(h.dim[0]) + " (1 to 7 expected)");
    for (int d = 1; d <= h.dim[0]; ++d)
        if (h.dim[d] < 1)
            throw IoError(path + ": dim[" + std::to_string(d) + "] is " + std::to_string(h.dim[d]) +
                          " (1 or more expected)");
    for (int d = 5; d <= h.dim[0]; ++d)
        if (h.dim[d] > 1) throw IoError(path + ": images with more than 4 dimensions are not supported");
    return h;
}

/// Where the voxels start: vox_offset, or 352 for the old writers that left it below the header.
std::size_t voxelOffset(const NiftiHeader& h, const std::string& path) {
    const double v = h.vox_offset;
    if (!std::isfinite(v) || v < 0 || v > double(readLimitBytes())) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", v);
        throw IoError(path + ": vox_offset " + buf + " is not a byte offset within the file (352 or more expected)");
    }
    return v < 348 ? 352 : static_cast<std::size_t>(v);
}

}  // namespace

RawImage NiftiFormat::read(const std::string& path) {
    ByteFile file(path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage NiftiFormat::parse(const std::vector<char>& stored, const std::string& path) {
    ByteFile file({stored.data(), stored.size()}, path);
    RawImage img = readHeader(file);
    img.bytes = readAllVoxels(img, file);
    return img;
}

RawImage NiftiFormat::readHeader(ByteFile& file) {
    const std::string& path = file.path();
    const bool gz = toLower(path).ends_with(".gz");
    // A .gz's header is the first 348 bytes of its stream: only they are inflated here.
    std::vector<char> inflated;
    std::string_view stored;
    if (gz) {
        inflated = inflateBuffer(file.prefix(std::size_t(64) << 10), path, sizeof(NiftiHeader));
        stored = {inflated.data(), inflated.size()};
    } else {
        stored = file.prefix(sizeof(NiftiHeader));
    }
    bool swapped = false;
    const NiftiHeader h = parseHeader(stored, path, swapped);

    RawImage img;
    if (!scalarFromDatatype(h.datatype, img.type))
        throw IoError(path + ": unsupported NIfTI datatype " + std::to_string(h.datatype));
    img.geometry = geometryFromHeader(h);
    img.codes = {h.qform_code, h.sform_code};
    img.frames = h.dim[0] >= 4 ? h.dim[4] : 1;
    if (h.scl_slope != 0.0f && std::isfinite(h.scl_slope)) {
        img.slope = h.scl_slope;
        img.intercept = std::isfinite(h.scl_inter) ? h.scl_inter : 0.0;
    }
    const std::size_t offset = voxelOffset(h, path);
    const auto& d = img.geometry.dims;
    const std::size_t need = imageBytes({d[0], d[1], d[2], img.frames}, scalarSize(img.type), path);
    if (!gz && offset > file.size())
        throw IoError(path + ": vox_offset " + std::to_string(offset) + " lies beyond the end of the file (" +
                      std::to_string(file.size()) + " bytes)");
    img.source.file = path;
    img.source.compressed = gz;
    img.source.skip = offset;
    img.source.swapped = swapped;
    checkVoxelSource(img, need, file);
    return img;
}

void NiftiFormat::write(const RawImage& image, const std::string& path) {
    NiftiHeader h{};
    h.sizeof_hdr = 348;
    h.regular = 'r';
    h.dim[0] = image.frames > 1 ? 4 : 3;
    for (int a = 0; a < 3; ++a) h.dim[a + 1] = static_cast<std::int16_t>(image.geometry.dims[a]);
    h.dim[4] = static_cast<std::int16_t>(image.frames);
    for (int d = 5; d < 8; ++d) h.dim[d] = 1;
    for (int a = 0; a < 3; ++a)
        if (image.geometry.dims[a] > 32767) throw IoError(path + ": NIfTI-1 cannot hold a dimension over 32767");
    h.datatype = datatypeFromScalar(image.type);
    h.bitpix = static_cast<std::int16_t>(8 * scalarSize(image.type));
    h.vox_offset = 352;
    h.scl_slope = static_cast<float>(image.slope);
    h.scl_inter = static_cast<float>(image.intercept);
    h.xyzt_units = 2 | 8;  // mm, s
    std::strncpy(h.descrip, "Lucent", sizeof h.descrip);
    std::memcpy(h.magic, "n+1", 4);

    const Geometry& g = image.geometry;
    // RAS affine: flip x, y of the LPS one.
    const Mat3 rasDir = Mat3::fromColumns(flipXY(g.direction.col[0]), flipXY(g.direction.col[1]), flipXY(g.direction.col[2]));
    const Vec3 rasOrigin = flipXY(g.origin);
    float* rows[3] = {h.srow_x, h.srow_y, h.srow_z};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) rows[r][c] = static_cast<float>(rasDir.at(r, c) * g.spacing[c]);
        rows[r][3] = static_cast<float>(rasOrigin[r]);
    }
    // The input's space stays named: an MNI-152 image's masks are MNI-152 too.
    h.sform_code = image.codes.sform;
    h.qform_code = image.codes.qform;
    float qfac = 1;
    rotationToQuaternion(rasDir, h.quatern_b, h.quatern_c, h.quatern_d, qfac);
    h.pixdim[0] = qfac;
    for (int a = 0; a < 3; ++a) h.pixdim[a + 1] = static_cast<float>(g.spacing[a]);
    h.pixdim[4] = 1.0f;
    h.qoffset_x = static_cast<float>(rasOrigin.x);
    h.qoffset_y = static_cast<float>(rasOrigin.y);
    h.qoffset_z = static_cast<float>(rasOrigin.z);

    const char extension[4] = {0, 0, 0, 0};
    const std::vector<std::string_view> parts = {{reinterpret_cast<const char*>(&h), sizeof h},
                                                 {extension, 4},
                                                 image.voxelBytes()};
    if (toLower(path).ends_with(".gz")) {
        writeFileAtomically(path, gzipParts(parts).parts());
    } else {
        writeFileAtomically(path, parts);
    }
}

}  // namespace lucent::io
