/// @brief The 3D snake's page (SegmentPages.h): the start's gestures, the domain, iterations, smoothing,
/// the values' clip.
#include "SegmentPages.h"

#include "ParameterFields.h"

#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/ui/SegmentSettings.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

namespace lucent::ui {

namespace {

/// The margin box's value below its limits: no margin in mm, the 2D snake's percentage rule.
constexpr double kMarginByRule = -1.0;
/// The widest margin and radius the boxes offer (the engines take any; a head is 250 mm across).
constexpr double kMostMm = 500.0;

QString boxText(const VoxelBox& b) {
    // Slices numbered from 1, as the views number them.
    return QString("box %1..%2, %3..%4, slices %5..%6")
        .arg(b.lo[0]).arg(b.hi[0]).arg(b.lo[1]).arg(b.hi[1]).arg(b.lo[2] + 1).arg(b.hi[2] + 1);
}

}  // namespace

Snake3dPage::Snake3dPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
    : SegmentPage(model, live, parent) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Drag a box on any slice view: it reaches through the slices set in Box depth, centred on "
                          "that slice. Click to add a bubble, shift-click on one to remove it. The surface evolves "
                          "in 3D at once; every change runs it again from the start.", this));
    m_depth = new QSpinBox(this);
    m_depth->setObjectName("snake3dDepth");
    m_depth->setRange(kSnake3dDepth.min, kSnake3dDepth.max);
    m_depth->setSuffix(" slices");
    m_depth->setToolTip("A box drawn next reaches through this many slices along the view's normal");
    connect(m_depth, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnake3dDepth(v); });
    form->addRow("Box depth", m_depth);
    m_radius = new QDoubleSpinBox(this);
    m_radius->setObjectName("snake3dRadius");
    m_radius->setDecimals(1);
    m_radius->setRange(0.5, kMostMm);  // a bubble is a ball: its radius is more than nothing
    m_radius->setSuffix(" mm");
    m_radius->setToolTip("The radius of the bubble clicked next (each bubble keeps its own)");
    connect(m_radius, &QDoubleSpinBox::valueChanged, this, [this](double v) { m_model->setSnake3dRadius(v); });
    form->addRow("Bubble radius", m_radius);
    m_margin = new QDoubleSpinBox(this);
    m_margin->setObjectName("snake3dMargin");
    m_margin->setDecimals(1);
    m_margin->setRange(kMarginByRule, kMostMm);
    m_margin->setSpecialValueText(QString("%1 % of the start").arg(kSnake3dLimits.marginPercent));
    m_margin->setSuffix(" mm around the start");
    m_margin->setToolTip("The statistics inside and outside are taken over the start grown by this much: a box "
                         "around a structure gives that structure.");
    connect(m_margin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        m_model->setSnake3dMargin(v <= kMarginByRule ? std::nullopt : std::optional<double>(v));
    });
    form->addRow("Domain", m_margin);
    m_iterations = integerField(parameterRow(Method::Snake3d, "iterations"), "snake3dIterations", this);
    m_iterations->setSpecialValueText("until it converges");
    connect(m_iterations, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnake3dIterations(v); });
    form->addRow("Iterations", m_iterations);
    m_smoothing = integerField(parameterRow(Method::Snake3d, "smoothing"), "snake3dSmoothing", this);
    connect(m_smoothing, &QSpinBox::valueChanged, this, [this](int v) { m_model->setSnake3dSmoothing(v); });
    form->addRow("Smoothing", m_smoothing);
    m_clip = new QCheckBox("Clip the values to the window", this);
    m_clip->setObjectName("snake3dClip");
    m_clip->setToolTip("The statistics see each value clamped to the view's window at the run's start (level ± "
                       "width / 2), as you see them: bone or air in the domain weighs no more than the window's ends. "
                       "A window changed during a run applies to the next start.");
    connect(m_clip, &QCheckBox::toggled, this, [this](bool on) { m_model->setSnake3dClipToWindow(on); });
    form->addRow("Values", m_clip);
    m_values = new QLabel(this);
    m_values->setObjectName("snake3dValues");
    m_values->setWordWrap(true);
    form->addRow(m_values);
    m_start = new QLabel(this);
    m_start->setObjectName("snake3dStart");
    m_start->setWordWrap(true);
    form->addRow(m_start);
    m_clear = new QPushButton("Clear the start", this);
    m_clear->setObjectName("snake3dClear");
    connect(m_clear, &QPushButton::clicked, this, [this] { m_model->clearSnake3dStart(); });
    form->addRow(m_clear);
    m_steps = new StepScrubber("snake3d", form, [this](int i) { m_live->showSnake3dState(i); },
                               [this] { return m_live->snake3dHistory().count(); });
    connect(m_steps->replayButton(), &QPushButton::clicked, this, [this] { replay(); });
    m_stepFigures = new QLabel(this);
    m_stepFigures->setObjectName("snake3dStepFigures");
    form->addRow(m_stepFigures);
}

