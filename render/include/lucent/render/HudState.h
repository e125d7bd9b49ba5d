/// @brief What the heads-up display over a slice view shows, and what its controls ask for: plain
/// data filled by the ui from the running segmentation session each frame (no Qt, no ImGui here).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace lucent::render {

/// The run's figures for the HUD panel; `active` false hides the panel (nothing is running).
struct HudState {
    bool active = false;
    std::string backend;        ///< "CUDA (NVIDIA H100 80GB HBM3)" or "CPU (16 threads)"
    std::string method;         ///< "Region growing", "Snake", ...
    std::string state;          ///< "running", "paused", "finished"
    int iteration = 0;          ///< the method's iterations (steps of the snake) so far
    double msPerStep = 0;       ///< mean wall-clock ms of a step over the last frame
    double framesPerSecond = 0; ///< frames the views actually displayed per second
    std::string figure;         ///< "123,456 voxels  18.2 mL" or "GL 1.234e+05  24 nodes"
    std::vector<float> plot;    ///< convergence figure per step (GL for the snake), may be empty
    std::string plotLabel;      ///< "GL" ...
    bool canStep = false;       ///< the method steps (play / pause / step buttons make sense)
    bool canAccept = false;     ///< the result holds something to accept (else Accept is greyed)
    bool running = false;       ///< shows Pause instead of Play
    std::string speed;          ///< the pace: "20 steps/s" or "max"; empty hides the speed row
    int run = 0;                ///< which run (a new start changes it): the panel keeps one place per run
};

/// A button of the HUD pressed during the frame just drawn.
enum class HudAction { None, Play, Pause, Step, Accept, Cancel, Slower, Faster };

/// Screen-space drawing over one view, in device pixels from the top-left corner.
struct ViewOverlay {
    struct Polyline {
        std::vector<std::array<float, 2>> points;
        bool closed = true;
        std::array<float, 4> colour{1.0f, 0.3f, 0.2f, 1.0f};  ///< RGBA 0..1
        float thickness = 2.0f;
        bool markNodes = false;  ///< a small square at every point (the snake's nodes)
    };
    struct Marker {
        std::array<float, 2> at{0, 0};
        std::array<float, 4> colour{0.2f, 1.0f, 0.3f, 1.0f};
        float radius = 5.0f;
    };
    /// A label beside a measurement; `at` is its top-left corner, lines split at '\n'.
    struct Text {
        std::array<float, 2> at{0, 0};
        std::string text;
        std::array<float, 4> colour{0.88f, 0.88f, 0.88f, 1.0f};
    };
    std::vector<Polyline> lines;
    std::vector<Marker> markers;
    std::vector<Text> texts;
    /// Not drawn: where a run will work (the snake's domain), which the HUD panel keeps clear of
    /// as of the overlay; x0, y0, x1, y1.
    std::vector<std::array<float, 4>> keepClear;
};

}  // namespace lucent::render
