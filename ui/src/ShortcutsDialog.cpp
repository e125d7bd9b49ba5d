/// @brief The shortcut overview: actions' shortcuts by menu, the views' own keys, clashes.
#include "lucent/ui/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <tuple>

namespace lucent::ui {

namespace {

QString plain(QString text) { return text.remove('&').remove("...").trimmed(); }

/// "Labels" for an action in the Labels menu; a submenu gives "View > 3D preset".
QString menuPath(const QAction* action) {
    for (QObject* o : action->associatedObjects())
        if (auto* menu = qobject_cast<QMenu*>(o)) {
            QString path = plain(menu->title());
            for (auto* up = qobject_cast<QMenu*>(menu->parent()); up; up = qobject_cast<QMenu*>(up->parent()))
                path = plain(up->title()) + " > " + path;
            return path;
        }
    return {};
}

}  // namespace

std::vector<ShortcutEntry> ShortcutsDialog::collect(const QWidget* window) {
    std::vector<ShortcutEntry> out;
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (a->isSeparator()) continue;
        for (const QKeySequence& key : a->shortcuts())
            if (!key.isEmpty()) out.push_back({key.toString(QKeySequence::NativeText), menuPath(a), plain(a->text())});
    }
    std::sort(out.begin(), out.end(), [](const ShortcutEntry& a, const ShortcutEntry& b) {
        return std::tie(a.menu, a.action, a.keys) < std::tie(b.menu, b.action, b.keys);
    });
    // A menu's action reached through two parents (a shared action) is listed once.
    out.erase(std::unique(out.begin(), out.end(), [](const ShortcutEntry& a, const ShortcutEntry& b) {
                  return a.keys == b.keys && a.menu == b.menu && a.action == b.action;
              }), out.end());
    return out;
}

QStringList ShortcutsDialog::clashes(const std::vector<ShortcutEntry>& entries) {
    std::map<QString, QStringList> byKey;
    for (const auto& e : entries) byKey[e.keys] << (e.menu.isEmpty() ? e.action : e.menu + " > " + e.action);
    QStringList out;
    for (const auto& [key, actions] : byKey)
        if (actions.size() > 1) out << key + ": " + actions.join(", ");
    return out;
}

std::vector<ShortcutEntry> ShortcutsDialog::viewKeys() {
    // SliceViewWidget::keyPressEvent and its mouse handlers: not actions, so listed here.
    return {{"Wheel, Up / Down", "In a view", "Previous / next slice"},
            {"PageUp / PageDown", "In a view", "10 slices"},
            {"Home / End", "In a view", "First / last slice"},
            {"R", "In a view", "Reset zoom and pan of this view"},
            {"Ctrl+Wheel", "In a view", "Zoom about the mouse"},
            {"Right-drag", "In a view", "Window (horizontal) and level (vertical)"},
            {"Middle-drag", "In a view", "Pan"},
            {"Left click / drag", "In a view", "Crosshair (or the active tool)"}};
}

ShortcutsDialog::ShortcutsDialog(QWidget* window, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Keyboard shortcuts");
    setObjectName("shortcutsDialog");
    std::vector<ShortcutEntry> rows = collect(window);
    const QStringList clash = clashes(rows);
    const auto view = viewKeys();
    rows.insert(rows.end(), view.begin(), view.end());
    auto* table = new QTableWidget(int(rows.size()), 3, this);
    table->setObjectName("shortcutsTable");
    table->setHorizontalHeaderLabels({"Keys", "Menu", "Action"});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    for (int r = 0; r < int(rows.size()); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].keys));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].menu));
        table->setItem(r, 2, new QTableWidgetItem(rows[r].action));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    if (!clash.isEmpty()) {
        // Qt fires neither of two actions that share a key: say which, so it gets fixed.
        auto* warn = new QLabel("Shared keys (neither action fires): " + clash.join("; "), this);
        warn->setObjectName("shortcutClashes");
        warn->setWordWrap(true);
        layout->addWidget(warn);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 560);
}

}  // namespace lucent::ui
