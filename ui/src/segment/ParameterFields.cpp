/// @brief Spin boxes bound to the parameter table's rows (ParameterFields.h).
#include "ParameterFields.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lucent::ui {

namespace {

QString qtext(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

/// "the object's standard deviation (greater than 0; stored units)": the help with what is allowed.
QString toolTip(const Parameter& row) {
    QString tip = qtext(row.help) + " (" + QString::fromStdString(row.rangeText());
    if (!row.unit.empty()) tip += "; " + qtext(row.unit);
    return tip + ")";
}

/// A short unit shown in the box ("px", "mm"); longer ones stay in the tool tip.
QString suffix(const Parameter& row) { return row.unit.size() <= 2 ? (row.unit.empty() ? QString() : " " + qtext(row.unit)) : QString(); }

}  // namespace

const Parameter& parameterRow(Method method, std::string_view key) {
    for (const Parameter* p : parametersOf(method))
        if (p->key == key) return *p;
    std::fprintf(stderr, "lucent: no parameter '%.*s' for %s\n", int(key.size()), key.data(), methodName(method));
    std::abort();
}

QSpinBox* integerField(const Parameter& row, const char* objectName, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(int(row.limit.min) + (row.limit.minOpen ? 1 : 0), int(std::min(row.limit.max, kFieldCap)));
    box->setValue(int(row.limit.byDefault));
    box->setSuffix(suffix(row));
    box->setToolTip(toolTip(row));
    box->setObjectName(objectName);
    return box;
}

QDoubleSpinBox* numberField(const Parameter& row, int decimals, const char* objectName, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setDecimals(decimals);
    const double step = std::pow(10.0, -decimals);
    box->setRange(std::max(row.limit.min, -kFieldCap) + (row.limit.minOpen ? step : 0.0),
                  std::min(row.limit.max, kFieldCap));
    box->setValue(row.limit.byDefault);
    box->setSuffix(suffix(row));
    box->setToolTip(toolTip(row));
    box->setObjectName(objectName);
    return box;
}

}  // namespace lucent::ui
