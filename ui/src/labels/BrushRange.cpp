/// @brief BrushRange: the check box and bounds bound to BrushTool, and the pick at the cursor.
#include "labels/BrushRange.h"

#include "lucent/core/seg/SeedInterval.h"
#include "lucent/ui/BrushTool.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>

#include <cmath>

namespace lucent::ui {

BrushRange::BrushRange(ViewerModel* model, BrushTool* brush, QWidget* parent)
    : QObject(parent), m_model(model), m_brush(brush) {
    m_row = new QWidget(parent);
    auto* layout = new QHBoxLayout(m_row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_on = new QCheckBox("Only values from", m_row);
    m_on->setObjectName("brushRangeOn");
    m_on->setToolTip(
        "The brush and the eraser change only voxels whose value lies in this range "
        "(V picks it at the cursor)");
    m_lower = new QDoubleSpinBox(m_row);
    m_upper = new QDoubleSpinBox(m_row);
    m_lower->setObjectName("brushRangeLower");
    m_upper->setObjectName("brushRangeUpper");
    for (QDoubleSpinBox* box : {m_lower, m_upper}) {
        box->setRange(-1e9, 1e9);
        box->setDecimals(1);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { apply(); });
    }
    layout->addWidget(m_on);
    layout->addWidget(m_lower);
    layout->addWidget(m_upper);
    connect(m_on, &QCheckBox::toggled, this, [this] { apply(); });
    m_pick = new QAction("&Pick brush range at cursor", this);
    m_pick->setObjectName("pickBrushRangeAction");
    m_pick->setShortcut(QKeySequence("V"));
    connect(m_pick, &QAction::triggered, this, [this] { pickAtCursor(); });
}

bool BrushRange::pickAtCursor() {
    if (!m_model->hasVolume()) {
        emit message("Open a volume first");
        return false;
    }
    const Volume& volume = *m_model->volume();
    const Vec3 c = m_model->cursor();
    const VoxelIndex at{int(std::lround(c.x)), int(std::lround(c.y)), int(std::lround(c.z))};
    // The tissue under the cursor, as region growing's first seed takes it.
    const RegionGrowingParams interval = seedInterval(volume, {at}, volume.range());
    {
        const QSignalBlocker a(m_lower), b(m_upper), c2(m_on);
        m_lower->setValue(interval.lower);
        m_upper->setValue(interval.upper);
        m_on->setChecked(true);
    }
    apply();
    emit message(QString("Brush range %1 .. %2").arg(interval.lower).arg(interval.upper));
    return true;
}

void BrushRange::apply() {
    if (m_on->isChecked() && m_lower->value() <= m_upper->value())
        m_brush->setValueRange(std::make_pair(m_lower->value(), m_upper->value()));
    else
        m_brush->setValueRange(std::nullopt);
}

}  // namespace lucent::ui
