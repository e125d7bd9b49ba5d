/// @brief The Segment dock panel: widgets bound to SegmentationModel and the live run.
#include "lucent/ui/SegmentPanel.h"
#include "views/PanelScroll.h"

#include "FieldKeys.h"
#include "segment/GrowCutPage.h"
#include "segment/SegmentPages.h"

#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/ui/BrushTool.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/RunRecording.h"
#include "lucent/ui/SegmentDialogs.h"
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace lucent::ui {

namespace {

QPushButton* button(const QString& text, const char* name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    return b;
}

constexpr render::Orientation kOrientations[] = {render::Orientation::Axial, render::Orientation::Coronal,
                                                 render::Orientation::Sagittal};

}  // namespace

SegmentPanel::SegmentPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QDockWidget("Segment", parent),
      m_model(model),
      m_grid(grid),
      m_live(new LiveSegmentation(model, grid, this)),
      m_segmentation(new SegmentationModel(model, m_live, this)),
      m_growCut(new GrowCutSeeds(model, m_live, this)) {
    setObjectName("segmentPanel");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->addWidget(buildCommon());
    m_pages = new QStackedWidget(body);
    // In the order of Method: RegionGrowing, FuzzyConnectedness, FuzzyCMeans, Snake, Snake3d.
    m_pageOf = {new RegionGrowingPage(m_segmentation, m_live, m_pages),
                new FuzzyConnectednessPage(m_segmentation, m_live, m_pages),
                new FuzzyCMeansPage(m_segmentation, m_live, model, m_pages), new SnakePage(m_segmentation, m_live, m_pages),
                new Snake3dPage(m_segmentation, m_live, m_pages)};
    // Grow from seeds (issue 46) at its Method's place; a method without a page leaves a null there.
    m_pageOf.resize(std::size_t(Method::GrowCut) + 1, nullptr);
    m_pageOf[std::size_t(Method::GrowCut)] = new GrowCutPage(m_segmentation, m_live, m_growCut, m_pages);
    for (SegmentPage* page : m_pageOf)
        if (page) m_pages->addWidget(page);
    layout->addWidget(m_pages);
    layout->addStretch(1);
    body->setMaximumWidth(340);  // the views keep the room
    setScrollingBody(this, body);
    bindModel();
    bindViews();
    letHistoryKeysThrough(body);
    // Recorded frames are the window as it is on screen, as `lucent --record` writes them.
    QWidget* top = window();
    m_recording = new RunRecording(m_live, m_model, [top] { return captureWindow(top); }, top);
    connect(m_recording, &RunRecording::finished, this, &SegmentPanel::message);
    refresh();
}

void SegmentPanel::bindModel() {
    connect(m_segmentation, &SegmentationModel::modeChanged, this, &SegmentPanel::applyMode);
    connect(m_segmentation, &SegmentationModel::toolChanged, this, [this] {
        // Put down after an Accept: only ours (another panel's brush or ruler stays in the views).
        ViewTool* held = m_grid->activeTool();
        ViewTool* tool = m_segmentation->tool();
        if (tool || held == &m_segmentation->seedTool() || held == &m_segmentation->rectangleTool() ||
            held == &m_segmentation->snake3dTool())
            setTool(tool);
    });
    connect(m_segmentation, &SegmentationModel::parametersChanged, this, &SegmentPanel::refresh);
    connect(m_segmentation, &SegmentationModel::seedsChanged, this, &SegmentPanel::refresh);
    connect(m_segmentation, &SegmentationModel::clustersChanged, this, &SegmentPanel::refresh);
    connect(m_segmentation, &SegmentationModel::message, this, &SegmentPanel::showError);
    connect(m_live, &LiveSegmentation::framed, this, &SegmentPanel::refresh);
    // Grow from seeds: a stroke goes into the run when the brush lets go of it; an update's time ends
    // with the frame that shows it settled.
    m_growCut->setStrokeInProgress([this] {
        const auto* brush = dynamic_cast<const BrushTool*>(m_grid->activeTool());
        return brush && brush->stroking();
    });
    const auto settled = [this] { m_growCut->noteFrame(m_live->published().state == SessionState::Finished); };
    connect(m_live, &LiveSegmentation::framed, m_growCut, settled);
    connect(m_live, &LiveSegmentation::stateChanged, m_growCut, settled);
    connect(m_live, &LiveSegmentation::stateChanged, this, &SegmentPanel::refresh);
    connect(m_live, &LiveSegmentation::failed, this, &SegmentPanel::showError);
    connect(m_live, &LiveSegmentation::notice, this, &SegmentPanel::message);  // the status bar
    connect(m_model, &ViewerModel::activeLabelChanged, m_label, [this](std::uint8_t v) { m_label->setValue(v); });
}

void SegmentPanel::bindViews() {
    connect(m_grid, &ViewGrid::activeViewChanged, this, &SegmentPanel::refresh);
    for (auto o : kOrientations) {
        m_grid->view(o)->setOverlayProvider([this](const render::SliceViewGeometry& v) { return overlayFor(v); });
        connect(m_grid->view(o), &SliceViewWidget::hudAction, this, [this](render::HudAction a) {
            switch (a) {
            case render::HudAction::Play: m_live->play(); break;
            case render::HudAction::Pause: m_live->pause(); break;
            case render::HudAction::Step: m_live->step(); break;
            case render::HudAction::Accept: acceptResult(); break;
            case render::HudAction::Cancel: m_live->cancel(); break;
            case render::HudAction::Slower: m_live->setSpeed(slowerSpeed(m_live->speed())); break;
            case render::HudAction::Faster: m_live->setSpeed(fasterSpeed(m_live->speed())); break;
            case render::HudAction::None: break;
            }
            refresh();
        });
    }
}

QWidget* SegmentPanel::buildCommon() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    m_title = new QLabel("Choose a method in the Segment menu", w);
    m_title->setObjectName("segmentTitle");
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    form->addRow(m_title);
    m_backend = new QComboBox(w);
    m_backend->setObjectName("segmentBackend");
    for (const BackendInfo& b : backendTable()) m_backend->addItem(QString::fromUtf8(b.key.data(), qsizetype(b.key.size())));
    // CUDA is offered only where a device is: otherwise its entry is greyed out and says why.
    if (gpu::listDevices().empty()) {
        QStandardItem* cuda = qobject_cast<QStandardItemModel*>(m_backend->model())->item(2);
        cuda->setEnabled(false);
        cuda->setToolTip(gpu::cudaCompiledIn() ? "No CUDA device or driver was found: runs use the CPU."
                                               : "This build has no CUDA engines: runs use the CPU.");
    }
    connect(m_backend, &QComboBox::currentTextChanged, this,
            [this](const QString& name) { m_segmentation->setBackend(gpu::parseBackend(name.toStdString())); });
    form->addRow("Backend", m_backend);
    m_status = new QLabel("-", w);
    m_status->setObjectName("segmentStatus");
    m_status->setWordWrap(true);
    // Its own full-width row under its title: a wrapped label in the form's field column got the
    // height of one line at the dock's width, and a hint of two lines was cut off (issue 43 item 10).
    m_status->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);
    form->addRow(new QLabel("Result", w));
    form->addRow(m_status);
    auto* runRow = new QHBoxLayout;
    m_play = button("Play", "playButton", w);
    m_step = button("Step", "stepButton", w);
    m_perFrame = new QSpinBox(w);
    m_perFrame->setRange(kStepsPerFrame.min, kStepsPerFrame.max);
    m_perFrame->setObjectName("stepsPerFrame");
    m_perFrame->setToolTip("Iterations per step");
    runRow->addWidget(m_play);
    runRow->addWidget(m_step);
    runRow->addWidget(m_perFrame);
    form->addRow(runRow);
    connect(m_play, &QPushButton::clicked, this, [this] { m_live->running() ? m_live->pause() : m_live->play(); refresh(); });
    connect(m_step, &QPushButton::clicked, this, [this] { m_live->step(); });
    connect(m_perFrame, &QSpinBox::valueChanged, this, [this](int n) { m_segmentation->setStepsPerFrame(n); });
    form->addRow("Speed", buildSpeed(w));
    // Shows the model's active label (the label panel's selected row); a value typed here becomes
    // the active label when the result is accepted (not while spinning, which would add labels).
    m_label = new QSpinBox(w);
    m_label->setRange(1, 255);
    m_label->setObjectName("acceptLabel");
    m_label->setValue(m_model->activeLabel());
    // The preview is drawn in the colour of the label it goes into: this value's.
    connect(m_label, &QSpinBox::valueChanged, this, [this] { refresh(); });
    form->addRow("Accept as label", m_label);
    auto* acceptRow = new QHBoxLayout;
    m_accept = button("Accept", "acceptButton", w);
    m_cancel = button("Cancel", "cancelButton", w);
    acceptRow->addWidget(m_accept);
    acceptRow->addWidget(m_cancel);
    form->addRow(acceptRow);
    connect(m_accept, &QPushButton::clicked, this, [this] { acceptResult(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_live->cancel(); });
    return w;
}

