/// @brief Segment menu, dock panel pages and their wiring to the live run and the view tools.
#include "lucent/ui/SegmentPanel.h"

#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/render/VolumeTextures.h"
#include "lucent/ui/SegmentDialogs.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace lucent::ui {

namespace {

constexpr int kRegionGrowingPage = 0, kSnakePage = 1, kFcPage = 2, kFcmPage = 3;

int pageOf(Method m) {
    switch (m) {
    case Method::RegionGrowing: return kRegionGrowingPage;
    case Method::Snake: return kSnakePage;
    case Method::FuzzyConnectedness: return kFcPage;
    case Method::FuzzyCMeans: return kFcmPage;
    }
    return 0;
}

QSlider* slider(const char* name, QWidget* parent) {
    auto* s = new QSlider(Qt::Horizontal, parent);
    s->setObjectName(name);
    return s;
}

/// A sentence of help at the top of a page (wrapped, so it never widens the dock).
QLabel* note(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setStyleSheet("color: palette(mid);");
    return label;
}

QPushButton* button(const QString& text, const char* name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    return b;
}

}  // namespace

SegmentPanel::SegmentPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QDockWidget("Segment", parent), m_model(model), m_grid(grid), m_live(new LiveSegmentation(model, grid, this)) {
    setObjectName("segmentPanel");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->addWidget(buildCommon());
    m_pages = new QStackedWidget(body);
    m_pages->addWidget(buildRegionGrowingPage());
    m_pages->addWidget(buildSnakePage());
    m_pages->addWidget(buildFcPage());
    m_pages->addWidget(buildFcmPage());
    layout->addWidget(m_pages);
    layout->addStretch(1);
    setWidget(body);
    body->setMaximumWidth(340);  // the views keep the room
    m_seedTool.changed = [this] { seedsChanged(); };
    m_seedTool.dragged = [this](double dx, double dy, bool started) {
        // Up widens, down narrows; right raises, left lowers; a pixel moves 0.5 % of the range.
        if (m_mode != Method::RegionGrowing || !m_model->hasVolume()) return;
        if (started) m_dragInterval = {double(m_lower->value()), double(m_upper->value())};
        const auto [lo, hi] = dataRange();
        const double unit = std::max(1.0, 0.005 * (hi - lo));
        const double centre = 0.5 * (m_dragInterval[0] + m_dragInterval[1]) + dx * unit;
        const double half = std::max(0.0, 0.5 * (m_dragInterval[1] - m_dragInterval[0]) + dy * unit);
        setInterval(centre - half, centre + half);
    };
    m_rectTool.finished = [this](int slice, std::array<int, 4> rect) { snakeRectangle(slice, rect); };
    m_rectTool.refused = [this](const std::string& why) { showError(QString::fromStdString(why)); };
    connect(m_live, &LiveSegmentation::framed, this, &SegmentPanel::refresh);
    connect(m_live, &LiveSegmentation::stateChanged, this, &SegmentPanel::refresh);
    connect(m_live, &LiveSegmentation::failed, this, &SegmentPanel::showError);
    connect(model, &ViewerModel::volumeChanged, this, [this] {
        m_seedTool.clear();
        m_range.reset();  // computed when region growing first needs it, not on every load
        refresh();
    });
    connect(model, &ViewerModel::historyChanged, this, &SegmentPanel::refreshUndo);
    for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal}) {
        m_grid->view(o)->setOverlayProvider([this](const render::SliceViewGeometry& v) { return overlayFor(v); });
        connect(m_grid->view(o), &SliceViewWidget::hudAction, this, [this](render::HudAction a) {
            switch (a) {
            case render::HudAction::Play: m_live->play(); break;
            case render::HudAction::Pause: m_live->pause(); break;
            case render::HudAction::Step: m_live->step(); break;
            case render::HudAction::Accept: acceptResult(); break;
            case render::HudAction::Cancel: m_live->cancel(); break;
            case render::HudAction::None: break;
            }
            refresh();
        });
    }
    refresh();
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
    m_backend->addItems({"auto", "cpu", "cuda"});
    // CUDA is offered only where a device is: otherwise its entry is greyed out and says why.
    if (gpu::listDevices().empty()) {
        QStandardItem* cuda = qobject_cast<QStandardItemModel*>(m_backend->model())->item(2);
        cuda->setEnabled(false);
        cuda->setToolTip(gpu::cudaCompiledIn() ? "No CUDA device or driver was found: runs use the CPU."
                                               : "This build has no CUDA engines: runs use the CPU.");
    }
    connect(m_backend, &QComboBox::currentTextChanged, this,
            [this](const QString& name) { m_live->setBackend(gpu::parseBackend(name.toStdString())); });
    form->addRow("Backend", m_backend);
    m_status = new QLabel("-", w);
    m_status->setObjectName("segmentStatus");
    m_status->setWordWrap(true);
    form->addRow("Result", m_status);
    auto* runRow = new QHBoxLayout;
    m_play = button("Play", "playButton", w);
    m_step = button("Step", "stepButton", w);
    m_perFrame = new QSpinBox(w);
    m_perFrame->setRange(1, 1000);
    m_perFrame->setObjectName("stepsPerFrame");
    m_perFrame->setToolTip("Iterations per step");
    runRow->addWidget(m_play);
    runRow->addWidget(m_step);
    runRow->addWidget(m_perFrame);
    form->addRow(runRow);
    connect(m_play, &QPushButton::clicked, this, [this] { m_live->running() ? m_live->pause() : m_live->play(); refresh(); });
    connect(m_step, &QPushButton::clicked, this, [this] { m_live->step(); });
    connect(m_perFrame, &QSpinBox::valueChanged, this, [this](int n) { m_live->setStepsPerFrame(n); });
    // Shows the model's active label (the label panel's selected row); a value typed here becomes
    // the active label when the result is accepted (not while spinning, which would add labels).
    m_label = new QSpinBox(w);
    m_label->setRange(1, 255);
    m_label->setObjectName("acceptLabel");
    m_label->setValue(m_model->activeLabel());
    form->addRow("Accept as label", m_label);
    connect(m_model, &ViewerModel::activeLabelChanged, m_label, [this](std::uint8_t v) { m_label->setValue(v); });
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

