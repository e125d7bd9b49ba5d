/// @brief GLSL 3.30 reslicing shader and its uniforms.
#include "lucent/render/SliceRenderer.h"

#include "Gl.h"

#include <vector>

namespace lucent::render {

namespace {

const char* kVertex = R"(#version 330 core
// A triangle that covers the viewport; no vertex buffer needed.
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
)";

const char* kFragment = R"(#version 330 core
uniform sampler3D u_volume;
uniform usampler3D u_labels;
uniform usampler3D u_preview;  // the running method's result
uniform int u_hasPreview;
uniform uint u_previewHidden[8];  // preview values not drawn (bit v of word v / 32)
uniform ivec3 u_axisR;         // unit voxel steps along the screen's right and down axes
uniform ivec3 u_axisD;
uniform sampler3D u_heat;      // a soft map (membership, connectivity) as 0..1
// The view's own plane textures (PlaneTextures): used instead of the 3D volume / preview textures
// when set. u_planeAxes: the volume axes of the plane's width and height, then its normal.
uniform sampler2D u_planeVolume;
uniform usampler2D u_planePreview;
uniform sampler2D u_planeHeat;
uniform int u_usePlaneVolume;
uniform int u_usePlanePreview;
uniform int u_usePlaneHeat;
uniform ivec3 u_planeAxes;
uniform int u_linear;          // 0: the nearest voxel, the one the label overlays show
uniform int u_hasHeat;
uniform sampler2D u_colours;
uniform vec3 u_origin;   // voxel index at screen (0, 0)
uniform vec3 u_dx;       // voxel step per screen pixel to the right
uniform vec3 u_dy;       // voxel step per screen pixel downwards
uniform vec3 u_dims;
uniform float u_height;
uniform float u_scale;   // texel -> stored value
uniform float u_offset;
uniform vec2 u_window;   // level, width
uniform float u_opacity;
uniform int u_hasLabels;
uniform vec2 u_cross;    // crosshair in screen pixels (x, y from the top)
uniform vec3 u_crossColour;
out vec4 colour;

// Which map a fetch reads: the volume or the heat (each from the 3D texture or the view's plane).
const int kVolume = 0;
const int kHeat = 1;

float texelOf(int map, ivec3 i) {
    i = clamp(i, ivec3(0), ivec3(u_dims) - 1);  // clamp to edge, as the textures' wrap mode
    ivec2 p = ivec2(i[u_planeAxes.x], i[u_planeAxes.y]);
    if (map == kHeat) return u_usePlaneHeat == 1 ? texelFetch(u_planeHeat, p, 0).r : texelFetch(u_heat, i, 0).r;
    return u_usePlaneVolume == 1 ? texelFetch(u_planeVolume, p, 0).r : texelFetch(u_volume, i, 0).r;
}

// Fetched and weighted here rather than filtered by the texture unit: the same value from the 3D
// texture or the view's plane on every GPU (texture units round ties and weights each their own
// way), and the nearest voxel is the one the label overlays show (floor(v + 0.5)).
float sampleAt(int map, vec3 v, bool linear) {
    if (!linear) return texelOf(map, ivec3(floor(v + 0.5)));
    ivec3 i = ivec3(floor(v));
    vec3 f = v - floor(v);  // 0 across a plane view's normal: its layer exactly
    float c00 = mix(texelOf(map, i), texelOf(map, i + ivec3(1, 0, 0)), f.x);
    float c10 = mix(texelOf(map, i + ivec3(0, 1, 0)), texelOf(map, i + ivec3(1, 1, 0)), f.x);
    float c01 = mix(texelOf(map, i + ivec3(0, 0, 1)), texelOf(map, i + ivec3(1, 0, 1)), f.x);
    float c11 = mix(texelOf(map, i + ivec3(0, 1, 1)), texelOf(map, i + ivec3(1, 1, 1)), f.x);
    return mix(mix(c00, c10, f.y), mix(c01, c11, f.y), f.z);
}

uint previewAt(ivec3 i) {
    if (u_usePlanePreview == 1) return texelFetch(u_planePreview, ivec2(i[u_planeAxes.x], i[u_planeAxes.y]), 0).r;
    return texelFetch(u_preview, i, 0).r;
}

void main() {
    vec2 s = vec2(gl_FragCoord.x, u_height - gl_FragCoord.y);  // top-left origin, pixel centres
    vec3 v = u_origin + s.x * u_dx + s.y * u_dy;               // continuous voxel index
    vec3 t = (v + 0.5) / u_dims;
    vec3 rgb = vec3(0.0);
    if (all(greaterThanEqual(t, vec3(0.0))) && all(lessThanEqual(t, vec3(1.0)))) {
        float value = sampleAt(kVolume, v, u_linear == 1) * u_scale + u_offset;
        float g = clamp((value - (u_window.x - 0.5 * u_window.y)) / u_window.y, 0.0, 1.0);
        rgb = vec3(g);
        if (u_hasLabels == 1) {
            ivec3 i = clamp(ivec3(floor(v + 0.5)), ivec3(0), ivec3(u_dims) - 1);
            uint label = texelFetch(u_labels, i, 0).r;
            if (label != 0u) {
                // The table's alpha is the label's own opacity (0 when hidden) times the view's.
                vec4 c = texelFetch(u_colours, ivec2(int(label), 0), 0);
                rgb = mix(rgb, c.rgb, u_opacity * c.a);
            }
        }
        if (u_hasHeat == 1) {
            // Black-red-yellow-white ramp, more opaque where the value is high; 0 is transparent.
            float h = sampleAt(kHeat, v, true);  // a soft map is always smooth
            vec3 ramp = clamp(vec3(3.0 * h, 3.0 * h - 1.0, 3.0 * h - 2.0), 0.0, 1.0);
            rgb = mix(rgb, ramp, clamp(h * 1.5, 0.0, 1.0) * max(u_opacity, 0.35));
        }
        if (u_hasPreview == 1) {
            // The live result has its own look, apart from every accepted label (solid): its
            // in-plane outline at full strength and a hatched fill (diagonal stripes in screen
            // space), so a run over a label of the same colour is still told apart, the front is
            // seen moving and the image stays readable between the stripes.
            ivec3 i = clamp(ivec3(floor(v + 0.5)), ivec3(0), ivec3(u_dims) - 1);
            ivec3 top = ivec3(u_dims) - 1;
            uint p = previewAt(i);
            if (p != 0u && (u_previewHidden[p >> 5u] & (1u << (p & 31u))) == 0u) {
                vec4 c = texelFetch(u_colours, ivec2(int(p), 1), 0);  // its target label's colour
                bool edge = previewAt(clamp(i + u_axisR, ivec3(0), top)) != p ||
                            previewAt(clamp(i - u_axisR, ivec3(0), top)) != p ||
                            previewAt(clamp(i + u_axisD, ivec3(0), top)) != p ||
                            previewAt(clamp(i - u_axisD, ivec3(0), top)) != p;
                bool stripe = mod(floor(s.x) + floor(s.y), 6.0) < 2.0;
                if (edge)
                    rgb = mix(c.rgb, vec3(1.0), 0.35);
                else if (stripe)
                    rgb = mix(rgb, mix(c.rgb, vec3(1.0), 0.2), 0.85);
            }
        }
    }
    // The one pixel column and row that contain the crosshair point (never none, never two).
    if (u_cross.x >= 0.0 && (floor(s.x) == floor(u_cross.x) || floor(s.y) == floor(u_cross.y))) rgb = u_crossColour;
    colour = vec4(rgb, 1.0);
}
)";

