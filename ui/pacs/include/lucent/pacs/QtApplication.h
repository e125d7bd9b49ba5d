/// @brief The QCoreApplication that Qt's event loop and plugins need, made on demand for the CLI.
#pragma once

namespace lucent::pacs {

/// Creates a QCoreApplication when the process has none (the viewer has its own); numbers keep
/// the "C" locale.
void ensureQtApplication();

}  // namespace lucent::pacs
