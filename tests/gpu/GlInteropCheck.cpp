/// @brief CUDA-OpenGL interop on a headless EGL context: the CUDA region-growing engine writes the
/// GPU context's label buffer, GlTextureLink copies it (whole, then a box) into a GL R8UI 3D
/// texture, and GL reads back exactly the engine's labels; then the time of a whole-map copy
/// through interop beside the host upload (glTexSubImage3D) it replaces, on 512^3.
/// Exit 0: passed; 77: skipped (no EGL device, no CUDA device, or registration refused, e.g. on a
/// software GL); 1: failed. usage: lucent_gl_interop_check
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/core/VolumePlane.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GlTextureLink.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace lucent;

namespace {

constexpr int kSkip = 77;

/// A GL 4.5 core context on the first EGL device (the NVIDIA GPU on the device machine), pbuffer.
bool makeContext(std::string& why) {
    auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!queryDevices || !platformDisplay) return why = "EGL has no device enumeration", false;
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (!queryDevices(8, devices, &count) || count == 0) return why = "no EGL device", false;
    for (EGLint d = 0; d < count; ++d) {
        EGLDisplay display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
        if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) continue;
        const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLConfig config;
        EGLint configs = 0;
        if (!eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs == 0) continue;
        const EGLint surfaceAttributes[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        EGLSurface surface = eglCreatePbufferSurface(display, config, surfaceAttributes);
        eglBindAPI(EGL_OPENGL_API);
        const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
        if (context != EGL_NO_CONTEXT && eglMakeCurrent(display, surface, surface, context)) return true;
    }
    return why = "no EGL device gave an OpenGL 4.5 context", false;
}

unsigned labelTexture(std::array<int, 3> d) {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_3D, t);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    const std::size_t voxels = std::size_t(d[0]) * d[1] * d[2];
    std::vector<std::uint8_t> zeros(voxels, 0);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R8UI, d[0], d[1], d[2], 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, zeros.data());
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

std::vector<std::uint8_t> readBack(unsigned texture, std::size_t n) {
    std::vector<std::uint8_t> out(n, 0xee);
    glBindTexture(GL_TEXTURE_3D, texture);
    glGetTexImage(GL_TEXTURE_3D, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, out.data());
    return out;
}

Volume phantom(std::array<int, 3> d) {
    Geometry g;
    g.dims = d;
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < d[2]; ++k)
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i) {
                const int dx = i - d[0] / 2, dy = j - d[1] / 2, dz = k - d[2] / 2;
                const bool inside = dx * dx + dy * dy + dz * dz <= (d[1] / 3) * (d[1] / 3) || (i + 3 * j + 7 * k) % 17 == 0;
                // Outside: values that vary with every index (below the growing interval), so a plane
                // read at a wrong voxel shows.
                v.int16Data()[g.index(i, j, k)] = static_cast<std::int16_t>(inside ? 300 : (7 * i + 13 * j + 31 * k) % 150 - 60);
            }
    return v;
}

/// The engine's labels into the context's device buffer; returns them on the host for checking.
LabelMap segment(gpu::GpuContext& context, const Volume& v) {
    auto engine = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cuda,
                                       std::shared_ptr<gpu::GpuContext>(&context, [](gpu::GpuContext*) {}));
    SegmentationRequest r;
    r.volume = &v;
    const auto& d = v.geometry().dims;
    r.seeds = {{d[0] / 2, d[1] / 2, d[2] / 2}};
    r.regionGrowing = {200, 400, 6};
    engine->start(r);
    engine->run();
    engine->writeLabels(context.labelSink());
    LabelMap host;
    context.downloadLabels(host);
    return host;
}

/// A 2D texture of `size` (`internal` / `format` / `type`), zero-filled: a slice view's plane.
unsigned planeTexture(std::array<int, 2> size, GLenum internal, GLenum format, GLenum type, std::size_t bytes) {
    unsigned t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    std::vector<std::uint8_t> zeros(std::size_t(size[0]) * std::size_t(size[1]) * bytes, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internal), size[0], size[1], 0, format, type, zeros.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

/// Every plane direction, at the first, a middle and the last index, of the label buffer and of
/// the volume (as value + 32768): the 2D textures equal the host's extraction of the same plane.
int checkPlanes(gpu::GpuContext& context, const Volume& v, const LabelMap& labels) {
    const auto& d = v.geometry().dims;
    int failures = 0;
    for (int normal = 0; normal < 3; ++normal)
        for (int index : {0, d[std::size_t(normal)] / 2, d[std::size_t(normal)] - 1}) {
            const VolumePlane plane{normal, index};
            const auto size = planeSize(plane, d);
            const std::size_t n = std::size_t(size[0]) * std::size_t(size[1]);
            std::vector<std::uint8_t> wantLabels(n);
            std::vector<std::uint16_t> wantTexels(n);
            // The convention written out per direction (not through VolumePlane's own indexing):
            // across x the image is (y, z), across y (x, z), across z (x, y).
            for (int q = 0; q < size[1]; ++q)
                for (int p = 0; p < size[0]; ++p) {
                    const std::size_t at = normal == 0   ? v.geometry().index(index, p, q)
                                           : normal == 1 ? v.geometry().index(p, index, q)
                                                         : v.geometry().index(p, q, index);
                    wantLabels[std::size_t(q) * std::size_t(size[0]) + std::size_t(p)] = labels.data()[at];
                    wantTexels[std::size_t(q) * std::size_t(size[0]) + std::size_t(p)] = std::uint16_t(v.int16Data()[at] + 32768);
                }
            const unsigned lt = planeTexture(size, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1);
            const unsigned vt = planeTexture(size, GL_R16, GL_RED, GL_UNSIGNED_SHORT, 2);
            {
                gpu::GlTextureLink labelLink(lt, gpu::GlTextureLink::Shape::Texture2D);
                gpu::GlTextureLink volumeLink(vt, gpu::GlTextureLink::Shape::Texture2D);
                labelLink.copyPlane(context.labelSink().data, d, plane, gpu::GlTextureLink::PlaneElement::Byte, nullptr);
                volumeLink.copyPlane(context.deviceVolume().devicePointer(), d, plane,
                                     gpu::GlTextureLink::PlaneElement::Int16AsUnsigned16, nullptr);
            }
            std::vector<std::uint8_t> gotLabels(n, 0xee);
            std::vector<std::uint16_t> gotTexels(n, 0xeeee);
            glBindTexture(GL_TEXTURE_2D, lt);
            glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, gotLabels.data());
            glBindTexture(GL_TEXTURE_2D, vt);
            glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_UNSIGNED_SHORT, gotTexels.data());
            const unsigned names[2] = {lt, vt};
            glDeleteTextures(2, names);
            const bool same = gotLabels == wantLabels && gotTexels == wantTexels;
            if (!same) std::printf("FAIL: plane across axis %d at %d differs from the host's\n", normal, index);
            failures += !same;
        }
    std::printf("%s: labels' and volume's planes through interop (3 directions x 3 indices) equal the host's\n",
                failures ? "FAIL" : "PASS");
    return failures;
}

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

}  // namespace

