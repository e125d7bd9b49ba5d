/// @brief The window's side panels (Segment, Labels, Measurements) as one tabbed area that opens beside the
/// views, not in their room: choosing a method must not move the anatomy a reader is looking at.
#pragma once

#include <QObject>

#include <cstddef>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace lucent::ui {

/// Tabs the panels together; a panel opened from its menu comes to the front, and its menu entry on a
/// panel open behind another tab brings it forward rather than closing it. When a panel opens, closes, floats or docks and the views' width changes
/// with it (the window's does not), a window that is neither maximised nor full screen takes that
/// room (as far as its screen allows) or gives back what it took, so the views keep their size. A
/// maximised window has no room to add: its views make room. A window resized by the user, or the
/// separator dragged, is left as the user made it.
class PanelArea : public QObject {
    Q_OBJECT
public:
    PanelArea(QMainWindow* window, QWidget* views, std::vector<QDockWidget*> panels);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Whether any panel is open beside the views (shown and docked).
    bool open() const;
    void panelsChanged();
    /// Panel `i`'s menu entry chosen (`on`: it opened): in front either way, unless it was in front.
    void chosenFromMenu(std::size_t i, bool on);
    /// The window takes `lost` pixels of width the views lost to the panels (or gives back what it took
    /// when `lost` is negative).
    void makeRoom(int lost);

    QMainWindow* m_window;
    QWidget* m_views;
    std::vector<QDockWidget*> m_panels;
    int m_windowWidth = 0;     ///< the window's width at the views' last resize
    int m_unclaimed = 0;       ///< the views' last change of width, the window's unchanged, no panel change yet
    bool m_panelEvent = false; ///< a panel changed, the views' resize it causes not yet seen
    int m_widenedBy = 0;
    std::vector<bool> m_inFront;  ///< each panel's tab in front, as last seen while it was open
};

}  // namespace lucent::ui
