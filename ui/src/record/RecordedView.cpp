/// @brief RecordedView: the names and sizes a recording takes, and the layout that gives them.
#include "lucent/ui/RecordedView.h"

#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SliceViewWidget.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DWidget.h"
#endif
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/ViewGrid.h"

#include <QApplication>
#include <QRegularExpression>

#include <array>

namespace lucent::ui {

namespace {

struct NamedView {
    const char* name;
    RecordedView::Which which;
};
constexpr std::array<NamedView, 5> kViews{{{"window", RecordedView::Which::Window},
                                           {"axial", RecordedView::Which::Axial},
                                           {"coronal", RecordedView::Which::Coronal},
                                           {"sagittal", RecordedView::Which::Sagittal},
                                           {"3d", RecordedView::Which::View3D}}};
constexpr int kMinSide = 16, kMaxSide = 8192;

}  // namespace

QString RecordedView::viewNames() {
    QStringList names;
    for (const NamedView& v : kViews) names << v.name;
    return names.join("|");
}

std::optional<RecordedView> RecordedView::parse(const QString& view, const QString& size, QString* error) {
    RecordedView out;
    const auto named = std::find_if(kViews.begin(), kViews.end(), [&](const NamedView& v) { return view == v.name; });
    if (named == kViews.end()) {
        if (error) *error = QString("unknown view '%1' (%2)").arg(view, viewNames());
        return std::nullopt;
    }
    out.which = named->which;
    if (size.isEmpty()) return out;
    const QRegularExpressionMatch m = QRegularExpression("^(\\d{1,5})x(\\d{1,5})$").match(size);
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < kMinSide || h < kMinSide || w > kMaxSide || h > kMaxSide) {
        if (error) *error = QString("size '%1' is not WxH with each side %2 to %3").arg(size).arg(kMinSide).arg(kMaxSide);
        return std::nullopt;
    }
    if (out.which == Which::Window) {
        if (error) *error = "a size needs one view (" + viewNames().section('|', 1) + "), not the window";
        return std::nullopt;
    }
    out.size = QSize(w, h);
    return out;
}

std::function<QImage()> prepareRecordedView(MainWindow& window, const RecordedView& view) {
    if (view.which == RecordedView::Which::Window) return [&window] { return captureWindow(&window); };
    ViewGrid& grid = window.grid();
    QOpenGLWidget* shown = nullptr;
    if (view.which == RecordedView::Which::View3D) {
#if LUCENT_HAVE_VTK
        shown = grid.view3D();  // in its pane of the 2x2 layout (the single layout shows a slice view)
#endif
        if (!shown) return {};  // a build without VTK has no 3D pane
    } else {
        const auto o = view.which == RecordedView::Which::Axial     ? render::Orientation::Axial
                       : view.which == RecordedView::Which::Coronal ? render::Orientation::Coronal
                                                                    : render::Orientation::Sagittal;
        SliceViewWidget* slice = grid.view(o);
        grid.setActiveView(slice);
        grid.setLayoutMode(Layout::Single);
        shown = slice;
    }
    if (!view.size.isEmpty()) {
        shown->setFixedSize(view.size);
        window.adjustSize();
    }
    QApplication::processEvents();  // laid out at its size before the first frame
    // The view's own frame: what it draws (its HUD included), without menus, panels or the others.
    return [shown] { return shown->grabFramebuffer(); };
}

}  // namespace lucent::ui