QSpinBox* SegmentPanel::buildSpeed(QWidget* parent) {
    // 0 is "max": the spin box's special value, one step below the slowest pace.
    m_speed = new QSpinBox(parent);
    m_speed->setObjectName("runSpeed");
    m_speed->setRange(kUnpaced, kMaxSpeed);
    m_speed->setSpecialValueText("max");
    m_speed->setSuffix(" steps/s");
    m_speed->setValue(m_live->speed());
    m_speed->setToolTip(QString("Steps a second a run takes (%1 to %2), or max: as fast as the engine goes. Each "
                                "method starts at a pace a person can follow; parameter changes are immediate.")
                            .arg(kMinSpeed)
                            .arg(kMaxSpeed));
    connect(m_speed, &QSpinBox::valueChanged, m_live, &LiveSegmentation::setSpeed);
    connect(m_live, &LiveSegmentation::speedChanged, m_speed, [this](int speed) {
        const QSignalBlocker b(m_speed);
        m_speed->setValue(speed);
        refresh();  // the HUD's speed row
    });
    return m_speed;
}

void SegmentPanel::setTool(ViewTool* tool) {
    m_grid->setActiveTool(tool);  // the grid owns it: the other panels' tools let go
}

void SegmentPanel::enterMode(Method method) {
    m_segmentation->enterMode(method);
    applyMode();
}

