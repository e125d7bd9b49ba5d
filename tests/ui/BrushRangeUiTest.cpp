/// @brief The brush that respects the image, driven under Xvfb: V picks the value range at the
/// cursor (region growing's first-seed rule, so a flat tissue gives its value +- 2 % of the data's
/// range), a stroke across two tissues paints only the one in range, as one undo step; with the range
/// off the same stroke paints both.
#include "EventLoopWait.h"
#include "ViewerWindowTest.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QTest>

#include <algorithm>
#include <cmath>

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

class BrushRangeUi : public lucent::testing::ViewerWindowTest {
protected:
    void SetUp() override {
        showWindow();
        activate();
        setVolume(twoTissues());
        k = int(window.model().cursor().z);
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
    /// Pixels of the brush outline's light cyan within 3 pixels of the ring of `radius` device pixels
    /// around `centre` in what view `o` shows now (away from the view's coloured title), read without
    /// painting it again (grabFramebuffer() would paint first, so it cannot tell a view that was never
    /// told to).
    int outlinePixelsShown(Orientation o, std::array<double, 2> centre, double radius) {
        SliceViewWidget* v = window.grid().view(o);
        v->makeCurrent();
        QImage img(v->width() * v->devicePixelRatio(), v->height() * v->devicePixelRatio(), QImage::Format_RGBA8888);
        QOpenGLFunctions* gl = QOpenGLContext::currentContext()->functions();
        gl->glBindFramebuffer(GL_FRAMEBUFFER, v->defaultFramebufferObject());
        gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
        gl->glReadPixels(0, 0, img.width(), img.height(), GL_RGBA, GL_UNSIGNED_BYTE, img.bits());
        v->doneCurrent();
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                if (std::abs(std::hypot(x - centre[0], y - centre[1]) - radius) > 3) continue;
                const QRgb c = img.pixel(x, y);
                n += qBlue(c) > 200 && qGreen(c) > 150 && qRed(c) < 120;
            }
        return n;
    }
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
    // The range on the volume's histogram, as region growing's interval: its keys move the lower
    // handle (the one taken first), and the brush follows.
    auto* band = child<QWidget>("brushRangeHistogram");
    ASSERT_NE(band, nullptr);
    EXPECT_TRUE(band->isVisibleTo(&window.labelPanel())) << "shown with the range on";
    band->setFocus();
    ASSERT_LE(lower + 1, upper);
    QTest::keyClick(band, Qt::Key_Right);  // one unit up
    const double raised = child<QDoubleSpinBox>("brushRangeLower")->value();
    EXPECT_EQ(raised, lower + 1) << "the band's key moved the lower bound";
    ASSERT_TRUE(window.labelPanel().brush().valueRange().has_value());
    EXPECT_EQ(window.labelPanel().brush().valueRange()->first, raised);
    QTest::keyClick(band, Qt::Key_Left);  // back
    EXPECT_EQ(window.labelPanel().brush().valueRange()->first, lower);

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

TEST_F(BrushRangeUi, TheBallsOutlineIsDrawnOnEveryViewItCuts) {
    window.findChild<QComboBox*>("brushShape")->setCurrentIndex(1);  // 3D ball
    ASSERT_EQ(window.labelPanel().brush().shape(), BrushShape::Ball);
    window.findChild<QDoubleSpinBox*>("brushDiameter")->setValue(20.0);  // radius 10 mm
    // The cursor puts the coronal view on j = 45 (5 mm from the ball's centre) and the sagittal view
    // on i = 80 (20 mm: outside the ball).
    window.model().setCursor({80, 45, double(k)});
    QTest::keyClick(axial(), Qt::Key_B);
    const QPoint mouse = screenOf({60, 40, double(k)});
    QTest::mouseMove(axial(), mouse);
    // Where that logical pixel lies in voxels (about (60, 40): the pixel grid rounds it).
    const double dpr = axial()->devicePixelRatioF();
    const Vec3 at = axial()->view().screenToVoxel(mouse.x() * dpr, mouse.y() * dpr);
    ASSERT_NEAR(at.y, 40, 0.5);
    const double expected = std::sqrt(100 - (at.y - 45) * (at.y - 45));
    auto circleOn = [&](Orientation o) {
        render::ViewOverlay out;
        window.labelPanel().brush().overlay(window.grid().view(o)->view(), out);
        return out.lines;
    };
    const auto coronal = circleOn(Orientation::Coronal);
    ASSERT_EQ(coronal.size(), 1u) << "the coronal plane cuts the ball";
    const render::SliceViewGeometry& cv = window.grid().view(Orientation::Coronal)->view();
    const auto centre = cv.voxelToScreen({at.x, 45, double(k)});
    double lo = 1e9, hi = 0;
    for (const auto& p : coronal[0].points) {
        const double r = std::hypot(p[0] - centre[0], p[1] - centre[1]) / cv.pixelsPerMm();
        lo = std::min(lo, r), hi = std::max(hi, r);
    }
    EXPECT_NEAR(lo, expected, 0.01) << "radius sqrt(10^2 - d^2) mm (d about 5) around the centre's foot";
    EXPECT_NEAR(hi, expected, 0.01);
    EXPECT_TRUE(circleOn(Orientation::Sagittal).empty()) << "20 mm away: the sagittal plane misses it";
    // The coronal view is drawn again with it as the mouse moves over the axial view.
    const double ring = expected * cv.pixelsPerMm();
    EXPECT_TRUE(lucent::testing::waitFor([&] { return outlinePixelsShown(Orientation::Coronal, centre, ring) > 40; }))
        << "the coronal view shows the ball's cross-section";
    const render::SliceViewGeometry& sv = window.grid().view(Orientation::Sagittal)->view();
    EXPECT_EQ(outlinePixelsShown(Orientation::Sagittal, sv.voxelToScreen({80, 40, double(k)}), 10 * sv.pixelsPerMm()),
              0);
    const auto axialCircle = circleOn(Orientation::Axial);
    ASSERT_EQ(axialCircle.size(), 1u);
    window.findChild<QComboBox*>("brushShape")->setCurrentIndex(0);  // the 2D disc
    EXPECT_TRUE(circleOn(Orientation::Coronal).empty()) << "a disc stays on the view it is drawn on";
}
