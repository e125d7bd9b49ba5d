/// @brief How the viewer writes a file the user named (a CSV export, a PNG): io::writeFileAtomically, so
/// nothing partial is left and an existing file is replaced only by a complete one, and its failure as the
/// line a dialog or the status bar shows.
#pragma once

#include "lucent/io/FileUtil.h"

#include <QString>

#include <exception>
#include <string_view>

namespace lucent::ui {

/// Writes `bytes` to `path`; false with `error` (when given) naming the file and the cause.
inline bool saveFile(const QString& path, std::string_view bytes, QString* error) {
    try {
        io::writeFileAtomically(path.toStdString(), {bytes});
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace lucent::ui