QWidget* SegmentPanel::buildRegionGrowingPage() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    form->addRow(note("Click seeds on any view (shift-click removes one). The region regrows while the "
                            "interval moves.", w));
    m_lower = new QSpinBox(w);
    m_upper = new QSpinBox(w);
    m_lower->setObjectName("srgLowerBox");
    m_upper->setObjectName("srgUpperBox");
    m_lowerSlider = slider("srgLower", w);
    m_upperSlider = slider("srgUpper", w);
    for (QSpinBox* b : {m_lower, m_upper}) b->setRange(-32768, 32767);
    for (QSlider* s : {m_lowerSlider, m_upperSlider}) s->setRange(-32768, 32767);
    form->addRow("Lower", m_lower);
    form->addRow(m_lowerSlider);
    form->addRow("Upper", m_upper);
    form->addRow(m_upperSlider);
    // Box and slider show one value; either moving regrows the region.
    for (auto [box, s] : {std::pair{m_lower, m_lowerSlider}, std::pair{m_upper, m_upperSlider}}) {
        connect(s, &QSlider::valueChanged, box, &QSpinBox::setValue);
        connect(box, &QSpinBox::valueChanged, s, &QSlider::setValue);
        connect(box, &QSpinBox::valueChanged, this, [this] { intervalMoved(); });
    }
    m_connectivity = new QComboBox(w);
    m_connectivity->addItems({"6 (faces)", "26 (faces, edges, corners)"});
    connect(m_connectivity, &QComboBox::currentIndexChanged, this, [this] { intervalMoved(); });
    form->addRow("Neighbours", m_connectivity);
    m_seedCount = new QLabel("no seeds", w);
    auto* clear = button("Clear seeds", "clearSeeds", w);
    connect(clear, &QPushButton::clicked, this, [this] {
        m_seedTool.clear();
        m_live->cancel();
        refresh();
    });
    form->addRow(m_seedCount, clear);
    return w;
}

QWidget* SegmentPanel::buildSnakePage() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    form->addRow(note("Drag a rectangle on an axial slice. The snake plays until it converges; the scrubber "
                            "shows any earlier step.", w));
    m_scrubber = slider("snakeScrubber", w);
    m_scrubber->setRange(0, 0);
    connect(m_scrubber, &QSlider::sliderMoved, this, [this](int i) { m_live->showStep(i); });
    form->addRow("Step", m_scrubber);
    m_propagate = new QCheckBox("continue on the neighbouring slices (3D mask)", w);
    m_propagate->setObjectName("snakePropagate");
    form->addRow(m_propagate);
    return w;
}

