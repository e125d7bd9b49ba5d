/// @brief Region growing's page: seeds, interval boxes and sliders, neighbours (SegmentPages.h).
#include "SegmentPages.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

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
    m_lower = new QSpinBox(this);
    m_upper = new QSpinBox(this);
    m_lower->setObjectName("srgLowerBox");
    m_upper->setObjectName("srgUpperBox");
    m_lowerSlider = new QSlider(Qt::Horizontal, this);
    m_upperSlider = new QSlider(Qt::Horizontal, this);
    m_lowerSlider->setObjectName("srgLower");
    m_upperSlider->setObjectName("srgUpper");
    for (QSpinBox* b : {m_lower, m_upper}) {
        b->setRange(-32768, 32767);
        // A typed value applies on Return (or leaving the field), not digit by digit: typing 300
        // must not grow the region at 3 and 30 first.
        b->setKeyboardTracking(false);
    }
    for (QSlider* s : {m_lowerSlider, m_upperSlider}) s->setRange(-32768, 32767);
    form->addRow("Lower", m_lower);
    form->addRow(m_lowerSlider);
    form->addRow("Upper", m_upper);
    form->addRow(m_upperSlider);
    // Box and slider show one value; either moving sets the model's interval, which regrows.
    for (auto [box, s] : {std::pair{m_lower, m_lowerSlider}, std::pair{m_upper, m_upperSlider}}) {
        connect(s, &QSlider::valueChanged, box, &QSpinBox::setValue);
        connect(box, &QSpinBox::valueChanged, s, &QSlider::setValue);
        connect(box, &QSpinBox::valueChanged, this, [this] { m_model->setInterval(m_lower->value(), m_upper->value()); });
    }
    m_connectivity = new QComboBox(this);
    m_connectivity->addItems({"6 (faces)", "26 (faces, edges, corners)"});
    connect(m_connectivity, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_model->setConnectivity(i == 1 ? 26 : 6); });
    form->addRow("Neighbours", m_connectivity);
    m_seeds = new SeedList(model, this);
    form->addRow(m_seeds);
}

void RegionGrowingPage::refresh() {
    const QSignalBlocker b1(m_lower), b2(m_upper), b3(m_lowerSlider), b4(m_upperSlider), b5(m_connectivity);
    if (const auto limits = m_model->intervalLimits()) {
        const int from = int(limits->first), to = int(limits->second);
        for (QSpinBox* box : {m_lower, m_upper}) box->setRange(from, to);
        for (QSlider* s : {m_lowerSlider, m_upperSlider}) s->setRange(from, to);
    }
    const int lower = int(std::lround(m_model->lower())), upper = int(std::lround(m_model->upper()));
    m_lower->setValue(lower);
    m_lowerSlider->setValue(lower);
    m_upper->setValue(upper);
    m_upperSlider->setValue(upper);
    m_connectivity->setCurrentIndex(m_model->connectivity() == 26 ? 1 : 0);
    m_seeds->refresh();
}

}  // namespace lucent::ui
