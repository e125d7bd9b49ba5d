/// @brief The session file's segmentation block: the method, backend, seeds and every method's
/// parameters (the rows of MethodParameters.h), JSON and back.
#pragma once

#include "SessionReader.h"

#include "lucent/ui/SegmentSettings.h"

namespace lucent::ui::session {

QJsonObject segmentationJson(const SegmentSettings& s);
SegmentSettings readSegmentation(const Reader& r, const QJsonObject& o);

}  // namespace lucent::ui::session
