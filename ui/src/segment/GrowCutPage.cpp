/// @brief Grow from seeds' page: the brush to paint seeds with, Start, the figures (GrowCutPage.h).
#include "segment/GrowCutPage.h"

#include "lucent/ui/GrowCutSeeds.h"

#include <QAction>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

namespace lucent::ui {

GrowCutPage::GrowCutPage(SegmentationModel* model, LiveSegmentation* live, GrowCutSeeds* seeds, QWidget* parent)
    : SegmentPage(model, live, parent), m_seeds(seeds) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Paint a few strokes in each structure and in the background, each with its own label. "
                          "Start grows them; every stroke after it updates the preview. Accept writes every label.",
                          this));
    // The brush lives in the label panel (Labels > Paint brush): this button takes it up, as B does.
    m_paint = new QPushButton("Paint seeds (B)", this);
    m_paint->setObjectName("growCutPaint");
    connect(m_paint, &QPushButton::clicked, this, [this] {
        if (auto* paint = window()->findChild<QAction*>("paintAction")) {
            if (!paint->isChecked()) paint->trigger();
        }
    });
    m_start = new QPushButton("Start", this);
    m_start->setObjectName("growCutStart");
    m_start->setToolTip("Grows the labels painted so far (restarts a run from the layer as it is)");
    connect(m_start, &QPushButton::clicked, this, [this] {
        QString why;
        if (!m_seeds->start({}, true, &why)) emit m_model->message(why);
    });
    form->addRow(m_paint, m_start);
    m_figures = new QLabel(this);
    m_figures->setObjectName("growCutFigures");
    m_figures->setWordWrap(true);
    form->addRow(m_figures);
    connect(m_seeds, &GrowCutSeeds::changed, this, &GrowCutPage::refresh);
}

void GrowCutPage::refresh() {
    if (!running(Method::GrowCut)) {
        // The full reason goes to the panel's result line when a start is refused; here, what is missing.
        m_figures->setText(m_seeds->readiness());
        return;
    }
    const auto ms = m_seeds->lastUpdateMs();
    m_figures->setText(QString("%1 stroke%2 taken since the start%3")
                           .arg(m_seeds->updates())
                           .arg(m_seeds->updates() == 1 ? "" : "s")
                           .arg(ms ? QString("; %1: %2 ms").arg(m_seeds->lastWasStart() ? "first run" : "last update").arg(*ms, 0, 'f', 1)
                                   : QString()));
}

}  // namespace lucent::ui
