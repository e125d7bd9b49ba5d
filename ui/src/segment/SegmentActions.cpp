/// @brief The Segment menu (SegmentActions.h), bound to the Segment model, the live run and the panel.
#include "lucent/ui/SegmentActions.h"

#include "ActionBinding.h"
#include "FieldKeys.h"

#include "lucent/ui/SegmentPanel.h"

#include <QMenu>

namespace lucent::ui {

SegmentActions::SegmentActions(SegmentPanel* panel, QObject* parent) : QObject(parent), m_panel(panel) {
    makeMethods();
    makeRun();
    m_show = makeAction(this, "Show the &panel");
    connect(m_show, &QAction::triggered, m_panel, [this] {
        m_panel->show();
        m_panel->raise();
    });
}

void SegmentActions::makeMethods() {
    const auto mode = [this](const QString& text, const char* key, const char* name, Method method) {
        QAction* a = makeAction(this, text, {QKeySequence(key)}, name);
        connect(a, &QAction::triggered, m_panel, [this, method] { m_panel->enterMode(method); });
        return a;
    };
    m_regionGrowing = mode("&Region growing (click seeds)", "G", "modeRegionGrowing", Method::RegionGrowing);
    m_snake = mode("Region &snake (drag a rectangle)", "S", "modeSnake", Method::Snake);
    m_snake3d = mode("Region snake in &3D (drag a box, click bubbles)", "Shift+S", "modeSnake3d", Method::Snake3d);
    m_fc = makeAction(this, "Fuzzy &connectedness...", {QKeySequence("F")}, "actionFuzzyConnectedness");
    connect(m_fc, &QAction::triggered, m_panel, [this] { m_panel->askFuzzyConnectedness(); });
    m_fcm = makeAction(this, "Fuzzy &C-means...", {QKeySequence("C")}, "actionFuzzyCMeans");
    connect(m_fcm, &QAction::triggered, m_panel, [this] { m_panel->askFuzzyCMeans(); });
    m_growCut = makeAction(this, "Grow from s&eeds (brush strokes)", {}, "actionGrowCut");
    connect(m_growCut, &QAction::triggered, m_panel, [this] { m_panel->askGrowCut(); });
}

void SegmentActions::makeRun() {
    LiveSegmentation* live = &m_panel->live();
    m_play = makeAction(this, "&Play / pause", {QKeySequence(Qt::Key_Space)});
    connect(m_play, &QAction::triggered, live, [live] { live->running() ? live->pause() : live->play(); });
    m_step = makeAction(this, "S&tep", {QKeySequence(Qt::Key_Period)});
    connect(m_step, &QAction::triggered, live, [live] { live->step(); });
    // Accept: Return wherever the focus is in the window (a view, a slider, a button after a drag), but
    // in a text field, where Return applies the field's value, never the run; Ctrl+Return from there too.
    m_accept = makeAction(this, "&Accept",
                          {QKeySequence(Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::Key_Enter),
                           QKeySequence(Qt::CTRL | Qt::Key_Enter)},
                          "acceptAction");
    if (auto* window = qobject_cast<QWidget*>(parent())) keepReturnInTextFields(window->window());
    connect(m_accept, &QAction::triggered, m_panel, [this] { m_panel->acceptResult(); });
    m_cancel = makeAction(this, "Ca&ncel", {QKeySequence(Qt::Key_Escape)});
    connect(m_cancel, &QAction::triggered, live, [live] { live->cancel(); });
    // Region growing's interval starts as the seed's tissue; a step either way is one key.
    const auto step = [this](int steps) {
        if (!m_panel->model().stepInterval(steps))
            m_panel->showError("Widen and narrow the interval of region growing: click a seed first (G).");
    };
    m_widen = makeAction(this, "&Widen interval", {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)},
                         "widenIntervalAction");
    connect(m_widen, &QAction::triggered, m_panel, [step] { step(1); });
    m_narrow = makeAction(this, "Na&rrow interval", {QKeySequence(Qt::Key_Minus)}, "narrowIntervalAction");
    connect(m_narrow, &QAction::triggered, m_panel, [step] { step(-1); });
    // What the model offers changes with the run (its frames, its state) and the model's own news.
    SegmentationModel* model = &m_panel->model();
    for (auto changed : {&SegmentationModel::modeChanged, &SegmentationModel::parametersChanged,
                         &SegmentationModel::seedsChanged, &SegmentationModel::clustersChanged})
        connect(model, changed, this, &SegmentActions::followAccept);
    for (auto changed : {&LiveSegmentation::framed, &LiveSegmentation::stateChanged})
        connect(live, changed, this, &SegmentActions::followAccept);
    followAccept();
}

void SegmentActions::followAccept() { m_accept->setEnabled(m_panel->model().canAccept()); }

void SegmentActions::addTo(QMenu* segment) {
    segment->addActions({m_regionGrowing, m_snake, m_snake3d, m_fc, m_fcm, m_growCut});
    segment->addSeparator();
    segment->addActions({m_play, m_step, m_accept, m_cancel});
    segment->addSeparator();
    segment->addActions({m_widen, m_narrow});
    segment->addSeparator();
}

void SegmentActions::addPanelTo(QMenu* segment) { segment->addAction(m_show); }

}  // namespace lucent::ui
