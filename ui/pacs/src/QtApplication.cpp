/// @brief ensureQtApplication: one QCoreApplication for the CLI's Qt services, kept until exit.
#include "lucent/pacs/QtApplication.h"

#include <QCoreApplication>

#include <clocale>

namespace lucent::pacs {

void ensureQtApplication() {
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "lucent";
    static char* argv[] = {name, nullptr};
    static QCoreApplication application(argc, argv);
    // QCoreApplication takes the environment's locale; numbers we print and parse stay in "C".
    std::setlocale(LC_NUMERIC, "C");
}

}  // namespace lucent::pacs
