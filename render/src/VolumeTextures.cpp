/// @brief 3D texture upload for volumes and labels, and the label colour table.
#include "lucent/render/VolumeTextures.h"

#include "Gl.h"

#include "lucent/core/LabelTable.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace lucent::render {

std::array<std::uint8_t, 4> labelColour(int label) {
    if (label <= 0 || label > 255) return {0, 0, 0, 0};
    const auto c = LabelTable::defaultColour(std::uint8_t(label));
    return {c[0], c[1], c[2], 255};
}

VolumeTextures::~VolumeTextures() = default;  // GL names are freed by release() with a context current

void VolumeTextures::release() {
    const GLuint names[4] = {m_volume, m_labels, m_preview, m_colours};
    glDeleteTextures(4, names);
    if (m_pixelBuffer) glDeleteBuffers(1, &m_pixelBuffer);
    if (m_heat) glDeleteTextures(1, &m_heat);
    m_pixelBuffer = m_heat = 0;
    m_hasHeat = false;
    m_volume = m_labels = m_preview = m_colours = 0;
    m_hasLabels = m_hasPreview = m_onPlanes = false;
}

namespace {

/// Immutable storage (GL 4.2): no data, no re-specification, and drivers need not clear it.
bool hasTextureStorage() {
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    return major > 4 || (major == 4 && minor >= 2);
}

void allocate3d(GLenum internalFormat, GLenum format, GLenum type, const std::array<int, 3>& d) {
    static const bool storage = hasTextureStorage();
    if (storage) glTexStorage3D(GL_TEXTURE_3D, 1, internalFormat, d[0], d[1], d[2]);
    else glTexImage3D(GL_TEXTURE_3D, 0, GLint(internalFormat), d[0], d[1], d[2], 0, format, type, nullptr);
}

/// The unsigned 16-bit texel of an int16 voxel (value + 32768), for the whole texture and planes alike.
std::uint16_t unsignedTexel(std::int16_t v) { return std::uint16_t(std::uint16_t(v) ^ 0x8000u); }

}  // namespace

bool VolumeTextures::uploadVolume(const Volume& volume, std::string& error,
                                  const std::function<bool(unsigned texture)>& fillOnDevice) {
    takeVolume(volume, false);
    return makeWholeVolume(volume, error, fillOnDevice);
}

bool VolumeTextures::takeVolume(const Volume& volume, bool onPlanes) {
    // A new name per volume: immutable storage cannot be re-specified.
    if (m_volume) glDeleteTextures(1, &m_volume);
    m_volume = 0;
    m_dims = volume.geometry().dims;
    m_format = chooseFormat(volume);
    m_onPlanes = onPlanes && m_format == TexelFormat::Unorm16;
    m_offset = 0.0f;
    m_scale = m_format == TexelFormat::Snorm16 ? 32767.0f : m_format == TexelFormat::Unorm16 ? 65535.0f : 1.0f;
    if (m_format == TexelFormat::Unorm16) m_offset = -32768.0f;  // stored + 32768: value = texel * 65535 - 32768
    m_hasHeat = false;  // a soft map of the previous volume
    m_filledOnDevice = false;
    // The label and preview textures are sized with the volume once; edits and live steps then
    // replace boxes of them (re-specifying 200 MB per change was the first frame's cost).
    // Label and preview textures are made when first written (allocating GPU memory for a big 3D
    // texture costs the driver about a millisecond per megabyte: not on the first frame).
    for (unsigned* name : {&m_labels, &m_preview})
        if (*name) {
            glDeleteTextures(1, name);
            *name = 0;
        }
    m_hasLabels = m_hasPreview = false;
    m_labelsStale = m_previewStale = true;
    makeColourTable();
    return m_onPlanes;
}