QWidget* SegmentPanel::buildFcPage() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    form->addRow(note("Click seeds, then Segment > Fuzzy connectedness... computes the connectivity map once; "
                            "the threshold then changes the object live.", w));
    m_threshold = slider("fcThreshold", w);
    m_threshold->setRange(0, 1000);
    m_threshold->setValue(500);
    m_thresholdText = new QLabel("0.500", w);
    connect(m_threshold, &QSlider::valueChanged, this, [this](int v) {
        m_thresholdText->setText(QString::number(v / 1000.0, 'f', 3));
        if (m_syncing || !m_live->active() || m_live->method() != Method::FuzzyConnectedness) return;
        SegmentationRequest r = m_live->request();
        r.fuzzyConnectedness.threshold = v / 1000.0;
        m_live->update(r);
    });
    form->addRow(m_thresholdText, m_threshold);
    m_fcFigures = new QLabel(w);
    form->addRow(m_fcFigures);
    m_fcHeat = new QCheckBox("show the connectivity map (heat)", w);
    m_fcHeat->setObjectName("fcHeat");
    connect(m_fcHeat, &QCheckBox::toggled, this, [this](bool on) {
        if (m_live->active() && m_live->method() == Method::FuzzyConnectedness) m_live->showSoftMap(on ? 0 : -1);
    });
    form->addRow(m_fcHeat);
    return w;
}

QWidget* SegmentPanel::buildFcmPage() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    form->addRow(note("Segment > Fuzzy C-means... clusters the volume. Check the clusters to accept; each "
                            "becomes the label of its number.", w));
    m_clusters = new QListWidget(w);
    m_clusters->setObjectName("fcmClusters");
    form->addRow(m_clusters);
    m_fcmHeat = new QComboBox(w);
    m_fcmHeat->setObjectName("fcmHeat");
    m_fcmHeat->addItem("none");
    connect(m_fcmHeat, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_syncing && m_live->active() && m_live->method() == Method::FuzzyCMeans) m_live->showSoftMap(i - 1);
    });
    form->addRow("Membership overlay", m_fcmHeat);
    return w;
}

void SegmentPanel::buildMenus(QMenuBar* bar, QAction* before) {
    QMenu* edit = new QMenu("&Edit", bar);
    bar->insertMenu(before, edit);
    m_undo = edit->addAction("Undo", QKeySequence::Undo, this, [this] { m_model->undo(); });
    m_redo = edit->addAction("Redo", QKeySequence("Ctrl+Shift+Z"), this, [this] { m_model->redo(); });
    m_undo->setObjectName("undoAction");
    m_redo->setObjectName("redoAction");
    refreshUndo();

    QMenu* seg = new QMenu("&Segment", bar);
    bar->insertMenu(before, seg);
    seg->addAction("&Region growing (click seeds)", QKeySequence("G"), this, [this] { enterMode(Method::RegionGrowing); })
        ->setObjectName("modeRegionGrowing");
    seg->addAction("Region &snake (drag a rectangle)", QKeySequence("S"), this, [this] { enterMode(Method::Snake); })
        ->setObjectName("modeSnake");
    seg->addAction("Fuzzy &connectedness...", QKeySequence("F"), this, [this] { askFuzzyConnectedness(); })
        ->setObjectName("actionFuzzyConnectedness");
    seg->addAction("Fuzzy &C-means...", QKeySequence("C"), this, [this] { askFuzzyCMeans(); })
        ->setObjectName("actionFuzzyCMeans");
    seg->addSeparator();
    seg->addAction("&Play / pause", QKeySequence(Qt::Key_Space), this,
                   [this] { m_live->running() ? m_live->pause() : m_live->play(); });
    seg->addAction("S&tep", QKeySequence(Qt::Key_Period), this, [this] { m_live->step(); });
    seg->addAction("&Accept", QKeySequence(Qt::Key_Return), this, [this] { acceptResult(); })->setObjectName("acceptAction");
    seg->addAction("Ca&ncel", QKeySequence(Qt::Key_Escape), this, [this] { m_live->cancel(); });
    seg->addSeparator();
    seg->addAction("Show the &panel", this, [this] { show(); raise(); });
}

