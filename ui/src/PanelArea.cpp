/// @brief PanelArea (PanelArea.h): the side panels open beside the views instead of in their room.
#include "lucent/ui/PanelArea.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QResizeEvent>
#include <QScreen>

#include <algorithm>

namespace lucent::ui {

PanelArea::PanelArea(QMainWindow* window, QWidget* views, std::vector<QDockWidget*> panels)
    : QObject(window), m_window(window), m_views(views), m_panels(std::move(panels)) {
    for (std::size_t i = 1; i < m_panels.size(); ++i) m_window->tabifyDockWidget(m_panels.front(), m_panels[i]);
    m_inFront.assign(m_panels.size(), false);
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        QDockWidget* panel = m_panels[i];
        connect(panel->toggleViewAction(), &QAction::toggled, this, &PanelArea::panelsChanged);
        connect(panel, &QDockWidget::topLevelChanged, this, &PanelArea::panelsChanged);
        // Closing makes it invisible too: only an open panel's changes say whether its tab is in front.
        connect(panel, &QDockWidget::visibilityChanged, this, [this, panel, i](bool visible) {
            if (!panel->isHidden()) m_inFront[i] = visible;
        });
        connect(panel->toggleViewAction(), &QAction::triggered, this, [this, i](bool on) { chosenFromMenu(i, on); });
    }
    m_views->installEventFilter(this);
    m_window->installEventFilter(this);
    m_windowWidth = m_window->width();
}

void PanelArea::chosenFromMenu(std::size_t i, bool on) {
    QDockWidget* panel = m_panels[i];
    // Qt's toggle has closed a panel that was open behind another tab: the reader asked to see it.
    if (!on && !m_inFront[i]) panel->show();
    if (on || !m_inFront[i]) panel->raise();
}

bool PanelArea::open() const {
    return std::any_of(m_panels.begin(), m_panels.end(), [](QDockWidget* p) { return !p->isHidden() && !p->isFloating(); });
}

// A panel's change and the views' resize it causes come in either order (the main window lays out
// at once or later): whichever comes second pairs them.
void PanelArea::panelsChanged() {
    if (m_unclaimed != 0) {
        makeRoom(std::exchange(m_unclaimed, 0));
        return;
    }
    m_panelEvent = true;
}

bool PanelArea::eventFilter(QObject* watched, QEvent* event) {
    // The user's hand on the window (the separator dragged): what changes now is the user's, not a
    // panel's; a panel change that moved no view (a tab joining an open area) pairs with nothing.
    if (watched == m_window && (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonRelease)) {
        m_panelEvent = false;
        m_unclaimed = 0;
    }
    if (watched == m_views && event->type() == QEvent::Resize) {
        const auto* resize = static_cast<QResizeEvent*>(event);
        const bool windowSame = m_window->width() == m_windowWidth;
        m_windowWidth = m_window->width();
        const int lost = resize->oldSize().width() - resize->size().width();
        m_unclaimed = 0;
        if (windowSame && lost != 0 && resize->oldSize().isValid()) {
            if (std::exchange(m_panelEvent, false))
                makeRoom(lost);
            else
                m_unclaimed = lost;
        }
    }
    return QObject::eventFilter(watched, event);
}

void PanelArea::makeRoom(int lost) {
    const Qt::WindowStates fixed = Qt::WindowMaximized | Qt::WindowFullScreen;
    if (!m_window->isVisible() || (m_window->windowState() & fixed)) return;
    int by = lost;
    if (by > 0 && open()) {
        // No further than the screen's right edge: past it the panels would be off screen.
        if (const QScreen* screen = m_window->screen())
            by = std::min(by, screen->availableGeometry().right() - m_window->frameGeometry().right());
        if (by <= 0) return;
    } else if (by < 0) {
        by = -std::min(-by, m_widenedBy);  // only what the panels' opening added
        if (by == 0) return;
    } else {
        return;
    }
    m_widenedBy += by;
    m_window->resize(m_window->width() + by, m_window->height());
}

}  // namespace lucent::ui
