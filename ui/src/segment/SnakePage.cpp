/// @brief The region snake's page: the scrubber over the run's steps, propagation (SegmentPages.h).
#include "SegmentPages.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>

namespace lucent::ui {

SnakePage::SnakePage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
    : SegmentPage(model, live, parent) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Drag a rectangle on an axial slice. The snake plays until it converges; the scrubber "
                          "shows any earlier step.", this));
    m_scrubber = new QSlider(Qt::Horizontal, this);
    m_scrubber->setObjectName("snakeScrubber");
    m_scrubber->setRange(0, 0);
    connect(m_scrubber, &QSlider::sliderMoved, this, [this](int i) { m_live->showStep(i); });
    form->addRow("Step", m_scrubber);
    m_propagate = new QCheckBox("continue on the neighbouring slices (3D mask)", this);
    m_propagate->setObjectName("snakePropagate");
    connect(m_propagate, &QCheckBox::toggled, this, [this](bool on) { m_model->setPropagate(on); });
    form->addRow(m_propagate);
}

void SnakePage::refresh() {
    const QSignalBlocker blocker(m_propagate);
    m_propagate->setChecked(m_model->snake().propagate);
    // While the views follow the run, the scrubber's handle follows its last step.
    if (running(Method::Snake) && m_live->shownStep() < 0) {
        m_scrubber->setRange(0, std::max(0, m_live->polygonCount() - 1));
        m_scrubber->setValue(m_scrubber->maximum());
    }
}

}  // namespace lucent::ui