bool VolumeTextures::makeWholeVolume(const Volume& volume, std::string& error,
                                     const std::function<bool(unsigned texture)>& fillOnDevice) {
    if (volume.geometry().dims != m_dims) return false;
    if (m_volume) return true;
    glGenTextures(1, &m_volume);
    glBindTexture(GL_TEXTURE_3D, m_volume);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    while (glGetError() != GL_NO_ERROR) {
    }
    const auto& d = m_dims;
    switch (m_format) {
    case TexelFormat::Snorm16: allocate3d(GL_R16_SNORM, GL_RED, GL_SHORT, d); break;
    case TexelFormat::Unorm16: allocate3d(GL_R16, GL_RED, GL_UNSIGNED_SHORT, d); break;
    case TexelFormat::Float32: allocate3d(GL_R32F, GL_RED, GL_FLOAT, d); break;
    }
    const GLenum status = glGetError();
    if (status != GL_NO_ERROR) {
        error = status == GL_OUT_OF_MEMORY ? "the graphics driver is out of memory for a " + std::to_string(d[0]) + " x " +
                                                 std::to_string(d[1]) + " x " + std::to_string(d[2]) + " texture"
                                           : "the graphics driver refused the volume texture (GL error " +
                                                 std::to_string(status) + ")";
        glDeleteTextures(1, &m_volume);
        m_volume = 0;
        return false;
    }
    m_filledOnDevice = m_format == TexelFormat::Unorm16 && fillOnDevice && fillOnDevice(m_volume);
    glBindTexture(GL_TEXTURE_3D, m_volume);
    if (!m_filledOnDevice) uploadVoxels(volume);
    for (GLenum p : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTexParameteri(GL_TEXTURE_3D, p, GL_CLAMP_TO_EDGE);
    setInterpolation(m_linear);
    if (glGetError() == GL_OUT_OF_MEMORY) {
        error = "the graphics driver is out of memory for the volume texture";
        return false;
    }
    return true;
}

void VolumeTextures::makeColourTable() {
    if (m_colours) return;
    for (int l = 0; l < 256; ++l) {
        const auto c = labelColour(l);
        for (int ch = 0; ch < 4; ++ch) m_labelRgba[std::size_t(l * 4 + ch)] = c[std::size_t(ch)];
    }
    uploadColourRows();
}

std::array<std::uint8_t, 256> VolumeTextures::identityTargets() {
    std::array<std::uint8_t, 256> t{};
    for (int v = 0; v < 256; ++v) t[std::size_t(v)] = std::uint8_t(v);
    return t;
}

void VolumeTextures::setPreviewTargets(const std::array<std::uint8_t, 256>& targets) {
    if (targets == m_previewTargets) return;
    m_previewTargets = targets;
    if (m_colours) uploadColourRows();
}

void VolumeTextures::uploadColourRows() {
    std::vector<std::uint8_t> table(256 * 4 * 2);
    std::copy(m_labelRgba.begin(), m_labelRgba.end(), table.begin());
    for (int v = 0; v < 256; ++v) {
        const std::size_t from = std::size_t(m_previewTargets[std::size_t(v)]) * 4, to = 256 * 4 + std::size_t(v) * 4;
        for (int ch = 0; ch < 3; ++ch) table[to + std::size_t(ch)] = m_labelRgba[from + std::size_t(ch)];
        table[to + 3] = 255;  // a hidden or transparent target still shows its preview
    }
    if (!m_colours) {
        glGenTextures(1, &m_colours);
        glBindTexture(GL_TEXTURE_2D, m_colours);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glBindTexture(GL_TEXTURE_2D, m_colours);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, table.data());
}

void VolumeTextures::volumePlaneTexels(const Volume& volume, const VolumePlane& plane, std::vector<std::uint16_t>& out) const {
    const auto size = planeSize(plane, m_dims);
    out.resize(std::size_t(size[0]) * std::size_t(size[1]));
    extractPlane(volume.int16Data(), m_dims, plane, out.data(),
                 unsignedTexel);
}

void VolumeTextures::updateColourTable(const LabelTable& labels) {
    for (int l = 1; l < 256; ++l) {
        auto c = labelColour(l);
        if (const LabelInfo* info = labels.find(std::uint8_t(l))) {
            c = {info->rgb[0], info->rgb[1], info->rgb[2],
                 std::uint8_t(info->visible ? std::lround(std::clamp(info->opacity, 0.0f, 1.0f) * 255.0f) : 0)};
        }
        for (int ch = 0; ch < 4; ++ch) m_labelRgba[std::size_t(l * 4 + ch)] = c[std::size_t(ch)];
    }
    uploadColourRows();
}

VolumeTextures::TexelFormat VolumeTextures::chooseFormat(const Volume& volume) {
    if (volume.pixelType() != PixelType::Int16) return TexelFormat::Float32;
    // LUCENT_VOLUME_FORMAT=snorm|unorm|float picks the int16 texel format (to compare drivers'
    // upload paths). Unsigned 16-bit through the pixel buffer is the default: the fastest of the
    // three uploads measured (BENCHMARKS.md, "Live segmentation in the viewer").
    const char* env = std::getenv("LUCENT_VOLUME_FORMAT");
    const std::string f = env ? env : "";
    if (f == "snorm") return TexelFormat::Snorm16;
    if (f == "float") return TexelFormat::Float32;
    return TexelFormat::Unorm16;
}

std::size_t VolumeTextures::texelBytes() const { return m_format == TexelFormat::Float32 ? 4 : 2; }

void VolumeTextures::fillTexels(const Volume& volume, void* out) const {
    const std::size_t n = volume.voxelCount();
    if (volume.pixelType() != PixelType::Int16) {
        std::memcpy(out, volume.float32Data(), n * 4);
        return;
    }
    const std::int16_t* src = volume.int16Data();
    if (m_format == TexelFormat::Unorm16) {
        auto* dst = static_cast<std::uint16_t*>(out);
        for (std::size_t i = 0; i < n; ++i) dst[i] = unsignedTexel(src[i]);
    } else {  // float texels of an int16 volume (R16_SNORM never comes here: it takes the voxels as they are)
        auto* dst = static_cast<float*>(out);
        for (std::size_t i = 0; i < n; ++i) dst[i] = float(src[i]);
    }
}

void VolumeTextures::uploadVoxels(const Volume& volume) {
    if (!m_volume || volume.geometry().dims != m_dims) return;
    const GLenum type = m_format == TexelFormat::Float32 ? GL_FLOAT : m_format == TexelFormat::Snorm16 ? GL_SHORT : GL_UNSIGNED_SHORT;
    const std::size_t bytes = volume.voxelCount() * texelBytes();
    glBindTexture(GL_TEXTURE_3D, m_volume);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    // One bulk upload: on the H100's driver, touching a fresh texture plane by plane cost more
    // (its memory is committed page by page). R16_SNORM takes the voxels as they are; the other
    // formats are converted straight into a mapped pixel buffer that the GPU then tiles.
    const void* source = nullptr;
    std::vector<char> staging;
    if (m_format == TexelFormat::Snorm16) {
        source = volume.int16Data();
    } else {
        if (!m_pixelBuffer) glGenBuffers(1, &m_pixelBuffer);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
        if (void* mapped = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(bytes),
                                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT)) {
            fillTexels(volume, mapped);
            glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);  // source stays null: offset 0 in the bound buffer
        } else {
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
            staging.resize(bytes);
            fillTexels(volume, staging.data());
            source = staging.data();
        }
    }
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, m_dims[0], m_dims[1], m_dims[2], GL_RED, type, source);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void VolumeTextures::uploadHeat(const std::vector<std::uint8_t>& values) {
    m_hasHeat = !values.empty() && values.size() == std::size_t(m_dims[0]) * m_dims[1] * m_dims[2];
    if (!m_hasHeat) return;
    if (!m_heat) glGenTextures(1, &m_heat);
    glBindTexture(GL_TEXTURE_3D, m_heat);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R8, m_dims[0], m_dims[1], m_dims[2], 0, GL_RED, GL_UNSIGNED_BYTE, values.data());
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    for (GLenum p : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTexParameteri(GL_TEXTURE_3D, p, GL_CLAMP_TO_EDGE);
}

