/// @brief The live run shown in the 3D pane: the one place that knows both (the run and the views know
/// only LivePreviewSource), used by the window and by tests.
#pragma once

namespace lucent::ui {

class LiveSegmentation;
class View3DWidget;

/// The pane follows `live`'s runs: frames, state, the values shown, their colours, and its end.
void showLiveIn3D(LiveSegmentation* live, View3DWidget* view);

}  // namespace lucent::ui