std::pair<double, double> SegmentPanel::dataRange() {
    if (!m_range && m_model->hasVolume()) {
        m_range = m_model->volume()->range();  // a pass over the voxels: once per volume
        const auto [lo, hi] = *m_range;
        // A range wider than the data's, so that a dragged interval keeps its width at the ends.
        const double w = hi - lo;
        const int from = int(std::max(-1e9, std::floor(lo - w))), to = int(std::min(1e9, std::ceil(hi + w)));
        const bool was = m_syncing;
        m_syncing = true;
        for (QSpinBox* box : {m_lower, m_upper}) box->setRange(from, to);
        for (QSlider* sl : {m_lowerSlider, m_upperSlider}) sl->setRange(from, to);
        m_syncing = was;
    }
    return m_range.value_or(std::pair<double, double>{0.0, 1.0});
}

void SegmentPanel::refreshUndo() {
    if (!m_undo) return;
    const auto& h = m_model->history();
    m_undo->setEnabled(h.canUndo());
    m_redo->setEnabled(h.canRedo());
    m_undo->setText(h.canUndo() ? QString("Undo %1").arg(QString::fromStdString(h.undoText())) : QString("Undo"));
    m_redo->setText(h.canRedo() ? QString("Redo %1").arg(QString::fromStdString(h.redoText())) : QString("Redo"));
}

void SegmentPanel::setTool(ViewTool* tool) {
    m_grid->setActiveTool(tool);  // the grid owns it: the other panels' tools let go
}

void SegmentPanel::enterMode(Method method) {
    if (m_live->active() && m_live->method() != method) m_live->cancel();
    m_mode = method;
    m_modeChosen = true;
    if (method == Method::RegionGrowing) dataRange();
    m_pages->setCurrentIndex(pageOf(method));
    setTool(method == Method::Snake ? static_cast<ViewTool*>(&m_rectTool)
                                    : method == Method::FuzzyCMeans ? nullptr : static_cast<ViewTool*>(&m_seedTool));
    show();
    refresh();
}

SegmentationRequest SegmentPanel::baseRequest() const {
    SegmentationRequest r;
    r.seeds = m_seedTool.seeds();
    r.regionGrowing.lower = m_lower->value();
    r.regionGrowing.upper = m_upper->value();
    r.regionGrowing.connectivity = m_connectivity->currentIndex() == 1 ? 26 : 6;
    r.fuzzyConnectedness = m_fcParams;
    r.fuzzyConnectedness.threshold = m_threshold->value() / 1000.0;
    r.fuzzyCMeans = m_fcmParams;
    r.snake = m_snakeParams;
    r.snake.propagate = m_propagate->isChecked();
    return r;
}

SegmentSettings SegmentPanel::settings() const {
    SegmentSettings s;
    if (m_modeChosen) s.mode = m_mode;
    s.request = baseRequest();
    s.backend = m_backend->currentText();
    s.stepsPerFrame = m_perFrame->value();
    return s;
}

void SegmentPanel::restoreSettings(const SegmentSettings& s) {
    m_live->cancel();
    if (m_model->hasVolume()) dataRange();  // the interval boxes' range, before their values
    m_syncing = true;  // no run starts while the widgets take their values
    m_backend->setCurrentText(s.backend);
    m_perFrame->setValue(s.stepsPerFrame);
    const SegmentationRequest& r = s.request;
    m_lower->setValue(int(std::lround(r.regionGrowing.lower)));
    m_upper->setValue(int(std::lround(r.regionGrowing.upper)));
    m_connectivity->setCurrentIndex(r.regionGrowing.connectivity == 26 ? 1 : 0);
    m_fcParams = r.fuzzyConnectedness;
    m_threshold->setValue(int(std::lround(r.fuzzyConnectedness.threshold * 1000)));
    m_fcmParams = r.fuzzyCMeans;
    m_snakeParams = r.snake;
    m_propagate->setChecked(r.snake.propagate);
    m_seedTool.setSeeds(r.seeds);
    m_syncing = false;
    if (s.mode) enterMode(*s.mode);
    refresh();
}

