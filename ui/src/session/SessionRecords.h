/// @brief The session file's records: the grid, a label table entry, a measurement (JSON and back).
#pragma once

#include "SessionReader.h"

#include "lucent/core/LabelTable.h"
#include "lucent/core/Measurement.h"

namespace lucent::ui::session {

QJsonObject gridJson(const Geometry& g);
Geometry readGrid(const Reader& r, const QJsonObject& o);
QJsonObject labelTableEntry(const LabelInfo& l);
LabelInfo readLabelInfo(const Reader& r, const QJsonValue& v);
QJsonObject measurementJson(const Measurement& m);
Measurement readMeasurement(const Reader& r, const QJsonValue& v, const Geometry& grid);

}  // namespace lucent::ui::session
