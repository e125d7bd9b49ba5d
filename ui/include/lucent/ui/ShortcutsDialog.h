/// @brief Help > Keyboard shortcuts: every shortcut of the window's actions, read from the actions
/// themselves (so the list stays true), with the keys the views handle and any clash named.
#pragma once

#include <QDialog>
#include <QString>

#include <vector>

namespace lucent::ui {

struct ShortcutEntry {
    QString keys;    ///< "Ctrl+Shift+C" (native text)
    QString menu;    ///< "Edit" (the menu holding the action, empty for a toolbar or hidden action)
    QString action;  ///< "Copy view"
};

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* window, QWidget* parent = nullptr);

    /// The shortcuts of every QAction under `window` (menus, docks, toolbars), sorted by menu.
    static std::vector<ShortcutEntry> collect(const QWidget* window);
    /// Key sequences given to two or more actions: Qt fires neither ("Ambiguous shortcut").
    static QStringList clashes(const std::vector<ShortcutEntry>& entries);
    /// Keys a slice view handles itself (not actions): wheel, arrows, drags.
    static std::vector<ShortcutEntry> viewKeys();
};

}  // namespace lucent::ui