bool SegmentPanel::startWith(Method method, const SegmentationRequest& request, bool play, QString* error) {
    if (!m_modeChosen || m_mode != method) enterMode(method);
    if (method == Method::RegionGrowing) dataRange();
    m_syncing = true;
    if (method == Method::RegionGrowing) {
        m_seedTool.setSeeds(request.seeds);
        m_lower->setValue(int(std::lround(request.regionGrowing.lower)));
        m_upper->setValue(int(std::lround(request.regionGrowing.upper)));
        m_connectivity->setCurrentIndex(request.regionGrowing.connectivity == 26 ? 1 : 0);
    } else if (method == Method::FuzzyConnectedness) {
        m_seedTool.setSeeds(request.seeds);
        m_fcParams = request.fuzzyConnectedness;
        m_threshold->setValue(int(std::lround(request.fuzzyConnectedness.threshold * 1000)));
    } else if (method == Method::FuzzyCMeans) {
        m_fcmParams = request.fuzzyCMeans;
    } else {
        m_snakeParams = request.snake;
        m_propagate->setChecked(request.snake.propagate);
    }
    m_syncing = false;
    // Show where the run works: the snake's slice, or the first seed, in every view.
    if (m_model->hasVolume()) {
        Vec3 c = m_model->cursor();
        if (method == Method::Snake) c.z = request.snake.slice;
        else if (!request.seeds.empty()) c = {double(request.seeds[0].i), double(request.seeds[0].j), double(request.seeds[0].k)};
        m_model->setCursor(c);
    }
    const bool ok = m_live->start(method, request, play, error);
    refresh();
    return ok;
}

void SegmentPanel::seedsChanged() {
    if (m_mode == Method::RegionGrowing && m_model->hasVolume()) {
        const auto& seeds = m_seedTool.seeds();
        // The first seed sets the interval around its neighbourhood (mean +- 2.5 sigma, at least 2 % of the range).
        if (seeds.size() == 1 && !m_live->active()) {
            const auto [lo, hi] = dataRange();
            const auto p = FuzzyConnectednessCpu::estimate(*m_model->volume(), seeds, 2, {lo, hi});
            const double half = std::max(2.5 * p.objectSigma, 0.02 * (hi - lo));
            m_syncing = true;
            m_lower->setValue(int(std::floor(p.mean - half)));
            m_upper->setValue(int(std::ceil(p.mean + half)));
            m_syncing = false;
        }
        intervalMoved();
    }
    refresh();
}

void SegmentPanel::intervalMoved() {
    if (m_syncing || m_mode != Method::RegionGrowing || !m_model->hasVolume()) return;
    if (m_seedTool.seeds().empty()) return m_live->cancel();
    if (m_lower->value() > m_upper->value()) return;
    const SegmentationRequest r = baseRequest();
    QString error;
    // A running or finished run takes the new interval (it grows on when it only widens).
    if (m_live->active() && m_live->method() == Method::RegionGrowing) m_live->update(r);
    else if (!m_live->start(Method::RegionGrowing, r, true, &error)) showError(error);
}

void SegmentPanel::snakeRectangle(int slice, std::array<int, 4> rect) {
    SegmentationRequest r = baseRequest();
    r.snake.slice = slice;
    r.snake.rect = rect;
    m_snakeParams.slice = slice;
    m_snakeParams.rect = rect;
    QString error;
    if (!m_live->start(Method::Snake, r, true, &error)) showError(error);
}

void SegmentPanel::askFuzzyConnectedness() {
    enterMode(Method::FuzzyConnectedness);
    if (!m_model->hasVolume()) return showError("Open a volume first.");
    if (m_seedTool.seeds().empty())
        return showError("Click one or more seeds inside the object on the views, then choose Fuzzy connectedness again.");
    const auto volume = m_model->volume();
    const auto est = FuzzyConnectednessCpu::estimate(*volume, m_seedTool.seeds(), m_fcParams.estimateRadius, dataRange());
    FcDialog dialog(m_fcParams, m_fcParams.objectMean.value_or(est.mean), m_fcParams.objectSigma.value_or(est.objectSigma),
                    m_fcParams.diffSigma.value_or(est.diffSigma), int(m_seedTool.seeds().size()), this);
    if (dialog.exec() != QDialog::Accepted) return;
    m_fcParams = dialog.params();
    m_syncing = true;
    m_threshold->setValue(int(std::lround(m_fcParams.threshold * 1000)));
    m_syncing = false;
    QString error;
    if (!m_live->start(Method::FuzzyConnectedness, baseRequest(), true, &error)) showError(error);
}