unsigned VolumeTextures::heatTextureMade() {
    if (m_heat) return m_heat;
    glGenTextures(1, &m_heat);
    glBindTexture(GL_TEXTURE_3D, m_heat);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R8, m_dims[0], m_dims[1], m_dims[2], 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    for (GLenum p : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTexParameteri(GL_TEXTURE_3D, p, GL_CLAMP_TO_EDGE);
    return m_heat;
}

void VolumeTextures::setInterpolation(bool linear) {
    m_linear = linear;
    if (!m_volume) return;
    glBindTexture(GL_TEXTURE_3D, m_volume);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
}

void VolumeTextures::allocateLabelTexture(unsigned& name) {
    if (name) glDeleteTextures(1, &name);
    glGenTextures(1, &name);
    glBindTexture(GL_TEXTURE_3D, name);
    // No data: storage only (drivers allocate lazily, so this costs nothing on the first frame).
    // The first upload into it writes the whole map (see m_labelsStale / m_previewStale).
    allocate3d(GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, m_dims);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

void VolumeTextures::uploadBox(unsigned& texture, const LabelMap& labels, const VoxelBox* box, bool& stale) {
    const auto& d = labels.geometry().dims;
    if (d != m_dims || !hasVolume()) return;  // another grid: the caller checked; never write out of bounds
    if (!texture) {
        allocateLabelTexture(texture);
        stale = true;
    }
    // A texture whose content is undefined or outdated outside the box takes the whole map once.
    VoxelBox b = box && !stale ? *box : VoxelBox{{0, 0, 0}, {d[0] - 1, d[1] - 1, d[2] - 1}};
    stale = false;
    for (int a = 0; a < 3; ++a) {
        b.lo[a] = std::max(b.lo[a], 0);
        b.hi[a] = std::min(b.hi[a], d[a] - 1);
    }
    if (b.empty()) return;
    glBindTexture(GL_TEXTURE_3D, texture);
    // Row length and image height let GL read the box straight out of the whole map.
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, d[0]);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, d[1]);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, b.lo[0]);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, b.lo[1]);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, b.lo[2]);
    glTexSubImage3D(GL_TEXTURE_3D, 0, b.lo[0], b.lo[1], b.lo[2], b.hi[0] - b.lo[0] + 1, b.hi[1] - b.lo[1] + 1,
                    b.hi[2] - b.lo[2] + 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE, labels.data());
    for (GLenum p : {GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_IMAGES})
        glPixelStorei(p, 0);
}

