/// @brief The region snake's page: the scrubber over the run's steps, propagation (SegmentPages.h).
#include "SegmentPages.h"

#include "ParameterFields.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QPushButton>
#include <QSpinBox>

#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/ui/SegmentSettings.h"

namespace lucent::ui {

SnakePage::SnakePage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
    : SegmentPage(model, live, parent) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Drag a rectangle on an axial slice. The snake plays until it converges; the scrubber "
                          "shows any earlier step.", this));
    m_steps = new StepScrubber("snake", form, [this](int i) { m_live->showStep(i); },
                               [this] { return m_live->polygonCount(); });
    connect(m_steps->replayButton(), &QPushButton::clicked, this, [this] { replay(); });
    m_stepFigures = new QLabel(this);
    m_stepFigures->setObjectName("snakeStepFigures");
    form->addRow(m_stepFigures);
    m_propagate = new QCheckBox("continue on the neighbouring slices (3D mask)", this);
    m_propagate->setObjectName("snakePropagate");
    connect(m_propagate, &QCheckBox::toggled, this, [this](bool on) { m_model->setPropagate(on); });
    form->addRow(m_propagate);
    // What changes the result: the image the statistics see, and the step rules.
    m_margin = new QSpinBox(this);
    m_margin->setObjectName("snakeDomainMargin");
    m_margin->setRange(kSnakeDomainMargin.min, kSnakeDomainMargin.max);
    m_margin->setSpecialValueText("whole slice");  // shown at -1, the paper's own setting
    m_margin->setSuffix(" % around the box");
    m_margin->setToolTip("The statistics are taken over the drawn box grown by this much: a box around a structure "
                         "gives that structure. The whole slice finds the slice's strongest split.");
    connect(m_margin, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnakeDomainMargin(v); });
    form->addRow("Domain", m_margin);
    m_stepMax = integerField(parameterRow(Method::Snake, "step_max"), "snakeStepMax", this);
    connect(m_stepMax, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnakeStepMax(v); });
    form->addRow("First step", m_stepMax);
    m_minSegment = integerField(parameterRow(Method::Snake, "min_segment"), "snakeMinSegment", this);
    connect(m_minSegment, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnakeMinSegment(v); });
    form->addRow("Split segments from", m_minSegment);
}

void SnakePage::replay() {
    if (!running(Method::Snake) || m_live->polygonCount() < 2) return;
    m_live->pause();  // a run still going is replayed as far as it got
    m_steps->replay(Method::Snake, m_live->speed());
}

void SnakePage::refresh() {
    const QSignalBlocker b1(m_propagate), b2(m_margin), b3(m_stepMax), b4(m_minSegment);
    m_propagate->setChecked(m_model->snake().propagate);
    m_margin->setValue(m_model->snakeDomainMargin());
    m_stepMax->setValue(m_model->snake().stepMax);
    m_minSegment->setValue(m_model->snake().minSegment);
    // The handle shows the step the views show: the last one while they follow the run.
    if (running(Method::Snake)) m_steps->setSteps(m_live->polygonCount(), m_live->shownStep());
    m_steps->replayButton()->setEnabled(running(Method::Snake) && m_live->polygonCount() > 1);
    m_stepFigures->setText(m_live->shownStepText());
    m_stepFigures->setVisible(!m_stepFigures->text().isEmpty());
}

}  // namespace lucent::ui
