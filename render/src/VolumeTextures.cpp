/// @brief 3D texture upload for volumes and labels, and the label colour table.
#include "lucent/render/VolumeTextures.h"

#include "Gl.h"

#include <string>
#include <vector>

namespace lucent::render {

std::array<std::uint8_t, 4> labelColour(int label) {
    // Distinct, saturated colours first (red, green, blue, yellow, cyan, magenta, orange, purple).
    static const std::uint8_t base[8][3] = {{230, 40, 40},  {40, 200, 60},  {50, 110, 240}, {240, 220, 40},
                                            {40, 220, 220}, {220, 60, 220}, {250, 140, 30}, {140, 80, 220}};
    if (label <= 0) return {0, 0, 0, 0};
    const auto* c = base[(label - 1) % 8];
    return {c[0], c[1], c[2], 255};
}

VolumeTextures::~VolumeTextures() = default;  // GL names are freed by release() with a context current

void VolumeTextures::release() {
    const GLuint names[3] = {m_volume, m_labels, m_colours};
    glDeleteTextures(3, names);
    m_volume = m_labels = m_colours = 0;
    m_hasLabels = false;
}

bool VolumeTextures::uploadVolume(const Volume& volume, std::string& error) {
    if (!m_volume) glGenTextures(1, &m_volume);
    const auto& d = volume.geometry().dims;
    m_dims = d;
    glBindTexture(GL_TEXTURE_3D, m_volume);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    while (glGetError() != GL_NO_ERROR) {
    }
    if (volume.pixelType() == PixelType::Int16) {
        glTexImage3D(GL_TEXTURE_3D, 0, GL_R16_SNORM, d[0], d[1], d[2], 0, GL_RED, GL_SHORT, volume.int16Data());
        m_scale = 32767.0f;
    } else {
        glTexImage3D(GL_TEXTURE_3D, 0, GL_R32F, d[0], d[1], d[2], 0, GL_RED, GL_FLOAT, volume.float32Data());
        m_scale = 1.0f;
    }
    const GLenum status = glGetError();
    if (status != GL_NO_ERROR) {
        error = status == GL_OUT_OF_MEMORY ? "the graphics driver is out of memory for a " + std::to_string(d[0]) + " x " +
                                                 std::to_string(d[1]) + " x " + std::to_string(d[2]) + " texture"
                                           : "the graphics driver refused the volume texture (GL error " +
                                                 std::to_string(status) + ")";
        return false;
    }
    for (GLenum p : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTexParameteri(GL_TEXTURE_3D, p, GL_CLAMP_TO_EDGE);
    setInterpolation(false);
    if (!m_colours) {
        glGenTextures(1, &m_colours);
        std::vector<std::uint8_t> table(256 * 4);
        for (int l = 0; l < 256; ++l) {
            const auto c = labelColour(l);
            for (int ch = 0; ch < 4; ++ch) table[l * 4 + ch] = c[ch];
        }
        glBindTexture(GL_TEXTURE_2D, m_colours);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, table.data());
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    return true;
}

void VolumeTextures::setInterpolation(bool linear) {
    if (!m_volume) return;
    glBindTexture(GL_TEXTURE_3D, m_volume);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
}

void VolumeTextures::uploadLabels(const LabelMap& labels) {
    m_hasLabels = labels.voxelCount() > 0;
    if (!m_hasLabels) return;
    if (!m_labels) glGenTextures(1, &m_labels);
    const auto& d = labels.geometry().dims;
    glBindTexture(GL_TEXTURE_3D, m_labels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R8UI, d[0], d[1], d[2], 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, labels.data());
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

}  // namespace lucent::render