void SegmentPanel::askFuzzyCMeans() {
    enterMode(Method::FuzzyCMeans);
    if (!m_model->hasVolume()) return showError("Open a volume first.");
    const bool haveLayer = m_model->labels() && m_model->labels()->count(0) < m_model->labels()->voxelCount();
    FcmDialog dialog(m_fcmParams, haveLayer, this);
    if (dialog.exec() != QDialog::Accepted) return;
    m_fcmParams = dialog.params();
    SegmentationRequest r = baseRequest();
    if (dialog.maskedByLayer() && haveLayer) {
        m_fcmMask = std::make_shared<LabelMap>(*m_model->labels());
        r.mask = m_fcmMask.get();
    }
    QString error;
    if (!m_live->start(Method::FuzzyCMeans, r, true, &error)) showError(error);
}

void SegmentPanel::setInterval(double lower, double upper) {
    m_syncing = true;
    m_lower->setValue(int(std::lround(lower)));
    m_upper->setValue(int(std::lround(upper)));
    m_syncing = false;
    intervalMoved();
}

void SegmentPanel::setThreshold(double threshold) { m_threshold->setValue(int(std::lround(threshold * 1000))); }

bool SegmentPanel::acceptResult() {
    if (!m_live->active()) return false;
    const Method method = m_live->method();
    if (method != Method::FuzzyCMeans) m_model->setActiveLabel(std::uint8_t(m_label->value()));
    const LabelInfo* active = m_model->labelTable().find(m_model->activeLabel());
    if (method != Method::FuzzyCMeans && active && active->locked) {
        showError(QString::fromStdString(active->name) + " is locked: unlock it or choose another label to accept into.");
        return false;
    }
    bool changed = false;
    if (method == Method::FuzzyCMeans) {
        refresh();  // the cluster list of a run that finished since the last frame
        std::array<std::uint8_t, 256> labelFor{};
        for (int row = 0; row < m_clusters->count(); ++row)
            if (m_clusters->item(row)->checkState() == Qt::Checked) labelFor[std::size_t(row + 1)] = std::uint8_t(row + 1);
        changed = m_live->accept(labelFor, "Accept fuzzy C-means clusters");
    } else {
        const char* names[] = {"region growing", "fuzzy connectedness", "fuzzy C-means", "region snake"};
        changed = m_live->accept(m_model->activeLabel(), QString("Accept %1").arg(names[int(method)]));
    }
    if (changed) m_model->addEntriesForLayerValues();  // FCM's cluster labels get names and colours
    if (method == Method::RegionGrowing || method == Method::FuzzyConnectedness) m_seedTool.clear();
    refresh();
    return changed;
}

render::ViewOverlay SegmentPanel::overlayFor(const render::SliceViewGeometry& view) const {
    render::ViewOverlay out;
    if (m_modeChosen && m_mode != Method::Snake && m_mode != Method::FuzzyCMeans) m_seedTool.overlay(view, out);
    if (m_mode == Method::Snake) m_rectTool.overlay(view, out);
    if (m_live->active() && m_live->method() == Method::Snake) {
        // The latest polygon comes with what the worker published (no wait for an advance); an
        // earlier one (the scrubber) is asked for once and cached for all views.
        const int key = m_live->shownStep();
        const StepReport& latest = m_live->published().last;
        if (key >= 0 && (key != m_polygonCacheKey || std::size_t(m_live->polygonCount()) != m_polygonCacheCount)) {
            m_polygonCache = m_live->polygon(key);
            m_polygonCacheKey = key;
            m_polygonCacheCount = std::size_t(m_live->polygonCount());
        }
        const bool useLatest = key < 0 && !latest.polygon.empty();
        if (key < 0 && latest.polygon.empty() && m_polygonCacheKey != -1) {  // before the first step: the start
            m_polygonCache = m_live->polygon(-1);
            m_polygonCacheKey = -1;
        }
        // Each polygon on its own slice: a propagating run's latest lies on the slice it works on,
        // which is not the one its rectangle was drawn on.
        render::ViewOverlay::Polyline line;
        line.points = useLatest ? slicePolygonOnScreen(view, latest.polygon, latest.polygonSlice)
                                : slicePolygonOnScreen(view, m_polygonCache.points, m_polygonCache.slice);
        line.markNodes = true;
        line.colour = {1.0f, 0.35f, 0.2f, 1.0f};
        if (!line.points.empty()) out.lines.push_back(std::move(line));
    }
    return out;
}