int main() {
    if (gpu::listDevices().empty()) {
        std::printf("SKIP: no CUDA device\n");
        return kSkip;
    }
    std::string why;
    if (!makeContext(why)) {
        std::printf("SKIP: %s\n", why.c_str());
        return kSkip;
    }
    std::printf("GL: %s, %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(glGetString(GL_VERSION)));
    int failures = 0;
    {
        const std::array<int, 3> d{97, 61, 33};  // odd sizes: rows not aligned to anything
        const Volume v = phantom(d);
        gpu::GpuContext context(v);
        const LabelMap expected = segment(context, v);
        const unsigned texture = labelTexture(d);
        try {
            gpu::GlTextureLink link(texture);
            link.copyFrom(context.labelSink().data, d, 1, wholeBox(v.geometry()), context.stream());
            const auto whole = readBack(texture, v.voxelCount());
            const bool same = std::memcmp(whole.data(), expected.data(), whole.size()) == 0;
            std::printf("%s: whole label map through interop equals the engine's (%zu labelled voxels)\n", same ? "PASS" : "FAIL",
                        expected.count(1));
            failures += !same;
            // A box only: set the texture to 7 from the host, copy a box, the rest must stay 7.
            std::vector<std::uint8_t> sevens(v.voxelCount(), 7);
            glBindTexture(GL_TEXTURE_3D, texture);
            glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, d[0], d[1], d[2], GL_RED_INTEGER, GL_UNSIGNED_BYTE, sevens.data());
            const VoxelBox box{{5, 9, 4}, {70, 40, 20}};
            link.copyFrom(context.labelSink().data, d, 1, box, context.stream());
            const auto part = readBack(texture, v.voxelCount());
            std::size_t wrong = 0;
            for (int k = 0; k < d[2]; ++k)
                for (int j = 0; j < d[1]; ++j)
                    for (int i = 0; i < d[0]; ++i) {
                        const std::size_t idx = v.geometry().index(i, j, k);
                        wrong += part[idx] != (box.contains(i, j, k) ? expected[idx] : 7);
                    }
            std::printf("%s: a box through interop changes that box only (%zu wrong voxels)\n", wrong ? "FAIL" : "PASS", wrong);
            failures += wrong != 0;
            failures += checkPlanes(context, v, expected);
        } catch (const std::exception& e) {
            std::printf("SKIP: %s\n", e.what());
            return kSkip;
        }
    }
    {
        // The figure that matters for a frame: a whole 512^3 label map into the texture.
        const std::array<int, 3> d{512, 512, 512};
        const Volume v = phantom(d);
        gpu::GpuContext context(v);
        const LabelMap host = segment(context, v);
        const unsigned texture = labelTexture(d);
        gpu::GlTextureLink link(texture);
        std::vector<double> interop, upload;
        for (int r = 0; r < 7; ++r) {
            auto t0 = std::chrono::steady_clock::now();
            link.copyFrom(context.labelSink().data, d, 1, wholeBox(v.geometry()), context.stream());
            interop.push_back(ms(t0));
            t0 = std::chrono::steady_clock::now();
            glBindTexture(GL_TEXTURE_3D, texture);
            glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, d[0], d[1], d[2], GL_RED_INTEGER, GL_UNSIGNED_BYTE, host.data());
            glFinish();
            upload.push_back(ms(t0));
        }
        std::sort(interop.begin(), interop.end());
        std::sort(upload.begin(), upload.end());
        std::printf("512^3 labels (128 MiB) into the GL texture, median of 7: interop %.3f ms, host upload %.3f ms\n",
                    interop[3], upload[3]);
        const auto back = readBack(texture, v.voxelCount());
        const bool same = std::memcmp(back.data(), host.data(), back.size()) == 0;
        std::printf("%s: 512^3 texture holds the engine's labels\n", same ? "PASS" : "FAIL");
        failures += !same;
    }
    std::printf("%s\n", failures ? "FAILED" : "ALL PASSED");
    return failures ? 1 : 0;
}