GLuint compile(GLenum type, const char* source, std::string& error) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::vector<char> log(4096);
        glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
        error = std::string("shader compilation failed: ") + log.data();
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

bool SliceRenderer::initialise(std::string& error) {
    const GLuint vs = compile(GL_VERTEX_SHADER, kVertex, error);
    if (!vs) return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, kFragment, error);
    if (!fs) return false;
    m_program = glCreateProgram();
    glAttachShader(m_program, vs);
    glAttachShader(m_program, fs);
    glLinkProgram(m_program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
    if (!ok) {
        error = "shader link failed";
        return false;
    }
    glGenVertexArrays(1, &m_vao);
    auto loc = [&](const char* n) { return glGetUniformLocation(m_program, n); };
    m_uOrigin = loc("u_origin");
    m_uDx = loc("u_dx");
    m_uDy = loc("u_dy");
    m_uDims = loc("u_dims");
    m_uHeight = loc("u_height");
    m_uScale = loc("u_scale");
    m_uOffset = loc("u_offset");
    m_uWindow = loc("u_window");
    m_uOpacity = loc("u_opacity");
    m_uHasLabels = loc("u_hasLabels");
    m_uCross = loc("u_cross");
    m_uCrossColour = loc("u_crossColour");
    m_uVolume = loc("u_volume");
    m_uLabels = loc("u_labels");
    m_uColours = loc("u_colours");
    m_uPreview = loc("u_preview");
    m_uHasPreview = loc("u_hasPreview");
    m_uPreviewHidden = loc("u_previewHidden");
    m_uAxisR = loc("u_axisR");
    m_uAxisD = loc("u_axisD");
    m_uHeat = loc("u_heat");
    m_uHasHeat = loc("u_hasHeat");
    m_uPlaneVolume = loc("u_planeVolume");
    m_uPlanePreview = loc("u_planePreview");
    m_uUsePlaneVolume = loc("u_usePlaneVolume");
    m_uUsePlanePreview = loc("u_usePlanePreview");
    m_uPlaneAxes = loc("u_planeAxes");
    m_uPlaneHeat = loc("u_planeHeat");
    m_uUsePlaneHeat = loc("u_usePlaneHeat");
    m_uLinear = loc("u_linear");
    return true;
}

