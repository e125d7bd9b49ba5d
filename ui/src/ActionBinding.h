/// @brief What the action groups share: an action made with its text, keys and object name; a check
/// set from a model without its toggled() setting the model back; a panel's checkable tools (one
/// exclusive but optional group, one handler for any toggle).
#pragma once

#include <QAction>
#include <QActionGroup>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QSignalBlocker>
#include <QString>

#include <initializer_list>

namespace lucent::ui {

/// An action owned by `parent` with `text`, the shortcuts `keys` (none when empty) and the object
/// name `name` (tests and the shortcut overview find it by that name).
inline QAction* makeAction(QObject* parent, const QString& text, const QList<QKeySequence>& keys = {},
                           const QString& name = {}) {
    auto* action = new QAction(text, parent);
    if (!keys.isEmpty()) action->setShortcuts(keys);
    if (!name.isEmpty()) action->setObjectName(name);
    return action;
}

/// Checks `action` as the model says, without its toggled() setting the model back.
inline void checkQuietly(QAction* action, bool on) {
    const QSignalBlocker quiet(action);
    action->setChecked(on);
}

/// A checkable tool: its text, its key and its object name.
struct ToolSpec {
    const char* text;
    const char* key;
    const char* name;
};

/// A panel's tools as one exclusive but optional group owned by `owner` (at most one checked, none
/// allowed: the views then navigate), an action per spec in their order; toggling any of them calls
/// `changed` in `owner`. The group is each action's actionGroup().
template <class Changed>
QList<QAction*> makeToolGroup(QObject* owner, std::initializer_list<ToolSpec> tools, Changed changed) {
    auto* group = new QActionGroup(owner);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    QList<QAction*> actions;
    for (const ToolSpec& t : tools) {
        QAction* action = makeAction(owner, t.text, {QKeySequence(t.key)}, t.name);
        action->setCheckable(true);
        group->addAction(action);
        QObject::connect(action, &QAction::toggled, owner, changed);
        actions << action;
    }
    return actions;
}

}  // namespace lucent::ui
