/// @brief Reading the 3D pane's pixels in the viewer tests: a label colour found whatever the shading,
/// the orientation marker's corner left out, the middle of the pane.
#pragma once

#include "lucent/render/Scene3D.h"

#include <QImage>

#include <array>
#include <cmath>
#include <cstdint>

namespace lucent::testing {

/// In the orientation marker's corner (bottom left), which covers the scene there.
inline bool inMarker(const QImage& img, int x, int y) {
    return x < img.width() * render::Scene3D::kMarkerShare && y >= img.height() * (1 - render::Scene3D::kMarkerShare);
}

/// Pixels of colour `rgb` as shading scales it: the channels' ratios compared, on pixels bright enough.
inline int colourPixels(const QImage& img, std::array<std::uint8_t, 3> rgb, int tolerance) {
    const double target = rgb[0] + rgb[1] + rgb[2];
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            const double sum = qRed(c) + qGreen(c) + qBlue(c);
            if (sum < 120 || inMarker(img, x, y)) continue;
            const double k = target / sum;
            n += std::abs(qRed(c) * k - rgb[0]) < tolerance && std::abs(qGreen(c) * k - rgb[1]) < tolerance &&
                 std::abs(qBlue(c) * k - rgb[2]) < tolerance;
        }
    return n;
}

/// The middle of the pane (40 x 40 pixels), where the camera's focal point, the volume's centre, is.
inline QImage middleOf(const QImage& img) { return img.copy(img.width() / 2 - 20, img.height() / 2 - 20, 40, 40); }

}  // namespace lucent::testing
