/// @brief The Segment panel's settings as a session keeps them (SegmentationModel.h): taken and given back.
#include "lucent/ui/SegmentationModel.h"


#include "lucent/core/ValuePrecision.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <tuple>
#include <cmath>

namespace lucent::ui {

SegmentSettings SegmentationModel::settings() const {
    SegmentSettings s;
    s.mode = m_mode;
    s.request = request();
    s.backend = backendKey(m_backend);  // the one table's key (Backend.h)
    s.stepsPerFrame = m_stepsPerFrame;
    s.snakeDomainMargin = m_snakeMargin;
    saveSnake3d(s);
    return s;
}

void SegmentationModel::restoreSettings(const SegmentSettings& s) {
    m_runner->cancel();
    if (m_viewer->hasVolume()) dataRange();  // the interval's limits, before its values
    // SessionFile checks names; a stray one keeps the default.
    setBackend(backendFromKey(s.backend.toStdString()).value_or(Backend::Auto));
    setStepsPerFrame(s.stepsPerFrame);
    const SegmentationRequest& r = s.request;
    m_regionGrowing = r.regionGrowing;
    if (m_viewer->hasVolume())
        std::tie(m_regionGrowing.lower, m_regionGrowing.upper) = shownInterval(
            r.regionGrowing.lower, r.regionGrowing.upper, m_viewer->volume()->pixelType(), intervalDecimals());
    m_regionGrowing.connectivity = r.regionGrowing.connectivity == 26 ? 26 : 6;
    m_fc = r.fuzzyConnectedness;
    m_fcm = r.fuzzyCMeans;
    m_snake = r.snake;
    m_snakeMargin = std::clamp(s.snakeDomainMargin, kSnakeDomainMargin.min, kSnakeDomainMargin.max);
    m_seedTool.setSeeds(r.seeds);
    restoreSnake3d(s);
    emit parametersChanged();
    emit seedsChanged();
    if (s.mode) enterMode(*s.mode);
}

}  // namespace lucent::ui