void SegmentPanel::applyMode() {
    if (const auto mode = m_segmentation->mode()) {
        m_pages->setCurrentWidget(m_pageOf[std::size_t(*mode)]);
        m_live->showSpeedFor(*mode);
    }
    // Grow from seeds paints with the label panel's brush: only our own tools are put down for it.
    ViewTool* held = m_grid->activeTool();
    if (m_segmentation->mode() != Method::GrowCut || held == &m_segmentation->seedTool() ||
        held == &m_segmentation->rectangleTool() || held == &m_segmentation->snake3dTool())
        setTool(m_segmentation->tool());
    show();
    raise();  // the panels share one tabbed area: the chosen method's page in front
    refresh();
}

bool SegmentPanel::startWith(Method method, const SegmentationRequest& request, bool play, QString* error) {
    if (method == Method::GrowCut) {  // its seeds are the label layer, whatever the request holds
        enterMode(method);
        return m_growCut->start(request, play, error);
    }
    const bool ok = m_segmentation->startWith(method, request, play, error);
    applyMode();
    return ok;
}

void SegmentPanel::askFuzzyConnectedness() {
    enterMode(Method::FuzzyConnectedness);
    if (const QString why = m_segmentation->fuzzyConnectednessBlocker(); !why.isEmpty()) return showError(why);
    const FuzzyConnectednessParams& p = m_segmentation->fuzzyConnectedness();
    const auto est = m_segmentation->fuzzyConnectednessEstimate();
    QStringList seeds;
    for (const VoxelIndex& s : m_segmentation->seeds()) seeds << SegmentationModel::seedText(s);
    FcDialog dialog(p, p.objectMean.value_or(est.mean), p.objectSigma.value_or(est.objectSigma),
                    p.diffSigma.value_or(est.diffSigma), seeds, this);
    if (dialog.exec() != QDialog::Accepted) return;
    m_segmentation->startFuzzyConnectedness(dialog.params());
}

