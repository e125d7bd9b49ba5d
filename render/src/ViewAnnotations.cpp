/// @brief The scale bar's rounding: a round length the eye reads at once, near a fifth of the view.
#include "lucent/render/ViewAnnotations.h"

namespace lucent::render {

double scaleBarMm(double viewWidth, double pixelsPerMm) {
    if (!(pixelsPerMm > 0)) return 0;
    const double target = viewWidth / 5.0 / pixelsPerMm;
    double mm = 1;
    for (double s : {1, 2, 5, 10, 20, 50, 100, 200, 500})
        if (s <= target) mm = s;
    return mm;
}

}  // namespace lucent::render
