/// @brief main() of the viewer test executables that use ViewerWindowTest.h: the GL format set before the
/// application exists, test settings of their own, GoogleTest.
#include "lucent/ui/OpenGlSetup.h"

#include <QApplication>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