void Snake3dPage::replay() {
    if (!running(Method::Snake3d) || m_live->snake3dHistory().count() < 2) return;
    m_live->pause();  // a run still going is replayed as far as it got
    m_steps->replay(Method::Snake3d, m_live->speed());
}

QString Snake3dPage::valuesText() const {
    const QString asStored = "Values: as stored, not clipped";
    const auto window = m_model->windowRange();
    if (!running(Method::Snake3d)) {
        const bool clips = m_model->snake3dClipsToWindow() && window;
        return clips ? "Values: clipped to the window, " + m_model->rangeText(*window) : asStored;
    }
    const auto& clip = m_live->request().snake3d.clip;
    if (!clip) return asStored;
    if (window && *clip == *window) return "Values: clipped to the window, " + m_model->rangeText(*clip);
    QString text = "Values: clipped to " + m_model->rangeText(*clip) + ", the window at the run's start";
    if (m_model->snake3dClipsToWindow() && window) text += "; the next start takes " + m_model->rangeText(*window);
    return text;
}

void Snake3dPage::refresh() {
    const QSignalBlocker b1(m_depth), b2(m_radius), b3(m_margin), b4(m_iterations), b5(m_smoothing), b6(m_clip);
    const Snake3dTool& tool = m_model->snake3dTool();
    const Snake3dParams p = m_model->snake3d();
    m_depth->setValue(tool.depth());
    m_radius->setValue(tool.radius());
    m_margin->setValue(p.marginMm.value_or(kMarginByRule));
    m_iterations->setValue(p.iterations);
    m_smoothing->setValue(p.smoothing);
    m_clip->setChecked(m_model->snake3dClipsToWindow());
    m_values->setText(valuesText());
    QStringList parts;
    if (p.box) parts << boxText(*p.box);
    if (const auto n = tool.bubbles().size()) parts << QString("%1 bubble%2").arg(n).arg(n == 1 ? "" : "s");
    m_start->setText(parts.isEmpty() ? QString("No start yet") : "Start: " + parts.join(", "));
    m_clear->setEnabled(tool.hasStart());
    // The handle shows the state the views show: the last one while they follow the run.
    const Snake3dHistory& history = m_live->snake3dHistory();
    const bool scrubbable = running(Method::Snake3d) && history.count() > 1;
    m_steps->setSteps(history.count(), history.shown());
    m_steps->slider()->setEnabled(scrubbable);
    m_steps->replayButton()->setEnabled(scrubbable);
    // What it holds: every step, or the newest ones when its bound let the first go.
    const QString held = m_live->snake3dHistoryText();
    m_steps->slider()->setToolTip((held.isEmpty() ? QString() : held + ".\n") +
                                  "Drag, click the track or use the arrow keys; the last step follows the run again");
    m_stepFigures->setText(m_live->snake3dStateText());
    m_stepFigures->setVisible(!m_stepFigures->text().isEmpty());
}

}  // namespace lucent::ui
