/// @brief 2D plane textures of one slice view: allocation on size change, host uploads.
#include "lucent/render/PlaneTextures.h"

#include "Gl.h"

namespace lucent::render {

namespace {

void makeTexture(GLuint& name, GLenum internalFormat, GLenum format, GLenum type, std::array<int, 2> size, bool linear) {
    if (name) glDeleteTextures(1, &name);
    glGenTextures(1, &name);
    glBindTexture(GL_TEXTURE_2D, name);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internalFormat), size[0], size[1], 0, format, type, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

void upload(GLuint name, std::array<int, 2> size, GLenum format, GLenum type, const void* data) {
    glBindTexture(GL_TEXTURE_2D, name);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, size[0], size[1], format, type, data);
}

}  // namespace

bool PlaneTextures::allocate(std::array<int, 2> size) {
    if (size == m_size && m_volume) return false;
    m_size = size;
    makeTexture(m_volume, GL_R16, GL_RED, GL_UNSIGNED_SHORT, size, m_linear);
    // Labels are read with texelFetch: nearest, integer texels.
    makeTexture(m_preview, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, size, false);
    makeTexture(m_heat, GL_R8, GL_RED, GL_UNSIGNED_BYTE, size, false);
    volumePlane.reset();
    previewPlane.reset();
    heatPlane.reset();
    return true;
}

void PlaneTextures::uploadVolume(const std::uint16_t* texels) { upload(m_volume, m_size, GL_RED, GL_UNSIGNED_SHORT, texels); }

void PlaneTextures::uploadPreview(const std::uint8_t* labels) { upload(m_preview, m_size, GL_RED_INTEGER, GL_UNSIGNED_BYTE, labels); }

void PlaneTextures::uploadHeat(const std::uint8_t* heat) { upload(m_heat, m_size, GL_RED, GL_UNSIGNED_BYTE, heat); }

void PlaneTextures::setInterpolation(bool linear) {
    m_linear = linear;
    if (!m_volume) return;
    glBindTexture(GL_TEXTURE_2D, m_volume);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
}

void PlaneTextures::release() {
    const GLuint names[3] = {m_volume, m_preview, m_heat};
    glDeleteTextures(3, names);
    m_volume = m_preview = m_heat = 0;
    m_size = {0, 0};
    volumePlane.reset();
    previewPlane.reset();
    heatPlane.reset();
}

}  // namespace lucent::render