void SliceRenderer::release() {
    if (m_program) glDeleteProgram(m_program);
    if (m_vao) glDeleteVertexArrays(1, &m_vao);
    m_program = m_vao = 0;
}

void SliceRenderer::draw(const SliceViewGeometry& view, const VolumeTextures& textures, const SliceStyle& style,
                         const PlaneTextures* plane) {
    glViewport(0, 0, view.width(), view.height());
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!textures.hasVolume() || !m_program) return;
    // The view's plane textures stand in for the 3D ones only where they hold the plane shown.
    const auto shown = view.shownVolumePlane();
    const bool planeVolume = plane && shown && plane->volumePlane == shown;
    const bool planePreview = plane && shown && plane->previewPlane == shown;
    const bool planeHeat = plane && shown && plane->heatPlane == shown;
    if (!planeVolume && !textures.hasWholeVolume()) return;  // nothing to sample yet
    // Draw into whatever context is current and leave its bindings as found (QPainter, ImGui and
    // VTK keep their own vertex arrays and programs bound across our call).
    GLint previousVao = 0, previousProgram = 0, previousUnit = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previousVao);
    glGetIntegerv(GL_CURRENT_PROGRAM, &previousProgram);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &previousUnit);
    glUseProgram(m_program);
    Vec3 o, dx, dy;
    view.shaderMapping(o, dx, dy);
    glUniform3f(m_uOrigin, float(o.x), float(o.y), float(o.z));
    glUniform3f(m_uDx, float(dx.x), float(dx.y), float(dx.z));
    glUniform3f(m_uDy, float(dy.x), float(dy.y), float(dy.z));
    const auto d = textures.dims();
    glUniform3f(m_uDims, float(d[0]), float(d[1]), float(d[2]));
    glUniform1f(m_uHeight, float(view.height()));
    glUniform1f(m_uScale, textures.valueScale());
    glUniform1f(m_uOffset, textures.valueOffset());
    glUniform2f(m_uWindow, float(style.window.level), float(std::max(1e-6, style.window.width)));
    glUniform1f(m_uOpacity, style.overlayOpacity);
    glUniform1i(m_uHasLabels, textures.hasLabels() ? 1 : 0);
    glUniform1i(m_uHasPreview, textures.hasPreview() ? 1 : 0);
    glUniform1uiv(m_uPreviewHidden, 8, textures.previewHidden().data());
    glUniform1i(m_uHasHeat, textures.hasHeat() ? 1 : 0);
    const int r = view.rightAxis(), dn = view.downAxis();
    glUniform3i(m_uAxisR, r == 0, r == 1, r == 2);
    glUniform3i(m_uAxisD, dn == 0, dn == 1, dn == 2);
    if (style.showCrosshair) {
        const auto c = view.voxelToScreen(view.cursor());
        glUniform2f(m_uCross, float(c[0]), float(c[1]));
    } else {
        glUniform2f(m_uCross, -1.0f, -1.0f);
    }
    glUniform3f(m_uCrossColour, style.crosshairColour[0], style.crosshairColour[1], style.crosshairColour[2]);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_3D, textures.volumeTexture());
    glUniform1i(m_uVolume, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_3D, textures.labelTexture());
    glUniform1i(m_uLabels, 1);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, textures.colourTable());
    glUniform1i(m_uColours, 2);
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_3D, textures.previewTexture());
    glUniform1i(m_uPreview, 3);
    glActiveTexture(GL_TEXTURE4);
    glBindTexture(GL_TEXTURE_3D, textures.heatTexture());
    glUniform1i(m_uHeat, 4);
    glUniform1i(m_uLinear, textures.linear() ? 1 : 0);
    glUniform1i(m_uUsePlaneVolume, planeVolume ? 1 : 0);
    glUniform1i(m_uUsePlanePreview, planePreview ? 1 : 0);
    glUniform1i(m_uUsePlaneHeat, planeHeat ? 1 : 0);
    if (shown) glUniform3i(m_uPlaneAxes, shown->axisA(), shown->axisB(), shown->normal);
    glActiveTexture(GL_TEXTURE5);
    glBindTexture(GL_TEXTURE_2D, planeVolume ? plane->volumeTexture() : 0);
    glUniform1i(m_uPlaneVolume, 5);
    glActiveTexture(GL_TEXTURE6);
    glBindTexture(GL_TEXTURE_2D, planePreview ? plane->previewTexture() : 0);
    glUniform1i(m_uPlanePreview, 6);
    glActiveTexture(GL_TEXTURE7);
    glBindTexture(GL_TEXTURE_2D, planeHeat ? plane->heatTexture() : 0);
    glUniform1i(m_uPlaneHeat, 7);
    glBindVertexArray(m_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(GLuint(previousVao));
    glUseProgram(GLuint(previousProgram));
    glActiveTexture(GLenum(previousUnit));
}

}  // namespace lucent::render