void VolumeTextures::uploadLabels(const LabelMap& labels, const VoxelBox* box) {
    const bool had = m_hasLabels;
    m_hasLabels = labels.voxelCount() > 0;
    if (m_hasLabels) uploadBox(m_labels, labels, box, m_labelsStale);
    else if (had) m_labelsStale = true;  // a later box upload must not reveal the old map
}

void VolumeTextures::uploadPreview(const LabelMap& labels, const VoxelBox* box) {
    uploadBox(m_preview, labels, box, m_previewStale);
    m_hasPreview = true;
}

void VolumeTextures::uploadPreviewSlice(int k, const std::uint8_t* slice) {
    if (!m_preview || m_previewStale || k < 0 || k >= m_dims[2]) return;
    glBindTexture(GL_TEXTURE_3D, m_preview);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, k, m_dims[0], m_dims[1], 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE, slice);
}

unsigned VolumeTextures::previewTextureMade() {
    if (!m_preview && hasVolume()) {
        allocateLabelTexture(m_preview);
        m_previewStale = true;
    }
    return m_preview;
}

void VolumeTextures::clearPreview() {
    // Same name (a CUDA registration of it stays valid); the next upload writes it whole.
    m_previewStale = true;
    m_hasPreview = false;
}

}  // namespace lucent::render
