/// @brief BrushRange: the check box and bounds bound to BrushTool, and the pick at the cursor.
#include "labels/BrushRange.h"

#include "segment/IntervalHistogram.h"

#include "lucent/core/seg/SeedInterval.h"
#include "lucent/ui/BrushTool.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace lucent::ui {

BrushRange::BrushRange(ViewerModel* model, BrushTool* brush, QWidget* parent)
    : QObject(parent), m_model(model), m_brush(brush) {
    m_row = new QWidget(parent);
    auto* column = new QVBoxLayout(m_row);
    column->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QHBoxLayout;
    column->addLayout(layout);
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
    // Region growing's control: drag a handle or the band on the volume's histogram.
    m_band = new IntervalHistogram(m_row);
    m_band->setObjectName("brushRangeHistogram");
    m_band->setVisible(false);
    column->addWidget(m_band);
    connect(m_band, &IntervalHistogram::intervalEdited, this, [this](double lower, double upper) {
        const QSignalBlocker a(m_lower), b(m_upper);
        m_lower->setValue(lower);
        m_upper->setValue(upper);
        apply();
    });
    connect(m_on, &QCheckBox::toggled, this, [this] { apply(); });
    connect(m_model, &ViewerModel::volumeChanged, this, [this] {
        m_histogram.reset();
        m_band->setHistogram(nullptr);
        m_band->setVisible(false);
    });
    m_pick = new QAction("&Pick brush range at cursor", this);
    m_pick->setObjectName("pickBrushRangeAction");
    m_pick->setShortcut(QKeySequence("V"));
    connect(m_pick, &QAction::triggered, this, [this] { pickAtCursor(); });
}

bool BrushRange::pickAtCursor() {
    if (!m_model->hasVolume()) {
        emit message(ViewerModel::noVolumeMessage);
        return false;
    }
    const Volume& volume = *m_model->volume();
    const Vec3 c = m_model->cursor();
    const VoxelIndex at{int(std::lround(c.x)), int(std::lround(c.y)), int(std::lround(c.z))};
    // The tissue under the cursor, as region growing's first seed takes it.
    showHistogram();
    const RegionGrowingParams interval = seedInterval(volume, {at}, {m_histogram->lo, m_histogram->hi});
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
    if (m_on->isChecked()) showHistogram();
    m_band->setVisible(m_on->isChecked() && m_histogram.has_value());
    m_band->setInterval(m_lower->value(), m_upper->value());
}

void BrushRange::showHistogram() {
    if (m_histogram || !m_model->hasVolume()) return;
    const auto [lo, hi] = m_model->volume()->range();  // a pass over the voxels, once per volume
    m_histogram = intervalHistogram(*m_model->volume(), lo, hi);
    m_band->setHistogram(&*m_histogram);
}

}  // namespace lucent::ui
