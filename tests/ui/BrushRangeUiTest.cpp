/// @brief The brush that respects the image, driven under Xvfb: V picks the value range at the
/// cursor (region growing's first-seed rule, so a flat tissue gives its value +- 2 % of the data's
/// range), a stroke across two tissues paints only the one in range, as one undo step; with the range
/// off the same stroke paints both.
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QTest>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;

namespace {

/// 0 on the left half (i < 48), 100 on the right, 1 mm voxels.
std::shared_ptr<Volume> twoTissues() {
    Geometry g;
    g.dims = {96, 80, 20};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 80; ++j)
            for (int i = 0; i < 96; ++i) v->setValue(g.index(i, j, k), i < 48 ? 0.0 : 100.0);
    v->metadata().modality = "CT";
    return v;
}

class BrushRangeUi : public ::testing::Test {
protected:
    void SetUp() override {
        window.resize(1280, 860);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QApplication::setActiveWindow(&window);
        SeriesInfo info;
        info.modality = "CT";
        window.model().setVolume(twoTissues(), info, "");
        k = int(window.model().cursor().z);
    }
    SliceViewWidget* axial() { return window.grid().view(Orientation::Axial); }
    QPoint screenOf(Vec3 voxel) {
        const auto p = axial()->view().voxelToScreen(voxel);
        return QPoint(int(p[0] / axial()->devicePixelRatioF()), int(p[1] / axial()->devicePixelRatioF()));
    }
    /// A drag along row j = 40 from column 30 to column 66 of the shown slice.
    void strokeAcross() {
        QTest::mousePress(axial(), Qt::LeftButton, {}, screenOf({30, 40, double(k)}));
        for (int i = 34; i <= 66; i += 4) QTest::mouseMove(axial(), screenOf({double(i), 40, double(k)}));
        QTest::mouseRelease(axial(), Qt::LeftButton, {}, screenOf({66, 40, double(k)}));
    }
    std::size_t painted(bool right) {
        const LabelMap& m = *window.model().labels();
        std::size_t n = 0;
        for (int j = 0; j < 80; ++j)
            for (int i = right ? 48 : 0; i < (right ? 96 : 48); ++i) n += m.at(i, j, k) == 1;
        return n;
    }
    template <class T>
    T* child(const char* name) {
        return window.findChild<T*>(name);
    }

    MainWindow window;
    int k = 0;
};

}  // namespace

TEST_F(BrushRangeUi, VPicksTheTissueAtTheCursorAndTheBrushPaintsOnlyThere) {
    window.model().setCursor({70, 40, double(k)});  // on the 100 side
    axial()->setFocus();
    QTest::keyClick(axial(), Qt::Key_V);
    auto* on = child<QCheckBox>("brushRangeOn");
    ASSERT_NE(on, nullptr);
    EXPECT_TRUE(on->isChecked()) << "V turns the range on";
    const double lower = child<QDoubleSpinBox>("brushRangeLower")->value();
    const double upper = child<QDoubleSpinBox>("brushRangeUpper")->value();
    EXPECT_LE(lower, 100.0);
    EXPECT_GE(upper, 100.0);
    EXPECT_GT(lower, 0.0) << "the other tissue is out of range: " << lower << " .. " << upper;
    ASSERT_TRUE(window.labelPanel().brush().valueRange().has_value());

    QTest::keyClick(axial(), Qt::Key_B);
    strokeAcross();
    ASSERT_TRUE(window.model().labels());
    EXPECT_GT(painted(true), 50u) << "the stroke painted the 100 side";
    EXPECT_EQ(painted(false), 0u) << "and nothing on the 0 side";
    QAction* undo = window.findChild<QAction*>("undoAction");
    EXPECT_EQ(undo->text(), "Undo Paint Label 1") << "one stroke, one step";

    undo->trigger();
    on->setChecked(false);
    EXPECT_FALSE(window.labelPanel().brush().valueRange().has_value());
    strokeAcross();
    EXPECT_GT(painted(false), 50u) << "without the range the stroke paints both sides";
    EXPECT_GT(painted(true), 50u);
}
