/// @brief What the action group tests build instead of a main window: a model, a shown window holding the
/// view grid, and a menu to lay a group's actions into; main() is ViewerTestMain.cpp.
#pragma once

#include "CtPhantom.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QSettings>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

#include <gtest/gtest.h>

#include <memory>

namespace lucent::testing {

class ActionGroupTest : public ::testing::Test {
protected:
    void SetUp() override {
        // Settings of their own, empty at each test: what a group remembers is seen by that test alone.
        QCoreApplication::setOrganizationName("Lucent-action-tests");
        QSettings().clear();
        window.resize(900, 700);
        grid = new ui::ViewGrid(&model, &window);
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(grid);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    }
    /// Puts a CT volume on the model (`dicom`: as if read from a DICOM series, one file a slice).
    void loadVolume(bool dicom = false) {
        auto volume = ctBallPhantom({48, 40, 12});
        if (dicom)
            for (int k = 0; k < 12; ++k) volume->metadata().sliceFiles.push_back("slice" + std::to_string(k) + ".dcm");
        SeriesInfo info;
        info.modality = "CT";
        model.setVolume(volume, info, "");
    }
    /// The action of `menu` whose text, without '&', is `text`; null when none.
    static QAction* item(const QMenu& menu, const QString& text) {
        for (QAction* a : menu.actions())
            if (QString(a->text()).remove('&') == text) return a;
        return nullptr;
    }

    ui::ViewerModel model;
    QWidget window;
    ui::ViewGrid* grid = nullptr;
    QMenu menu;
};

}  // namespace lucent::testing
