/// @brief Fuzzy connectedness's page: the live threshold, the estimated statistics and the
/// connectivity map's heat (SegmentPages.h).
#include "SegmentPages.h"

#include "lucent/core/seg/ParameterLimits.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace lucent::ui {

FuzzyConnectednessPage::FuzzyConnectednessPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
    : SegmentPage(model, live, parent) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Click seeds, then Segment > Fuzzy connectedness... computes the connectivity map once; "
                          "the threshold then changes the object live.", this));
    m_threshold = new QSlider(Qt::Horizontal, this);
    m_threshold->setObjectName("fcThreshold");
    m_threshold->setRange(0, kThresholdSteps);
    m_thresholdText = new QLabel(this);
    connect(m_threshold, &QSlider::valueChanged, this, [this](int v) {
        m_thresholdText->setText(QString::number(stepsToThreshold(v), 'f', 3));
        m_model->setThreshold(stepsToThreshold(v));
    });
    form->addRow(m_thresholdText, m_threshold);
    m_figures = new QLabel(this);
    form->addRow(m_figures);
    m_heat = new QCheckBox("show the connectivity map (heat)", this);
    m_heat->setObjectName("fcHeat");
    connect(m_heat, &QCheckBox::toggled, this, [this](bool on) {
        if (running(Method::FuzzyConnectedness)) m_live->showSoftMap(on ? 0 : -1);
    });
    form->addRow(m_heat);
    m_seeds = new SeedList(model, this);
    form->addRow(m_seeds);
}

void FuzzyConnectednessPage::refresh() {
    {
        const QSignalBlocker blocker(m_threshold);
        m_threshold->setValue(thresholdToSteps(m_model->fuzzyConnectedness().threshold));
    }
    m_thresholdText->setText(QString::number(stepsToThreshold(m_threshold->value()), 'f', 3));
    m_seeds->refresh();
    if (!m_live->active() && m_heat->isChecked()) m_heat->setChecked(false);
    if (running(Method::FuzzyConnectedness) && m_live->published().state == SessionState::Finished) {
        const auto f = m_live->figures();
        if (f.affinity)
            m_figures->setText(QString("M %1  S %2  D %3")
                                   .arg(f.affinity->mean, 0, 'f', 1)
                                   .arg(f.affinity->objectSigma, 0, 'f', 2)
                                   .arg(f.affinity->diffSigma, 0, 'f', 2));
    }
}

}  // namespace lucent::ui
