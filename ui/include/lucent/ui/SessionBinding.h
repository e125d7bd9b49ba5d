/// @brief Between a viewer window and a SavedSession: what the window shows now, the check that a
/// loaded volume can take a session, and a session put back once its volume is in.
#pragma once

#include "lucent/ui/SavedSession.h"

#include <QString>
#include <QStringList>

namespace lucent::ui {

class MainWindow;

class SessionBinding {
public:
    /// The session of `window` (which must hold a volume): data path and series, frame, window,
    /// layout, cursor, zoom and pan, labels and their table, segmentation settings, measurements.
    static SavedSession capture(MainWindow& window);
    /// Why a volume on `grid` cannot take `state` (the data changed since the session was saved),
    /// naming `source`; empty when it can.
    static QString gridProblem(const SavedSession& state, const Geometry& grid, const QString& source);
    /// Puts `state` onto `window`, whose volume was just loaded from the session's data. Returns
    /// what could not be restored (a seed or measurement outside the volume), naming `source`.
    static QStringList apply(MainWindow& window, const SavedSession& state, const QString& source);
};

}  // namespace lucent::ui
