/// @brief The side panels open beside the views (PanelArea): choosing a method from the Segment menu
/// widens the window by the panel's room and the views keep their size, so the anatomy stays where the
/// reader was looking; the Labels and Measurements panels open as tabs of the same area; closing the
/// last gives the width back; at the screen's edge the window grows only that far.
#include "CtPhantom.h"
#include "MenuDriving.h"

#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/SegmentPanel.h"

#include <QDockWidget>
#include <QScreen>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::waitFor;

namespace {

class PanelRoom : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        MenuWindow::SetUp();
        window->move(0, 0);
        window->resize(900, 760);
        SeriesInfo info;
        info.modality = "CT";
        window->model().setVolume(lucent::testing::ctBallPhantom({96, 80, 40}, false), info, "");
        ASSERT_TRUE(waitFor([&] { return window->width() == 900 && window->grid().width() > 0; }));
        QTest::qWait(50);
        viewsWidth = window->grid().width();
        viewsHeight = window->grid().height();
        axialWidth = axial()->width();
    }
    /// Waits for the window's layout to settle after a panel opened or closed.
    void settle() {
        int last = -1, stable = 0;
        waitFor([&] {
            stable = window->width() == last ? stable + 1 : 0;
            last = window->width();
            return stable >= 5;
        });
    }
    int roomToTheRight() const {
        return window->screen()->availableGeometry().right() - window->frameGeometry().right();
    }

    int viewsWidth = 0, viewsHeight = 0, axialWidth = 0;
};

}  // namespace

TEST_F(PanelRoom, ChoosingAMethodWidensTheWindowAndTheViewsKeepTheirSize) {
    ASSERT_GT(roomToTheRight(), 500) << "the test needs a screen wider than the window and its panel";
    trigger("Segment", "Region growing (click seeds)");
    ASSERT_TRUE(waitFor([&] { return window->segment().isVisible(); }));
    settle();
    EXPECT_GT(window->width(), 900 + 150) << "the window took the panel's room";
    EXPECT_EQ(window->grid().width(), viewsWidth) << "the views kept their width";
    EXPECT_EQ(window->grid().height(), viewsHeight);
    EXPECT_EQ(axial()->width(), axialWidth);
    const int widened = window->width();

    // The Labels and Measurements panels: tabs of the same area (the window widens as far as the
    // area does), the views as they were.
    window->labelPanel().show();
    window->measurementPanel().show();
    settle();
    const QList<QDockWidget*> tabs = window->tabifiedDockWidgets(&window->segment());
    EXPECT_TRUE(tabs.contains(&window->labelPanel()) && tabs.contains(&window->measurementPanel()))
        << "the panels share one tabbed area";
    EXPECT_GE(window->width(), widened);
    EXPECT_EQ(window->grid().width(), viewsWidth);
    // A method chosen while another panel is in front brings the Segment panel's tab forward.
    window->measurementPanel().raise();
    ASSERT_TRUE(waitFor([&] { return window->segment().visibleRegion().isEmpty(); }));
    trigger("Segment", "Region snake in 3D (drag a box, click bubbles)");
    EXPECT_TRUE(waitFor([&] { return !window->segment().visibleRegion().isEmpty(); })) << "the Segment tab in front";
    EXPECT_TRUE(window->measurementPanel().visibleRegion().isEmpty());

    // Labels > Label panel on the panel open behind another tab brings it forward; chosen again, closes it.
    trigger("Labels", "Label panel");
    EXPECT_TRUE(waitFor([&] { return !window->labelPanel().visibleRegion().isEmpty(); })) << "the Labels tab in front";
    EXPECT_FALSE(window->labelPanel().isHidden());
    trigger("Labels", "Label panel");
    EXPECT_TRUE(window->labelPanel().isHidden());
    trigger("Labels", "Label panel");
    EXPECT_TRUE(waitFor([&] { return !window->labelPanel().visibleRegion().isEmpty(); })) << "opened in front";

    // Closed one by one: the views as they were; the last one gives back the window's width.
    window->segment().close();
    window->labelPanel().close();
    settle();
    EXPECT_TRUE(window->measurementPanel().isVisible());
    EXPECT_EQ(window->grid().width(), viewsWidth);
    window->measurementPanel().close();
    settle();
    EXPECT_EQ(window->width(), 900);
    EXPECT_EQ(window->grid().width(), viewsWidth);
}

TEST_F(PanelRoom, AtTheScreensEdgeTheWindowGrowsOnlyThatFar) {
    const int room = 40;
    window->move(window->screen()->availableGeometry().right() - window->frameGeometry().width() + 1 - room, 0);
    ASSERT_TRUE(waitFor([&] { return roomToTheRight() == room; })) << roomToTheRight();
    trigger("Segment", "Region growing (click seeds)");
    ASSERT_TRUE(waitFor([&] { return window->segment().isVisible(); }));
    settle();
    EXPECT_EQ(window->width(), 900 + room) << "as far as the screen's edge";
    EXPECT_LT(window->grid().width(), viewsWidth) << "the views gave the rest of the panel's room";
    window->segment().close();
    settle();
    EXPECT_EQ(window->width(), 900);
}
