/// @brief Region growing's page: seeds, interval boxes and histogram, neighbours (SegmentPages.h).
#include "SegmentPages.h"

#include "IntervalHistogram.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QDoubleSpinBox>

#include <cmath>

namespace lucent::ui {

QLabel* pageNote(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setStyleSheet("color: palette(mid);");
    return label;
}

RegionGrowingPage::RegionGrowingPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
    : SegmentPage(model, live, parent) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Click seeds on any view (shift-click removes one). The region regrows while the "
                          "interval moves.", this));
    m_lower = new QDoubleSpinBox(this);
    m_upper = new QDoubleSpinBox(this);
    m_lower->setObjectName("srgLowerBox");
    m_upper->setObjectName("srgUpperBox");
    for (QDoubleSpinBox* b : {m_lower, m_upper}) {
        b->setDecimals(0);
        b->setRange(-32768, 32767);
        // A typed value applies on Return (or leaving the field), not digit by digit: typing 300
        // must not grow the region at 3 and 30 first.
        b->setKeyboardTracking(false);
        connect(b, &QDoubleSpinBox::valueChanged, this,
                [this] { m_model->setInterval(m_lower->value(), m_upper->value()); });
    }
    // The histogram shows where the interval lies among the volume's values. It keeps a drag's
    // fractions (a fine drag on a narrow range moves a tenth of a value per pixel) while the model
    // keeps the data's precision (whole values for integer data), which refresh() shows in the boxes.
    m_histogram = new IntervalHistogram(this);
    connect(m_histogram, &IntervalHistogram::intervalEdited, this,
            [this](double lower, double upper) { m_model->setInterval(lower, upper); });
    form->addRow("Lower", m_lower);
    form->addRow("Upper", m_upper);
    form->addRow(m_histogram);
    m_connectivity = new QComboBox(this);
    m_connectivity->addItems({"6 (faces)", "26 (faces, edges, corners)"});
    connect(m_connectivity, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_model->setConnectivity(i == 1 ? 26 : 6); });
    form->addRow("Neighbours", m_connectivity);
    m_seeds = new SeedList(model, this);
    form->addRow(m_seeds);
}

void RegionGrowingPage::refresh() {
    const QSignalBlocker b1(m_lower), b2(m_upper), b5(m_connectivity);
    // Decimals before the range and the values: a box rounds what it holds to its decimals.
    const int decimals = m_model->intervalDecimals();
    for (QDoubleSpinBox* box : {m_lower, m_upper}) {
        box->setDecimals(decimals);
        box->setSingleStep(std::pow(10.0, -decimals) * (decimals > 0 ? 10 : 1));
    }
    if (const auto limits = m_model->intervalLimits())
        for (QDoubleSpinBox* box : {m_lower, m_upper}) box->setRange(limits->first, limits->second);
    m_lower->setValue(m_model->lower());
    m_upper->setValue(m_model->upper());
    m_histogram->setHistogram(m_model->valueHistogram());
    m_histogram->setInterval(m_model->lower(), m_model->upper());
    m_connectivity->setCurrentIndex(m_model->connectivity() == 26 ? 1 : 0);
    m_seeds->refresh();
}

}  // namespace lucent::ui