void SegmentPanel::askFuzzyCMeans() {
    enterMode(Method::FuzzyCMeans);
    if (const QString why = m_segmentation->fuzzyCMeansBlocker(); !why.isEmpty()) return showError(why);
    FcmDialog dialog(m_segmentation->fuzzyCMeans(), m_segmentation->layerCanMask(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    m_segmentation->startFuzzyCMeans(dialog.params(), dialog.maskedByLayer());
}

void SegmentPanel::askGrowCut() {
    enterMode(Method::GrowCut);
    if (m_growCut->active()) return;  // strokes already update it; the page's Start restarts
    QString why;
    if (!m_growCut->start({}, true, &why)) showError(why);
}

bool SegmentPanel::acceptResult() {
    refresh();  // FCM: the cluster list of a run that finished since the last frame
    const bool changed = m_segmentation->accept(std::uint8_t(m_label->value()));
    refresh();
    return changed;
}

void SegmentPanel::refresh() {
    stages::Scope scope("segment panel: refreshed");
    const auto mode = m_segmentation->mode();
    const std::string_view title = mode ? methodInfo(*mode).title : std::string_view("Choose a method in the Segment menu");
    m_title->setText(QString::fromUtf8(title.data(), qsizetype(title.size())));
    refreshStatus();
    const bool active = m_live->active();
    m_play->setText(m_live->running() ? "Pause" : "Play");
    for (QWidget* w : {static_cast<QWidget*>(m_play), static_cast<QWidget*>(m_step), static_cast<QWidget*>(m_cancel)})
        w->setEnabled(active);
    const bool canAccept = m_segmentation->canAccept();
    m_accept->setEnabled(canAccept);
    m_label->setEnabled(mode != Method::GrowCut);  // grow from seeds writes each label into its own
    {
        const QSignalBlocker b1(m_backend), b2(m_perFrame);
        m_backend->setCurrentIndex(int(m_segmentation->backend()));
        m_perFrame->setValue(m_segmentation->stepsPerFrame());
    }
    {
        stages::Scope pages("segment panel: its pages refreshed");
        for (SegmentPage* page : m_pageOf)
            if (page) page->refresh();
    }
    m_live->setPreviewTargets(m_segmentation->previewTargets(std::uint8_t(m_label->value())));
    // One panel per window: on the active view only (the other views keep their images clear).
    stages::Scope hudScope("segment panel: the HUD's state");
    render::HudState hud = m_live->hudState();
    hud.canAccept = canAccept;
    if (m_growCut->active())
        hud.figure = m_growCut->figureText(m_growCut->figures(m_live->published().steps, m_live->running(), [this] {
            return m_live->figures();
        })).toStdString();
    for (auto o : kOrientations) {
        SliceViewWidget* view = m_grid->view(o);
        view->setHudState(view == m_grid->activeView() ? hud : render::HudState{});
    }
}

void SegmentPanel::refreshStatus() {
    const auto& p = m_live->published();
    const auto mode = m_segmentation->mode();
    if (!m_live->active()) {
        m_status->setText(mode == Method::RegionGrowing && m_segmentation->seeds().empty() ? "click a seed" : "-");
    } else if (m_live->method() == Method::Snake) {
        // The slice as the views number it (from 1): a propagating run moves from slice to slice.
        const QString where = p.last.polygonSlice >= 0 ? QString(" on slice %1").arg(p.last.polygonSlice + 1) : QString();
        m_status->setText(QString("%1: step %2, GL %3, %4 nodes%5")
                              .arg(QString::fromStdString(m_live->shownState()))
                              .arg(p.steps)
                              .arg(p.last.convergence, 0, 'g', 6)
                              .arg(p.last.polygon.size())
                              .arg(where));
    } else {
        m_status->setText(QString("%1: %2 voxels, %3 mL (%4)%5")
                              .arg(QString::fromStdString(m_live->shownState()))
                              .arg(m_live->shownVoxels())
                              .arg(m_live->volumeMl(), 0, 'f', 2)
                              .arg(QString::fromStdString(p.backend))
                              .arg(m_live->snake3dNoEdge().isEmpty() ? QString() : "\n" + m_live->snake3dNoEdge(true)));
    }
}

void SegmentPanel::showError(const QString& message) {
    m_status->setText(message);
    emit this->message(message);
}

}  // namespace lucent::ui