void SegmentPanel::refresh() {
    const bool active = m_live->active();
    const auto& p = m_live->published();
    const char* titles[] = {"Region growing", "Fuzzy connectedness", "Fuzzy C-means", "Region snake"};
    m_title->setText(m_modeChosen ? titles[int(m_mode)] : "Choose a method in the Segment menu");
    if (!active) {
        m_status->setText(m_modeChosen && m_mode == Method::RegionGrowing && m_seedTool.seeds().empty() ? "click a seed"
                                                                                                       : "-");
    } else if (m_live->method() == Method::Snake) {
        // The slice as the views number it (from 1): a propagating run moves from slice to slice.
        const QString where = p.last.polygonSlice >= 0 ? QString(" on slice %1").arg(p.last.polygonSlice + 1) : QString();
        m_status->setText(QString("%1: step %2, GL %3, %4 nodes%5")
                              .arg(p.starting ? "starting" : sessionStateName(p.state))
                              .arg(p.steps)
                              .arg(p.last.convergence, 0, 'g', 6)
                              .arg(p.last.polygon.size())
                              .arg(where));
    } else {
        m_status->setText(QString("%1: %2 voxels, %3 mL (%4)")
                              .arg(p.starting ? "starting" : sessionStateName(p.state))
                              .arg(m_live->voxels())
                              .arg(m_live->volumeMl(), 0, 'f', 2)
                              .arg(QString::fromStdString(p.backend)));
    }
    m_play->setText(m_live->running() ? "Pause" : "Play");
    for (QWidget* w : {static_cast<QWidget*>(m_play), static_cast<QWidget*>(m_step), static_cast<QWidget*>(m_accept),
                       static_cast<QWidget*>(m_cancel)})
        w->setEnabled(active);
    m_seedCount->setText(QString("%1 seed(s)").arg(m_seedTool.seeds().size()));
    if (active && m_live->method() == Method::Snake && m_live->shownStep() < 0) {
        m_scrubber->setRange(0, std::max(0, m_live->polygonCount() - 1));
        m_scrubber->setValue(m_scrubber->maximum());
    }
    // FCM: the clusters to accept, once the run has settled.
    if (active && m_live->method() == Method::FuzzyCMeans && p.state == SessionState::Finished &&
        m_clusters->count() != m_live->request().fuzzyCMeans.clusters) {
        const auto f = m_live->figures();
        m_clusters->clear();
        for (int c = 0; c < m_live->request().fuzzyCMeans.clusters; ++c) {
            const QString centre = std::size_t(c) < f.centres.size() ? QString(": centre %1").arg(f.centres[std::size_t(c)], 0, 'f', 1) : QString();
            auto* item = new QListWidgetItem(QString("cluster %1%2").arg(c + 1).arg(centre), m_clusters);
            // The legend: the overlay's colour of label c + 1.
            const auto rgb = m_model->labelTable().colourOf(std::uint8_t(c + 1));
            QPixmap swatch(14, 14);
            swatch.fill(QColor(rgb[0], rgb[1], rgb[2]));
            item->setIcon(QIcon(swatch));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
    }
    if (!active || m_live->method() != Method::FuzzyCMeans) m_clusters->clear();
    if (m_fcmHeat->count() != m_clusters->count() + 1) {
        m_syncing = true;
        m_fcmHeat->clear();
        m_fcmHeat->addItem("none");
        for (int c = 1; c <= m_clusters->count(); ++c) m_fcmHeat->addItem(QString("cluster %1").arg(c));
        m_syncing = false;
    }
    if (!active && m_fcHeat->isChecked()) m_fcHeat->setChecked(false);
    if (active && m_live->method() == Method::FuzzyConnectedness && p.state == SessionState::Finished) {
        const auto f = m_live->figures();
        if (f.affinity)
            m_fcFigures->setText(QString("M %1  S %2  D %3").arg(f.affinity->mean, 0, 'f', 1).arg(f.affinity->objectSigma, 0, 'f', 2)
                                     .arg(f.affinity->diffSigma, 0, 'f', 2));
    }
    const render::HudState hud = m_live->hudState();
    for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
        m_grid->view(o)->setHudState(hud);
}

void SegmentPanel::showError(const QString& message) {
    // In the panel and the status bar, not a modal box: a run fails asynchronously, often while
    // the user drags a slider, and a dialog would steal the drag.
    m_status->setText(message);
    emit this->message(message);
}

}  // namespace lucent::ui
