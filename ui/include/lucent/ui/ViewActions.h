/// @brief The View menu's layout and drawing actions and the mask opacity of the overlay tool bar: the
/// grid's layouts (checked as the grid is arranged, whoever arranged it, and remembered), maximise and
/// reset, and the drawing toggles and the opacity bound both ways to the model.
#pragma once

#include "lucent/ui/ViewGrid.h"

#include <QObject>

#include <array>

class QAction;
class QMenu;
class QSlider;
class QToolBar;

namespace lucent::ui {

class ViewerModel;

class ViewActions : public QObject {
    Q_OBJECT
public:
    ViewActions(ViewerModel* model, ViewGrid* grid, QObject* parent = nullptr);

    /// Layout 1x1 / 2x2 / 1+3, Maximise view, Reset zoom and pan, Linear interpolation, Anatomical
    /// planes, Heads-up display.
    void addTo(QMenu* view);
    /// " Mask opacity " and its slider.
    void addOpacityTo(QToolBar* bar);

    QAction* layout(Layout layout) const { return m_layouts[std::size_t(layout)]; }
    QAction* linearInterpolation() const { return m_linear; }
    QAction* anatomicalPlanes() const { return m_planes; }
    QAction* hud() const { return m_hud; }
    /// Made by addOpacityTo(); null before.
    QSlider* opacity() const { return m_opacity; }

private:
    void bindDrawingToggles();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    std::array<QAction*, 3> m_layouts{};  // by Layout
    QAction *m_maximise, *m_resetZoom, *m_linear, *m_planes, *m_hud;
    QSlider* m_opacity = nullptr;
};

}  // namespace lucent::ui
