/// @brief The Window/Level menu, bound to the model: the named presets (keys 1..6) and, above them, the
/// scan's own windows, rebuilt for each volume; the entry whose window is shown is checked.
#pragma once

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace lucent::ui {

class ViewerModel;

class WindowActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the error box of a preset chosen without a volume.
    WindowActions(ViewerModel* model, QWidget* window, QObject* parent = nullptr);

    /// The presets, the scan's windows above them (from now on, for each volume), checks as the menu shows.
    void addTo(QMenu* menu);
    /// Applies preset `name` to the model; the named presets (not a scan's own window) are
    /// remembered for the next volume. False without a volume or with an unknown name.
    bool applyPreset(const QString& name);

    const std::vector<QAction*>& presets() const { return m_presets; }
    /// The scan's own windows, as the menu lists them now.
    const std::vector<QAction*>& scanWindows() const { return m_scanWindows; }

private:
    /// The scan's own windows at the top of the menu ("BRAIN  W 80 L 40").
    void rebuildScanWindows();
    void checkCurrentWindow();

    ViewerModel* m_model;
    QWidget* m_window;
    QMenu* m_menu = nullptr;
    QAction* m_scanWindowsEnd = nullptr;  // separator between the scan's windows and the presets
    std::vector<QAction*> m_presets, m_scanWindows;
};

}  // namespace lucent::ui
