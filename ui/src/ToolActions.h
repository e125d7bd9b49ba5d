/// @brief The checkable tool actions of a panel (label tools, measurement tools): one exclusive but
/// optional group, a shortcut and an object name each, and one handler for any toggle.
#pragma once

#include <QAction>
#include <QActionGroup>
#include <QKeySequence>
#include <QObject>
#include <QString>

namespace lucent::ui {

/// Makes `action` (already made and parented where it shows) a checkable tool of `group` with the
/// shortcut `key` and the object name `name`; toggling it calls `changed` in `context`.
template <class Changed>
QAction* asToolAction(QAction* action, QActionGroup* group, const QString& key, const QString& name, QObject* context,
                      Changed changed) {
    action->setShortcut(QKeySequence(key));
    action->setCheckable(true);
    action->setObjectName(name);
    group->addAction(action);
    QObject::connect(action, &QAction::toggled, context, changed);
    return action;
}

}  // namespace lucent::ui
